import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { auditLog, reward } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { insertTestStores } from "@platform/testing/stores";
import { asc } from "drizzle-orm";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../../app/domain/audit/audit.server";
import { redeemReward } from "../../app/domain/loyalty/rewards.server";
import { newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKey } from "../../app/domain/pos/api-keys.server";
import { createApiV1Router } from "./v1";

/** Every POS write appends one audit row in its own transaction; replays and refusals append none. */
let testDb: TestDatabase;
let database: DatabaseHandle;
let server: Server;
let base: string;
let key: { id: string; secret: string };

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "api_audit", migrated: true });
  database = await openDatabase(testDb.config);
  await database.migrate();
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = "req-from-edge-0001";
    next();
  });
  app.use(
    "/api/v1",
    createApiV1Router({ db: database.db, cardSecret: "c".repeat(40), logger: pino({ level: "silent" }) }),
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  await insertTestStores(database.db, ["TPE01"]);
  const created = await createApiKey(database.db, { storeId: "TPE01", name: "Taipei POS" });
  key = { id: created.key.id, secret: created.secret };
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await database?.close();
  await testDb?.drop();
});

async function post(path: string, body: unknown, idempotencyKey: string) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key.secret}`,
      "content-type": "application/json",
      "idempotency-key": idempotencyKey,
      "user-agent": "HanPOS/3.1",
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("POS API writes in the audit log", () => {
  it("records purchase, refund and coupon use with who and from where", async () => {
    const m = await newMember(database.db);
    const purchase = await post(
      "/purchases",
      { memberNumber: m.memberNumber, receiptNumber: "R-1", netAmount: 10_000 },
      "a1",
    );
    expect(purchase.status).toBe(201);
    // A replay (same key) and a retry of the same receipt (new key) book nothing and log nothing.
    await post("/purchases", { memberNumber: m.memberNumber, receiptNumber: "R-1", netAmount: 10_000 }, "a1");
    expect(
      (await post("/purchases", { memberNumber: m.memberNumber, receiptNumber: "R-1", netAmount: 10_000 }, "a2"))
        .status,
    ).toBe(200);
    // A refused write logs nothing either.
    expect(
      (await post("/purchases", { memberNumber: m.memberNumber, receiptNumber: "R-2", netAmount: 0 }, "a3")).status,
    ).toBe(400);

    const purchaseId = String(purchase.body.purchaseId);
    expect((await post(`/purchases/${purchaseId}/refunds`, { amount: 4_000 }, "a4")).status).toBe(201);
    expect((await post(`/purchases/${purchaseId}/refunds`, { amount: 4_000 }, "a4")).status).toBe(201);

    const rewardId = crypto.randomUUID();
    await database.db.insert(reward).values({ id: rewardId, name: "NT$50 off", kind: "amount-off", pointsCost: 50 });
    const { coupon } = await redeemReward(database.db, { memberId: m.id, rewardId, idempotencyKey: "r1" });
    expect((await post(`/coupons/${coupon.code}/redeem`, {}, "a5")).status).toBe(200);
    expect((await post(`/coupons/${coupon.code}/redeem`, {}, "a6")).status).toBe(409);

    const rows = await database.db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(rows.map((r) => [r.action, r.targetType, r.targetId])).toEqual([
      ["purchase.recorded", "purchase", purchaseId],
      ["purchase.refunded", "purchase", purchaseId],
      ["coupon.used", "coupon", coupon.id],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        actorType: "api_key",
        apiKeyId: key.id,
        actorUserId: null,
        storeId: "TPE01",
        ip: "127.0.0.1",
        userAgent: "HanPOS/3.1",
        requestId: "req-from-edge-0001",
      });
    }
    expect(rows[0]?.changes).toMatchObject({
      netAmount: { before: null, after: 10_000 },
      pointsEarned: { before: null, after: 100 },
      receiptNumber: { before: null, after: "R-1" },
    });
    expect(rows[1]?.changes).toMatchObject({
      refundedAmount: { before: 0, after: 4_000 },
      pointsReversed: { before: 0, after: 40 },
    });
    expect(rows[2]?.changes).toMatchObject({ status: { before: "issued", after: "used" } });
    // POS writes go to their store's chain (ADR 039): the global chain has none of them; the check walks both.
    expect(rows.map((r) => [r.chain, r.seq])).toEqual([
      ["TPE01", 1],
      ["TPE01", 2],
      ["TPE01", 3],
    ]);
    expect(await verifyAuditChain(database.db, { chain: "TPE01" })).toEqual({ ok: true, rows: 3, lastSeq: 3 });
    expect(await verifyAuditChain(database.db)).toEqual({ ok: true, rows: 3, lastSeq: 0 });
  });
});
