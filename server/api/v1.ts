import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import express, { type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { resolveCardToken } from "../../app/domain/loyalty/card-tokens.server";
import { LoyaltyError, type LoyaltyErrorCode } from "../../app/domain/loyalty/errors";
import { memberPoints } from "../../app/domain/loyalty/points.server";
import { MAX_AMOUNT, recordPurchase, refundPurchase } from "../../app/domain/loyalty/purchases.server";
import { useCoupon } from "../../app/domain/loyalty/rewards.server";
import { type ApiKey, authenticateApiKey } from "../../app/domain/pos/api-keys.server";
import type { Database } from "../db/client";
import { apiIdempotency, loyaltyAccount, member, purchase, rateLimitCounter } from "../db/schema";
import type { Logger } from "../logger";
import { API_ERROR_CODES } from "./error-codes";
import { renderApiReference } from "./reference-page";

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

/**
 * Counts one request against the key's fixed one-minute window in the shared rate-limit table (so the
 * limit holds across instances) in a single upsert; answers the seconds to wait when over the limit.
 * Unlike the sign-in limits (hitLimits), refused requests are counted too: a POS over its limit
 * only pushes its own counter further, and the request path saves a round trip.
 */
async function countApiRequest(db: Database, apiKeyId: string, now = new Date()): Promise<number | null> {
  const start = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const end = new Date(start.getTime() + 60_000);
  const [row] = await db
    .insert(rateLimitCounter)
    .values({ key: `api:${apiKeyId}:minute`, windowStart: start, count: 1, lastHitAt: now, expiresAt: end })
    .onConflictDoUpdate({
      target: [rateLimitCounter.key, rateLimitCounter.windowStart],
      set: { count: sql`${rateLimitCounter.count} + 1`, lastHitAt: now },
    })
    .returning({ count: rateLimitCounter.count });
  if ((row?.count ?? 0) <= API_REQUESTS_PER_MINUTE) return null;
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}

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

  // The human-readable reference, rendered from the same document (self-contained HTML, no scripts).
  let referencePage: string | null = null;
  router.get("/docs", (_req, res) => {
    referencePage ??= renderApiReference(openApiDocument());
    res.setHeader("Cache-Control", "public, max-age=300");
    res.type("html").send(referencePage);
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
    const retryAfter = await countApiRequest(db, key.id);
    if (retryAfter !== null) {
      res.setHeader("Retry-After", String(retryAfter));
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

/** Example values, shared by the document and the reference page. */
const EXAMPLE = {
  memberNumber: "HL10000001",
  cardToken: "AbCdEfGhIjKlMnOpQrStUvWxYz0.AbCdEfGhIjKlMnOpQrStUv",
  purchaseId: "5b0f1c9e-3f7a-4c53-9d1e-0c2a4b6d8e10",
  couponCode: "K7QWPX3M9TDAHN4RBEZ2C5LUV8",
};

/** zh-TW texts beside the English ones (`x-zh-TW`): the reference page shows both. */
type Texts = { summary: string; description: string; "x-zh-TW": { summary: string; description: string } };
function texts(en: [string, string], zh: [string, string]): Texts {
  return { summary: en[0], description: en[1], "x-zh-TW": { summary: zh[0], description: zh[1] } };
}

let cachedDocument: Record<string, unknown> | null = null;

export function openApiDocument(): Record<string, unknown> {
  if (cachedDocument) return cachedDocument;
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { target: "draft-2020-12", io: "input" });
  const errors = (...statuses: number[]) =>
    Object.fromEntries(
      statuses.map((status) => {
        const first = API_ERROR_CODES.find((e) => e.status === status);
        const codes = API_ERROR_CODES.filter((e) => e.status === status).map((e) => e.code);
        return [
          String(status),
          {
            description: `Error: ${codes.join(", ")}`,
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Error" },
                example: { error: { code: first?.code ?? "bad_request", message: first?.en ?? "Error" } },
              },
            },
          },
        ];
      }),
    );
  const json = (s: z.ZodType, description: string, example: unknown) => ({
    description,
    content: { "application/json": { schema: schema(s), example } },
  });
  const body = (s: z.ZodType, example: unknown) => ({
    required: true,
    content: { "application/json": { schema: schema(s), example } },
  });
  const idempotencyKey = {
    name: "Idempotency-Key",
    in: "header",
    required: true,
    description: "1–200 visible ASCII characters, e.g. a UUID; the same key with the same body replays the answer",
    schema: { type: "string", minLength: 1, maxLength: 200 },
    example: "9b6e2c1a-8f0d-4c7e-a1b2-3c4d5e6f7a80",
  };
  const memberSummary = { memberNumber: EXAMPLE.memberNumber, maskedName: "王○明", tier: "silver", balance: 1234 };
  cachedDocument = {
    openapi: "3.1.0",
    info: {
      title: "Han Living point-of-sale API",
      version: "1.0.0",
      description:
        "JSON over HTTPS for the stores' tills: look up members, book purchases and refunds, use coupons. " +
        "Every write needs an Idempotency-Key; errors carry a stable code.",
      "x-zh-TW": {
        title: "漢生活 POS 收銀系統 API",
        description:
          "門市收銀系統使用的 JSON API：查詢會員、登錄消費與退貨、核銷優惠券。每個寫入請求都需要 Idempotency-Key；錯誤一律附穩定的代碼。",
      },
    },
    servers: [{ url: "/api/v1" }],
    security: [{ bearer: [] }],
    "x-error-codes": API_ERROR_CODES,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: `A store's API key (hlpos_…), shown once when created. ${API_REQUESTS_PER_MINUTE} requests a minute per key.`,
        },
      },
      schemas: { Error: schema(ErrorBody) },
    },
    paths: {
      "/members/lookup": {
        get: {
          operationId: "lookupMember",
          ...texts(
            [
              "Look up a member",
              "By the member card QR (cardToken, valid 45 s), the member number, or the mobile number — exactly one. The name is masked.",
            ],
            ["查詢會員", "以會員卡 QR 碼（cardToken，45 秒內有效）、會員編號或手機號碼查詢，三者擇一。姓名會遮蔽。"],
          ),
          parameters: [
            ["cardToken", "The scanned member card QR", EXAMPLE.cardToken],
            ["memberNumber", "e.g. HL10000001", EXAMPLE.memberNumber],
            ["phone", "e.g. 0912345678", "0912345678"],
          ].map(([name, description, example]) => ({
            name,
            in: "query",
            required: false,
            description,
            schema: { type: "string" },
            example,
          })),
          responses: { "200": json(MemberSummary, "The member", memberSummary), ...errors(400, 401, 404, 422, 429) },
        },
      },
      "/members/{memberNumber}/balance": {
        get: {
          operationId: "memberBalance",
          ...texts(
            ["Balance and recent ledger", "The balance, the tier and the newest 20 ledger entries."],
            ["點數餘額與近期明細", "點數餘額、會員等級與最近 20 筆點數明細。"],
          ),
          parameters: [
            {
              name: "memberNumber",
              in: "path",
              required: true,
              schema: { type: "string" },
              example: EXAMPLE.memberNumber,
            },
          ],
          responses: {
            "200": json(BalanceAnswer, "Balance and recent ledger", {
              memberNumber: EXAMPLE.memberNumber,
              balance: 1234,
              tier: "silver",
              entries: [{ kind: "earn-purchase", amount: 300, createdAt: "2026-11-22T02:00:00.000Z" }],
            }),
            ...errors(401, 404, 422, 429),
          },
        },
      },
      "/purchases": {
        post: {
          operationId: "recordPurchase",
          ...texts(
            [
              "Record a purchase",
              "Books the purchase for the key's store and earns points (1 per NT$100 of net amount × the tier multiplier). The same receipt number at the same store is one purchase: sending it again answers 200 with the first result.",
            ],
            [
              "登錄消費",
              "以金鑰所屬門市登錄消費並累積點數（淨額每滿新台幣 100 元 1 點 × 等級倍數）。同一門市的同一發票號碼只算一筆：重送會以 200 回覆第一次的結果。",
            ],
          ),
          parameters: [idempotencyKey],
          requestBody: body(PurchaseBody, {
            memberNumber: EXAMPLE.memberNumber,
            receiptNumber: "A-0001",
            netAmount: 25000,
            purchasedAt: "2026-11-22T10:00:00+08:00",
          }),
          responses: {
            "201": json(PurchaseAnswer, "Booked", {
              purchaseId: EXAMPLE.purchaseId,
              receiptNumber: "A-0001",
              pointsEarned: 300,
              balance: 1534,
              tier: "silver",
            }),
            "200": json(PurchaseAnswer, "This receipt was already booked", {
              purchaseId: EXAMPLE.purchaseId,
              receiptNumber: "A-0001",
              pointsEarned: 300,
              balance: 1534,
              tier: "silver",
            }),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
      "/purchases/{id}/refunds": {
        post: {
          operationId: "refundPurchase",
          ...texts(
            [
              "Refund a purchase (full or partial)",
              "Reverses the points in proportion to the amount. The refunds of a purchase can never add up to more than the purchase.",
            ],
            ["退貨（全部或部分）", "依退貨金額比例扣回點數。同一筆消費的退貨總額不得超過原消費金額。"],
          ),
          parameters: [
            {
              name: "id",
              in: "path",
              required: true,
              description: "purchaseId from the purchase's answer",
              schema: { type: "string" },
              example: EXAMPLE.purchaseId,
            },
            idempotencyKey,
          ],
          requestBody: body(RefundBody, { amount: 5000 }),
          responses: {
            "201": json(RefundAnswer, "Refund booked", {
              refundId: "0d9c8b7a-6f5e-4d3c-2b1a-098765432100",
              pointsReversed: 60,
              balance: 1474,
              refundedAmount: 5000,
            }),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
      "/coupons/{code}/redeem": {
        post: {
          operationId: "redeemCoupon",
          ...texts(
            [
              "Use (redeem) a coupon",
              "Marks the member's coupon used at the key's store, once. Used, cancelled, expired and other stores' coupons are refused with their code.",
            ],
            [
              "核銷優惠券",
              "在金鑰所屬門市核銷會員的優惠券，只能使用一次。已使用、已取消、已過期或不適用本門市的優惠券會以對應代碼拒絕。",
            ],
          ),
          parameters: [
            { name: "code", in: "path", required: true, schema: { type: "string" }, example: EXAMPLE.couponCode },
            idempotencyKey,
          ],
          requestBody: body(RedeemCouponBody, {}),
          responses: {
            "200": json(CouponAnswer, "Coupon used", {
              code: EXAMPLE.couponCode,
              status: "used",
              usedAt: "2026-11-22T02:05:00.000Z",
            }),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
    },
  };
  return cachedDocument;
}
