import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import express, { type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { hitLimits } from "../../app/domain/auth/rate-limits.server";
import { resolveCardToken } from "../../app/domain/loyalty/card-tokens.server";
import { LoyaltyError, type LoyaltyErrorCode } from "../../app/domain/loyalty/errors";
import { memberPoints } from "../../app/domain/loyalty/points.server";
import { MAX_AMOUNT, recordPurchase, refundPurchase } from "../../app/domain/loyalty/purchases.server";
import { useCoupon } from "../../app/domain/loyalty/rewards.server";
import { type ApiKey, authenticateApiKey } from "../../app/domain/pos/api-keys.server";
import type { Database } from "../db/client";
import { apiIdempotency, loyaltyAccount, member, purchase } from "../db/schema";
import type { Logger } from "../logger";

/**
 * The point-of-sale REST API (PRODUCT.md §6, docs/api.md). JSON only; Bearer API keys per store;
 * `Idempotency-Key` on every write; errors as `{ error: { code, message } }` with stable codes.
 */

export const API_BODY_LIMIT = "32kb";
export const API_REQUESTS_PER_MINUTE = 600;

// ---- Schemas (the OpenAPI document is generated from these) ----

const amount = z.number().int().min(1).max(MAX_AMOUNT).describe("NT$, a whole number");
export const PurchaseBody = z
  .object({
    memberNumber: z.string().min(1).max(20),
    receiptNumber: z.string().min(1).max(100),
    netAmount: amount,
    purchasedAt: z.iso.datetime({ offset: true }).optional().describe("Defaults to now"),
  })
  .strict();
export const RefundBody = z.object({ amount }).strict();
export const RedeemCouponBody = z.object({}).strict();
export const LookupQuery = z
  .object({
    phone: z.string().max(20).optional(),
    memberNumber: z.string().max(20).optional(),
    cardToken: z.string().max(100).optional(),
  })
  .refine((q) => [q.phone, q.memberNumber, q.cardToken].filter(Boolean).length === 1, {
    message: "Give exactly one of phone, memberNumber, cardToken",
  });
const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
const MemberSummary = z.object({
  memberNumber: z.string(),
  maskedName: z.string(),
  tier: z.enum(["basic", "silver", "gold"]),
  balance: z.number().int(),
});
const PurchaseAnswer = z.object({
  purchaseId: z.string(),
  receiptNumber: z.string(),
  pointsEarned: z.number().int(),
  balance: z.number().int(),
  tier: z.string(),
});
const RefundAnswer = z.object({
  refundId: z.string(),
  pointsReversed: z.number().int(),
  balance: z.number().int(),
  refundedAmount: z.number().int(),
});
const CouponAnswer = z.object({ code: z.string(), status: z.literal("used"), usedAt: z.string() });
const BalanceAnswer = z.object({
  memberNumber: z.string(),
  balance: z.number().int(),
  tier: z.string(),
  entries: z.array(z.object({ kind: z.string(), amount: z.number().int(), createdAt: z.string() })),
});

// ---- Errors ----

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const STATUS: Partial<Record<LoyaltyErrorCode, number>> = {
  member_not_found: 404,
  purchase_not_found: 404,
  coupon_not_found: 404,
  reward_not_found: 404,
  receipt_conflict: 409,
  idempotency_conflict: 409,
  coupon_used: 409,
  coupon_cancelled: 409,
  invalid_amount: 400,
  invalid_input: 400,
};

function send(res: Response, status: number, body: unknown) {
  res.status(status).setHeader("Cache-Control", "no-store").json(body);
}

function fail(res: Response, status: number, code: string, message: string) {
  send(res, status, { error: { code, message } });
}

/** 王小明 → 王○明, 陳美 → 陳○, Alice → A○○○e. */
export function maskName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= 1) return "○";
  if (chars.length === 2) return `${chars[0]}○`;
  return `${chars[0]}${"○".repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

type Locals = { apiKey: ApiKey };

const KNOWN_PATHS = [
  /^\/members\/lookup$/,
  /^\/members\/[^/]+\/balance$/,
  /^\/purchases$/,
  /^\/purchases\/[^/]+\/refunds$/,
  /^\/coupons\/[^/]+\/redeem$/,
];

export function createApiV1Router(options: { db: Database; cardSecret: string; logger: Logger }): express.Router {
  const { db, cardSecret, logger } = options;
  const router = express.Router();

  router.get("/openapi.json", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=300");
    res.json(openApiDocument());
  });

  // Unknown paths are 404 before anything else (the paths are public in the OpenAPI document anyway).
  router.use((req, res, next) => {
    if (KNOWN_PATHS.some((pattern) => pattern.test(req.path))) return next();
    fail(res, 404, "not_found", "Unknown API endpoint");
  });

  // Content type and body: JSON only, small.
  router.use((req, res, next) => {
    if (req.method !== "POST") return next();
    if (!req.is("application/json")) {
      fail(res, 415, "unsupported_media_type", "Send the body as application/json");
      return;
    }
    next();
  });
  router.use(express.json({ limit: API_BODY_LIMIT, strict: true }));

  // Authentication and the per-key rate limit.
  router.use(async (req, res, next) => {
    const header = req.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const key = match ? await authenticateApiKey(db, match[1]!) : null;
    if (!key) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="api"');
      fail(res, 401, "unauthorized", "A valid API key is required (Authorization: Bearer …)");
      return;
    }
    const limit = await hitLimits(db, [{ key: `api:${key.id}`, window: "minute", max: API_REQUESTS_PER_MINUTE }]);
    if (!limit.allowed) {
      res.setHeader("Retry-After", String(limit.retryAfterSeconds));
      fail(res, 429, "rate_limited", "Too many requests for this API key");
      return;
    }
    (res.locals as Locals).apiKey = key;
    next();
  });

  // Idempotency: every write needs a key; the first answer is kept and replayed.
  router.use(async (req, res, next) => {
    if (req.method !== "POST") return next();
    const key = req.get("idempotency-key");
    if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
      fail(res, 400, "idempotency_key_required", "Send an Idempotency-Key header (1–200 visible ASCII characters)");
      return;
    }
    const apiKeyId = (res.locals as Locals).apiKey.id;
    const requestHash = createHash("sha256")
      .update(`${req.method} ${req.baseUrl}${req.path}\n${JSON.stringify(req.body ?? null)}`)
      .digest("hex");
    const [claimed] = await db
      .insert(apiIdempotency)
      .values({ apiKeyId, key, requestHash })
      .onConflictDoNothing()
      .returning();
    if (!claimed) {
      const [first] = await db
        .select()
        .from(apiIdempotency)
        .where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)));
      if (!first || first.requestHash !== requestHash) {
        fail(res, 409, "idempotency_key_reused", "This Idempotency-Key was used with a different request");
      } else if (first.status === null) {
        fail(res, 409, "request_in_progress", "A request with this Idempotency-Key is still in progress");
      } else {
        res.setHeader("Idempotent-Replayed", "true");
        send(res, first.status, first.response);
      }
      return;
    }
    // Keep the answer (4xx included: the same request gets the same refusal); forget 5xx so a retry runs.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const done =
        res.statusCode >= 500
          ? db.delete(apiIdempotency).where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)))
          : db
              .update(apiIdempotency)
              .set({ status: res.statusCode, response: body })
              .where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)));
      done.then(
        () => json(body),
        (error: unknown) => next(error),
      );
      return res;
    };
    next();
  });

  const handle =
    (run: (req: Request, res: Response, key: ApiKey) => Promise<void>) =>
    (req: Request, res: Response, next: NextFunction) => {
      run(req, res, (res.locals as Locals).apiKey).catch(next);
    };

  async function memberByNumber(memberNumber: string) {
    const [found] = await db.select().from(member).where(eq(member.memberNumber, memberNumber.toUpperCase()));
    if (!found) throw new ApiError(404, "member_not_found", "Unknown member");
    if (found.disabled) throw new ApiError(422, "member_disabled", "The member is disabled");
    return found;
  }

  async function summary(m: typeof member.$inferSelect) {
    const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
    return {
      memberNumber: m.memberNumber,
      maskedName: maskName(m.nameZh),
      tier: account?.tier ?? "basic",
      balance: account?.balance ?? 0,
    };
  }

  router.get(
    "/members/lookup",
    handle(async (req, res) => {
      const query = LookupQuery.safeParse(req.query);
      if (!query.success)
        throw new ApiError(400, "invalid_query", "Give exactly one of phone, memberNumber, cardToken");
      const { phone, memberNumber, cardToken } = query.data;
      let found: typeof member.$inferSelect | undefined;
      if (cardToken) {
        const resolved = await resolveCardToken(db, cardSecret, cardToken);
        if (!resolved.ok) {
          if (resolved.reason === "member_disabled")
            throw new ApiError(422, "member_disabled", "The member is disabled");
          if (resolved.reason === "unknown_member") throw new ApiError(404, "member_not_found", "Unknown member");
          throw new ApiError(422, `card_token_${resolved.reason}`, `The card token is ${resolved.reason}`);
        }
        found = resolved.member;
      } else if (memberNumber) {
        found = await memberByNumber(memberNumber);
      } else if (phone) {
        const e164 = phone.replace(/[\s-]/g, "").replace(/^09/, "+8869");
        [found] = await db.select().from(member).where(eq(member.phoneNumber, e164));
        if (!found) throw new ApiError(404, "member_not_found", "Unknown member");
        if (found.disabled) throw new ApiError(422, "member_disabled", "The member is disabled");
      }
      if (!found) throw new ApiError(404, "member_not_found", "Unknown member");
      send(res, 200, await summary(found));
    }),
  );

  router.get(
    "/members/:memberNumber/balance",
    handle(async (req, res) => {
      const m = await memberByNumber(String(req.params.memberNumber));
      const points = await memberPoints(db, m.id, 20);
      send(res, 200, {
        memberNumber: m.memberNumber,
        balance: points.balance,
        tier: points.tier,
        entries: points.entries.map((e) => ({ kind: e.kind, amount: e.amount, createdAt: e.createdAt.toISOString() })),
      });
    }),
  );

  router.post(
    "/purchases",
    handle(async (req, res, key) => {
      const body = parse(PurchaseBody, req.body);
      const m = await memberByNumber(body.memberNumber);
      const result = await recordPurchase(db, {
        memberId: m.id,
        storeId: key.storeId,
        receiptNumber: body.receiptNumber,
        netAmount: body.netAmount,
        purchasedAt: body.purchasedAt ? new Date(body.purchasedAt) : new Date(),
        apiKeyId: key.id,
      });
      send(res, result.replayed ? 200 : 201, {
        purchaseId: result.purchase.id,
        receiptNumber: result.purchase.receiptNumber,
        pointsEarned: result.pointsEarned,
        balance: result.balance,
        tier: result.tier,
      });
    }),
  );

  router.post(
    "/purchases/:id/refunds",
    handle(async (req, res, key) => {
      const body = parse(RefundBody, req.body);
      const id = String(req.params.id);
      const [found] = /^[0-9a-f-]{36}$/i.test(id)
        ? await db
            .select()
            .from(purchase)
            .where(and(eq(purchase.id, id), eq(purchase.storeId, key.storeId)))
        : [];
      // Another store's purchase is as unknown as a missing one.
      if (!found) throw new ApiError(404, "purchase_not_found", "Unknown purchase");
      const result = await refundPurchase(db, {
        purchaseId: found.id,
        amount: body.amount,
        idempotencyKey: `api:${key.id}:${req.get("idempotency-key")}`,
        apiKeyId: key.id,
      });
      send(res, 201, {
        refundId: result.refund.id,
        pointsReversed: result.pointsReversed,
        balance: result.balance,
        refundedAmount: result.purchase.refundedAmount,
      });
    }),
  );

  router.post(
    "/coupons/:code/redeem",
    handle(async (req, res, key) => {
      parse(RedeemCouponBody, req.body);
      const used = await useCoupon(db, { code: String(req.params.code), storeId: key.storeId, apiKeyId: key.id });
      send(res, 200, { code: used.code, status: "used", usedAt: used.usedAt?.toISOString() });
    }),
  );

  router.use((_req, res) => fail(res, 404, "not_found", "Unknown API endpoint"));

  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof ApiError) return fail(res, error.status, error.code, error.message);
    if (error instanceof LoyaltyError) return fail(res, STATUS[error.code] ?? 422, error.code, error.message);
    const type = (error as { type?: string }).type;
    if (type === "entity.parse.failed") return fail(res, 400, "malformed_json", "The body is not valid JSON");
    if (type === "entity.too.large") return fail(res, 413, "payload_too_large", "Request body is too large");
    if (type) return fail(res, 400, "bad_request", "The request body could not be read");
    logger.error({ err: error, reqId: res.locals.requestId }, "api error");
    fail(res, 500, "internal_error", "Something went wrong; retry with the same Idempotency-Key");
  });

  return router;
}

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") || "body";
    const isAmount = issue?.path[0] === "netAmount" || issue?.path[0] === "amount";
    throw new ApiError(400, isAmount ? "invalid_amount" : "invalid_body", `${path}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

