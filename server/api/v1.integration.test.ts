import type { DatabaseHandle } from "@platform/db/client";
import { apiKey, apiRateCounter, coupon as couponTable, pointEntry, reward } from "@platform/db/schema";
import { Validator } from "@seriousme/openapi-schema-validator";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { issueCardToken } from "../../app/domain/loyalty/card-tokens.server";
import { adjustPoints } from "../../app/domain/loyalty/points.server";
import { redeemReward } from "../../app/domain/loyalty/rewards.server";
import { ledgerTotals, newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKey, revokeApiKey } from "../../app/domain/pos/api-keys.server";
import { serveApiV1ForTests } from "./api-v1-rig.testing";
import { PurchaseBody, RedeemCouponBody, RefundBody } from "./v1";
import { API_ERROR_CODES } from "./v1/errors";

/** The router createApp mounts at /api/v1, served alone over HTTP on a fresh database. */
let secret: string;
let database: DatabaseHandle;
let base: string;
let storeKey: string;
let otherStoreKey: string;

serveApiV1ForTests("api_v1", async (rig) => {
  ({ database, base, storeKey, cardSecret: secret } = rig);
  otherStoreKey = (await createApiKey(database.db, { storeId: "TXG01", name: "Taichung POS" })).secret;
});

/** A JSON answer, loosely typed for assertions. */
type Answer = { status: number; body: Json };
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON fields.
type Json = any;

