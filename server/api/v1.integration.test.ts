import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueCardToken } from "../../app/domain/loyalty/card-tokens.server";
import { adjustPoints } from "../../app/domain/loyalty/points.server";
import { redeemReward } from "../../app/domain/loyalty/rewards.server";
import { ledgerTotals, newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKey, revokeApiKey } from "../../app/domain/pos/api-keys.server";
import { type DatabaseHandle, openDatabase } from "../db/client";
import { pointEntry, reward } from "../db/schema";
import { createTestDatabase, type TestDatabase } from "../testing/database";
import { createApiV1Router } from "./v1";

/** The router createApp mounts at /api/v1, served alone over HTTP on a fresh database. */
const secret = "c".repeat(40);
let testDb: TestDatabase;
let database: DatabaseHandle;
let server: Server;
let base: string;
let storeKey: string;
let otherStoreKey: string;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "api_v1" });
  database = await openDatabase(testDb.config);
  await database.migrate();
  const app = express();
  app.use("/api/v1", createApiV1Router({ db: database.db, cardSecret: secret, logger: pino({ level: "silent" }) }));
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  storeKey = (await createApiKey(database.db, { storeId: "TPE01", name: "Taipei POS" })).secret;
  otherStoreKey = (await createApiKey(database.db, { storeId: "TXG01", name: "Taichung POS" })).secret;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await database?.close();
  await testDb?.drop();
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
  it("serves an OpenAPI 3.1 document", async () => {
    const res = await fetch(`${base}/openapi.json`);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/members/lookup", "/purchases", "/purchases/{id}/refunds", "/coupons/{code}/redeem"]),
    );
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

  it("answers bad input with 4xx and a stable code, booking nothing", async () => {
    const m = await newMember(database.db);
    const disabled = await newMember(database.db, { disabled: true });
    await adjustPoints(database.db, { memberId: m.id, amount: 10, reason: "seed", idempotencyKey: "seed" });
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
    ];
    for (const [promise, status, code] of cases) {
      const res = await promise;
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status, code });
    }
    // One purchase of NT$100 (the case before the missing key) booked 1 point; nothing else.
    expect((await database.db.select().from(pointEntry)).length).toBe(entriesBefore + 1);
  });

  it("refuses a revoked key", async () => {
    const { key, secret: revoked } = await createApiKey(database.db, { storeId: "TPE01", name: "old" });
    await revokeApiKey(database.db, key.id);
    const res = await call("GET", "/members/lookup?memberNumber=HL1", undefined, {
      authorization: `Bearer ${revoked}`,
    });
    expect(res).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } });
  });
});