// ---- OpenAPI 3.1 ----

let cachedDocument: Record<string, unknown> | null = null;

export function openApiDocument(): Record<string, unknown> {
  if (cachedDocument) return cachedDocument;
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { target: "draft-2020-12", io: "input" });
  const errors = (...statuses: number[]) =>
    Object.fromEntries(
      statuses.map((s) => [
        String(s),
        { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      ]),
    );
  const json = (s: z.ZodType, description: string) => ({
    description,
    content: { "application/json": { schema: schema(s) } },
  });
  const idempotencyKey = {
    name: "Idempotency-Key",
    in: "header",
    required: true,
    schema: { type: "string", minLength: 1, maxLength: 200 },
  };
  cachedDocument = {
    openapi: "3.1.0",
    info: { title: "Han Living point-of-sale API", version: "1.0.0" },
    servers: [{ url: "/api/v1" }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: { Error: schema(ErrorBody) },
    },
    paths: {
      "/members/lookup": {
        get: {
          operationId: "lookupMember",
          parameters: ["phone", "memberNumber", "cardToken"].map((name) => ({
            name,
            in: "query",
            required: false,
            schema: { type: "string" },
          })),
          responses: { "200": json(MemberSummary, "The member"), ...errors(400, 401, 404, 422, 429) },
        },
      },
      "/members/{memberNumber}/balance": {
        get: {
          operationId: "memberBalance",
          parameters: [{ name: "memberNumber", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": json(BalanceAnswer, "Balance and recent ledger"), ...errors(401, 404, 422, 429) },
        },
      },
      "/purchases": {
        post: {
          operationId: "recordPurchase",
          parameters: [idempotencyKey],
          requestBody: { required: true, content: { "application/json": { schema: schema(PurchaseBody) } } },
          responses: {
            "201": json(PurchaseAnswer, "Booked"),
            "200": json(PurchaseAnswer, "This receipt was already booked"),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
      "/purchases/{id}/refunds": {
        post: {
          operationId: "refundPurchase",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }, idempotencyKey],
          requestBody: { required: true, content: { "application/json": { schema: schema(RefundBody) } } },
          responses: { "201": json(RefundAnswer, "Refund booked"), ...errors(400, 401, 404, 409, 413, 415, 422, 429) },
        },
      },
      "/coupons/{code}/redeem": {
        post: {
          operationId: "redeemCoupon",
          parameters: [{ name: "code", in: "path", required: true, schema: { type: "string" } }, idempotencyKey],
          requestBody: { required: true, content: { "application/json": { schema: schema(RedeemCouponBody) } } },
          responses: { "200": json(CouponAnswer, "Coupon used"), ...errors(400, 401, 404, 409, 413, 415, 422, 429) },
        },
      },
    },
  };
  return cachedDocument;
}