let keyCounter = 0;
async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<Answer> {
  const h: Record<string, string> = { authorization: `Bearer ${storeKey}` };
  if (method === "POST") {
    h["content-type"] = "application/json";
    h["idempotency-key"] = `k-${++keyCounter}`;
  }
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete h[k];
    else h[k] = v;
  }
  const res = await fetch(`${base}${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("POS API v1", () => {
  it("serves an OpenAPI 3.1 document that validates against the OpenAPI 3.1 schema", async () => {
    const res = await fetch(`${base}/openapi.json`);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, Json>>;
      "x-error-codes": { code: string }[];
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/members/lookup", "/purchases", "/purchases/{id}/refunds", "/coupons/{code}/redeem"]),
    );
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // The validator is not a rubber stamp: a document without `info` or with a bad parameter location fails.
    const { info: _info, ...withoutInfo } = structuredClone(doc) as Record<string, unknown>;
    expect((await new Validator().validate(withoutInfo)).valid).toBe(false);
    const badParameter = structuredClone(doc);
    badParameter.paths["/members/lookup"]!.get.parameters[0].in = "body";
    expect((await new Validator().validate(badParameter)).valid).toBe(false);

    // Every operation documents itself in both languages, and its request examples pass our own schemas.
    const ops = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    for (const op of ops) {
      expect(op.summary).toBeTruthy();
      expect(op["x-zh-TW"]?.summary).toBeTruthy();
      expect(Object.values(op.responses).every((r: Json) => r.content?.["application/json"]?.example)).toBe(true);
    }
    const example = (path: string) => doc.paths[path]!.post.requestBody.content["application/json"].example;
    expect(PurchaseBody.safeParse(example("/purchases")).success).toBe(true);
    expect(RefundBody.safeParse(example("/purchases/{id}/refunds")).success).toBe(true);
    expect(RedeemCouponBody.safeParse(example("/coupons/{code}/redeem")).success).toBe(true);
    expect(doc["x-error-codes"].map((c) => c.code)).toEqual(API_ERROR_CODES.map((c) => c.code));
  });

  it("serves a self-contained reference page generated from the document", async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8/);
    const page = await res.text();
    expect(page).toMatch(/<html lang="zh-Hant-TW">/);
    // No scripts and nothing loaded from elsewhere.
    expect(page).not.toMatch(/<script|<link|src=|https?:\/\/(?!example\.com)/);
    for (const id of ["lookupMember", "memberBalance", "recordPurchase", "refundPurchase", "redeemCoupon"]) {
      expect(page).toContain(`id="${id}"`);
    }
    for (const { code } of API_ERROR_CODES) expect(page).toContain(`id="error-${code}"`);
    for (const text of ["Authorization: Bearer", "Idempotency-Key", "驗證", "Authentication", "錯誤代碼", "退貨"]) {
      expect(page).toContain(text);
    }
  });

  it("looks up by card token, records a purchase, refunds it and redeems a coupon", async () => {
    const m = await newMember(database.db, { nameZh: "王小明" });
    const token = issueCardToken(secret, m.id).token;
    const lookup = await call("GET", `/members/lookup?cardToken=${encodeURIComponent(token)}`);
    expect(lookup).toEqual({
      status: 200,
      body: { memberNumber: m.memberNumber, maskedName: "王○明", tier: "basic", balance: 0 },
    });
    expect((await call("GET", `/members/lookup?phone=${encodeURIComponent(m.phoneNumber)}`)).status).toBe(200);

    const body = { memberNumber: m.memberNumber, receiptNumber: "A-0001", netAmount: 25_000 };
    const first = await call("POST", "/purchases", body, { "idempotency-key": "p-1" });
    expect(first).toMatchObject({ status: 201, body: { pointsEarned: 250, balance: 250 } });
    const replay = await call("POST", "/purchases", body, { "idempotency-key": "p-1" });
    expect(replay).toEqual(first);
    expect(
      (await call("POST", "/purchases", { ...body, netAmount: 1 }, { "idempotency-key": "p-1" })).body.error.code,
    ).toBe("idempotency_key_reused");
    // The same receipt under a new key is still one purchase.
    expect((await call("POST", "/purchases", body)).status).toBe(200);

    const refund = await call("POST", `/purchases/${first.body.purchaseId}/refunds`, { amount: 5_000 });
    expect(refund).toMatchObject({ status: 201, body: { pointsReversed: 50, balance: 200, refundedAmount: 5_000 } });
    expect(
      (await call("POST", `/purchases/${first.body.purchaseId}/refunds`, { amount: 20_001 })).body.error.code,
    ).toBe("refund_exceeds_purchase");
    const foreign = await call(
      "POST",
      `/purchases/${first.body.purchaseId}/refunds`,
      { amount: 1 },
      { authorization: `Bearer ${otherStoreKey}` },
    );
    expect(foreign).toMatchObject({ status: 404, body: { error: { code: "purchase_not_found" } } });

    const rewardId = crypto.randomUUID();
    await database.db.insert(reward).values({ id: rewardId, name: "NT$100 off", kind: "amount-off", pointsCost: 100 });
    const { coupon } = await redeemReward(database.db, { memberId: m.id, rewardId, idempotencyKey: "r1" });
    expect(await call("POST", `/coupons/${coupon.code}/redeem`, {})).toMatchObject({
      status: 200,
      body: { status: "used" },
    });
    expect((await call("POST", `/coupons/${coupon.code}/redeem`, {})).body.error.code).toBe("coupon_used");

    const balance = await call("GET", `/members/${m.memberNumber}/balance`);
    expect(balance).toMatchObject({ status: 200, body: { balance: 100 } });
    expect(balance.body.entries.map((e: { kind: string }) => e.kind)).toEqual(
      expect.arrayContaining(["earn-purchase", "refund-reversal", "redeem"]),
    );
    expect(await ledgerTotals(database.db, m.id)).toEqual({ balance: 100, ledgerSum: 100, lotsRemaining: 100 });
  });

  it("finds a member by every phone spelling sign-up accepts (the one normaliser)", async () => {
    const m = await newMember(database.db, { phoneNumber: "+886912345678", nameZh: "陳美" });
    for (const phone of ["0912345678", "0912-345-678", "886912345678", "+886 912-345-678", "+886912345678"]) {
      expect(await call("GET", `/members/lookup?phone=${encodeURIComponent(phone)}`)).toEqual({
        status: 200,
        body: { memberNumber: m.memberNumber, maskedName: "陳○", tier: "basic", balance: 0 },
      });
    }
    expect((await call("GET", "/members/lookup?phone=0223450101")).body.error.code).toBe("member_not_found");
    // A purchase id that only looks like a UUID is unknown, not a database error.
    expect(await call("POST", `/purchases/${"-".repeat(36)}/refunds`, { amount: 1 })).toMatchObject({
      status: 404,
      body: { error: { code: "purchase_not_found" } },
    });
  });

  it("answers bad input with 4xx and a stable code, booking nothing", async () => {
    const m = await newMember(database.db);
    const disabled = await newMember(database.db, { disabled: true });
    await adjustPoints(database.db, { memberId: m.id, amount: 100, reason: "seed", idempotencyKey: "seed" });
    // Coupons that cannot be used here: another store's, an expired one and a used one.
    const rewardId = crypto.randomUUID();
    const otherStoreReward = crypto.randomUUID();
    await database.db.insert(reward).values([
      { id: rewardId, name: "gift", kind: "gift", pointsCost: 10 },
      { id: otherStoreReward, name: "Taichung gift", kind: "gift", pointsCost: 10, storeIds: ["TXG01"] },
    ]);
    const redeem = async (id: string, key: string) =>
      (await redeemReward(database.db, { memberId: m.id, rewardId: id, idempotencyKey: key })).coupon.code;
    const foreignCoupon = await redeem(otherStoreReward, "foreign");
    const expiredCoupon = await redeem(rewardId, "expired");
    await database.db
      .update(couponTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(couponTable.code, expiredCoupon));
    const usedCoupon = await redeem(rewardId, "used");
    expect((await call("POST", `/coupons/${usedCoupon}/redeem`, {})).status).toBe(200);
    const paid = await call("POST", "/purchases", {
      memberNumber: m.memberNumber,
      receiptNumber: "OK-1",
      netAmount: 1000,
    });
    expect(paid.status).toBe(201);
    const refunds = `/purchases/${paid.body.purchaseId}/refunds`;
    const entriesBefore = (await database.db.select().from(pointEntry)).length;
    const purchase = (fields: Record<string, unknown>) =>
      call("POST", "/purchases", { memberNumber: m.memberNumber, receiptNumber: "BAD-1", netAmount: 100, ...fields });
    const cases: [Promise<Answer>, number, string][] = [
      [purchase({ netAmount: -1 }), 400, "invalid_amount"],
      [purchase({ netAmount: 0 }), 400, "invalid_amount"],
      [purchase({ netAmount: 10.5 }), 400, "invalid_amount"],
      [purchase({ netAmount: 1e15 }), 400, "invalid_amount"],
      [purchase({ netAmount: "100" }), 400, "invalid_amount"],
      [purchase({ memberNumber: "HL99999999" }), 404, "member_not_found"],
      [purchase({ memberNumber: disabled.memberNumber }), 422, "member_disabled"],
      [purchase({ extra: true }), 400, "invalid_body"],
      // Control characters (PostgreSQL refuses NUL in text: these were 500s) in the body, the query, the path.
      [purchase({ receiptNumber: "A\u0000B" }), 400, "invalid_body"],
      [purchase({ receiptNumber: "A\tB" }), 400, "invalid_body"],
      [purchase({ memberNumber: "HL\u0000" }), 400, "invalid_body"],
      [call("GET", "/members/lookup?memberNumber=HL%00"), 400, "invalid_query"],
      [call("GET", "/members/lookup?phone=0912%00"), 400, "invalid_query"],
      [call("GET", "/members/HL%00/balance"), 404, "member_not_found"],
      [call("POST", "/coupons/A%00B/redeem", {}), 404, "coupon_not_found"],
      [call("POST", "/purchases/a%00b/refunds", { amount: 1 }), 404, "purchase_not_found"],
      [call("POST", "/purchases", "{not json"), 400, "malformed_json"],
      [call("POST", "/purchases", { a: "x".repeat(40_000) }), 413, "payload_too_large"],
      [call("POST", "/purchases", "{}", { "content-type": "text/plain" }), 415, "unsupported_media_type"],
      [
        purchase({}).then(() => call("POST", "/purchases", {}, { "idempotency-key": undefined })),
        400,
        "idempotency_key_required",
      ],
      [call("GET", "/members/lookup?memberNumber=HL1&phone=1"), 400, "invalid_query"],
      [call("GET", "/members/lookup?cardToken=forged.token"), 422, "card_token_malformed"],
      [call("POST", "/coupons/NOPE/redeem", {}), 404, "coupon_not_found"],
      [call("POST", `/purchases/${crypto.randomUUID()}/refunds`, { amount: 1 }), 404, "purchase_not_found"],
      [call("GET", "/members/lookup?memberNumber=HL1", undefined, { authorization: undefined }), 401, "unauthorized"],
      [call("GET", "/nope"), 404, "not_found"],
      [call("POST", refunds, { amount: 0 }), 400, "invalid_amount"],
      [call("POST", refunds, { amount: -5 }), 400, "invalid_amount"],
      [call("POST", refunds, { amount: 0.5 }), 400, "invalid_amount"],
      [call("POST", refunds, { amount: "10" }), 400, "invalid_amount"],
      [call("POST", refunds, { amount: 1001 }), 422, "refund_exceeds_purchase"],
      [call("POST", refunds, {}), 400, "invalid_amount"],
      [call("POST", "/purchases/not-a-receipt/refunds", { amount: 1 }), 404, "purchase_not_found"],
      [call("POST", `/coupons/${foreignCoupon}/redeem`, {}), 422, "coupon_wrong_store"],
      [call("POST", `/coupons/${expiredCoupon}/redeem`, {}), 422, "coupon_expired"],
      [call("POST", `/coupons/${usedCoupon}/redeem`, {}), 409, "coupon_used"],
      [call("POST", `/coupons/${usedCoupon}/redeem`, { extra: 1 }), 400, "invalid_body"],
      [
        call("POST", "/purchases", "[1,2", { "content-type": "application/json; charset=utf-8" }),
        400,
        "malformed_json",
      ],
      [
        call("POST", "/purchases", "memberNumber=HL1", { "content-type": "application/x-www-form-urlencoded" }),
        415,
        "unsupported_media_type",
      ],
      [call("POST", "/purchases", {}, { "idempotency-key": "bad key with spaces" }), 400, "idempotency_key_required"],
      [call("POST", "/purchases", {}, { "idempotency-key": "x".repeat(201) }), 400, "idempotency_key_required"],
      [
        call("GET", "/members/lookup?memberNumber=HL1", undefined, { authorization: "Bearer hlpos_not-a-real-key" }),
        401,
        "unauthorized",
      ],
      [
        call("GET", "/members/lookup?memberNumber=HL1", undefined, { authorization: "Basic dXNlcjpwYXNz" }),
        401,
        "unauthorized",
      ],
    ];
    for (const [promise, status, code] of cases) {
      const res = await promise;
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status, code });
      // Every code the API answers is documented (docs page, OpenAPI `x-error-codes`).
      expect(API_ERROR_CODES.find((c) => c.code === code)?.status).toBe(status);
    }
    // One purchase of NT$100 (the case before the missing key) booked 1 point; nothing else.
    expect((await database.db.select().from(pointEntry)).length).toBe(entriesBefore + 1);
  });

  it("refuses purchases older than the booking window with purchase_too_old", async () => {
    const m = await newMember(database.db);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const purchase = (receiptNumber: string, purchasedAt: string) =>
      call("POST", "/purchases", { memberNumber: m.memberNumber, receiptNumber, netAmount: 1000, purchasedAt });
    for (const [receipt, at] of [
      ["OLD-1970", "1970-01-01T00:00:00Z"],
      ["OLD-91", daysAgo(91)],
    ] as const) {
      const res = await purchase(receipt, at);
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 422, code: "purchase_too_old" });
    }
    expect(API_ERROR_CODES.find((c) => c.code === "purchase_too_old")?.status).toBe(422);
    expect((await purchase("OLD-89", daysAgo(89))).status).toBe(201);
    expect(await ledgerTotals(database.db, m.id)).toEqual({ balance: 10, ledgerSum: 10, lotsRemaining: 10 });
  });

  it("checks the key before reading the body: without a key, any body is 401", async () => {
    const anonymous = { authorization: undefined };
    const cases: [unknown, Record<string, string | undefined>][] = [
      ["{not json", anonymous],
      [{ a: "x".repeat(40_000) }, anonymous],
      ["memberNumber=HL1", { ...anonymous, "content-type": "application/x-www-form-urlencoded" }],
      [{ extra: true }, { ...anonymous, "idempotency-key": undefined }],
      ["{not json", { authorization: "Bearer hlpos_not-a-real-key" }],
    ];
    for (const [body, headers] of cases) {
      const res = await call("POST", "/purchases", body, headers);
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 401, code: "unauthorized" });
    }
  });

  it("refuses a revoked key", async () => {
    const { key, secret: revoked } = await createApiKey(database.db, { storeId: "TPE01", name: "old" });
    await revokeApiKey(database.db, key.id);
    const res = await call("GET", "/members/lookup?memberNumber=HL1", undefined, {
      authorization: `Bearer ${revoked}`,
    });
    expect(res).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } });
  });

  it("limits each key to 600 requests a minute, across instances, and keeps its last-used time to the minute", async () => {
    // The window is the clock's minute: start well inside one so the test never straddles two.
    const msLeft = 60_000 - (Date.now() % 60_000);
    if (msLeft < 5_000) await new Promise((resolve) => setTimeout(resolve, msLeft + 50));
    const { key, secret } = await createApiKey(database.db, { storeId: "TPE01", name: "busy till" });
    const lookup = (auth = secret) =>
      call("GET", "/members/lookup?memberNumber=HL1", undefined, { authorization: `Bearer ${auth}` });
    expect((await lookup()).body.error.code).toBe("member_not_found");
    const [used] = await database.db.select().from(apiKey).where(eq(apiKey.id, key.id));
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
    await lookup();
    const [again] = await database.db.select().from(apiKey).where(eq(apiKey.id, key.id));
    expect(again?.lastUsedAt).toEqual(used?.lastUsedAt);

    // The counter lives in the shared table: another instance's 597 requests this minute count too.
    await database.db
      .update(apiRateCounter)
      .set({ count: sql`${apiRateCounter.count} + 597` })
      .where(eq(apiRateCounter.apiKeyId, key.id));
    expect((await lookup()).status).toBe(404); // the 600th
    const res = await fetch(`${base}/members/lookup?memberNumber=HL1`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: { code: "rate_limited", message: expect.any(String) } });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // Other keys are not affected.
    expect((await lookup(storeKey)).status).toBe(404);
  });
});
