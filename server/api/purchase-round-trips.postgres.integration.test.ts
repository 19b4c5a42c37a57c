import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CacheBus, startCacheBus } from "@platform/cache/bus";
import { attachCacheBus } from "@platform/cache/shared-cache";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { auditLog, pointEntry, purchase, referral } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { writesToDatabase } from "@platform/testing/database-writes";
import { insertTestStores } from "@platform/testing/stores";
import { desc, eq, sql } from "drizzle-orm";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { verifyAuditChain } from "../../app/domain/audit/audit.server";
import { checkLedger } from "../../app/domain/loyalty/ledger-check.server";
import { ledgerTotals, newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKey } from "../../app/domain/pos/api-keys.server";
import { linkReferral } from "../../app/domain/referrals/referrals.server";
import { createApiV1Router } from "./v1";

// postgres.js as the server build runs it (ADR 060), so the writes counted are production's.
vi.mock("postgres", async () => (await import("@platform/testing/server-build-postgres")).serverBuildPostgres());

/**
 * What one POS purchase costs in waits on PostgreSQL (ADR 030, ADR 039): every statement that needs no answer
 * to go on is pipelined, so the app writes to the database's socket once per round trip. Counted at the socket,
 * with postgres.js as the server build runs it (ADR 060: a batch up to 16 kB in one write; the published 1 kB
 * threshold split a batch where its values' lengths put the split, and CI once read 7 where 6 was the bound):
 * each `write` to PostgreSQL's port during one purchase is one batch of statements the app then waits for.
 * Fifteen before ADR 030 (one per statement), nine writes in eight round trips after it; now four round trips
 * in four writes — the key's counter with BEGIN (authenticate.ts), the read of the Idempotency-Key's earlier answer
 * and the member by number; the account lock with the 12-month spend and the rules; the purchase with its answer
 * (ADR 039 "Later (2026-12-07, the answer)"); then the points, the last purchase, the receipt message, the audit
 * row (the store's chain) and COMMIT together.
 */
let testDb: TestDatabase;
let handle: DatabaseHandle;
let bus: CacheBus;
let server: Server;
let base: string;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "pos_round_trips", migrated: true });
  if (testDb.driver !== "postgres") throw new Error("This file needs TEST_DATABASE_URL (PostgreSQL)");
  handle = await openDatabase(testDb.config);
  await handle.migrate();
  // As in the server: the API key is cached (ADR 026), so a purchase does not look it up.
  bus = await startCacheBus(handle.connection);
  attachCacheBus(handle.db, bus);
  const app = express();
  app.use(
    "/api/v1",
    createApiV1Router({ db: handle.db, cardSecret: "c".repeat(40), logger: pino({ level: "silent" }) }),
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await bus?.close();
  await handle?.close();
  await testDb?.drop();
});

it("books a POS purchase in four round trips to PostgreSQL, every write of it committed once", async () => {
  const db = handle.db;
  await insertTestStores(db, ["TPE01"]);
  const { secret } = await createApiKey(db, { storeId: "TPE01", name: "till 1" });
  const buyer = await newMember(db);
  const buy = (receiptNumber: string) =>
    fetch(`${base}/purchases`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        "content-type": "application/json",
        "idempotency-key": `key-${receiptNumber}`,
      },
      body: JSON.stringify({ memberNumber: buyer.memberNumber, receiptNumber, netAmount: 1200 }),
    }).then(async (res) => ({ status: res.status, body: await res.json() }));

  // The first purchase prepares every statement on its connection and caches the key.
  expect((await buy("R-1")).status).toBe(201);
  const { result, writes, seen } = await writesToDatabase(handle.db, bus, () => buy("R-2"));
  expect(result.status).toBe(201);
  expect(result.body).toMatchObject({ receiptNumber: "R-2", pointsEarned: 12, balance: 24 });

  expect(writes, seen.join(" ")).toBe(4);

  // Everything the pipelined statements wrote is there: the points, the last purchase, the stored answer
  // (a retry replays it) and the audit row, with the chain intact.
  const [booked] = await db.select().from(purchase).where(eq(purchase.receiptNumber, "R-2"));
  const entries = await db.select().from(pointEntry).where(eq(pointEntry.purchaseId, booked!.id));
  expect(entries.map((e) => e.amount)).toEqual([12]);
  expect(booked).toMatchObject({ idempotencyKey: "key-R-2", answer: result.body });
  const [last] = await db.select().from(auditLog).orderBy(desc(auditLog.pos)).limit(1);
  expect(last).toMatchObject({ action: "purchase.recorded", targetId: booked!.id, chain: "TPE01", seq: 2 });
  expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  const replay = await buy("R-2");
  expect(replay).toEqual({ status: 201, body: result.body });
  // Nothing ran outside the transaction: the pool's connections are idle, none left in a transaction.
  const sessions = (await db.execute(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
  )) as unknown as { n: number }[];
  expect(sessions[0]?.n).toBe(0);
});

it("books a referred friend's qualifying purchase in one round trip more than a plain one (ADR 053)", async () => {
  const db = handle.db;
  await insertTestStores(db, ["TPE02"]);
  const { secret } = await createApiKey(db, { storeId: "TPE02", name: "till 2" });
  const buy = (memberNumber: string, receiptNumber: string) =>
    fetch(`${base}/purchases`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        "content-type": "application/json",
        "idempotency-key": `key-${receiptNumber}`,
      },
      body: JSON.stringify({ memberNumber, receiptNumber, netAmount: 3_000 }),
    }).then(async (res) => ({ status: res.status, body: await res.json() }));
  const regular = await newMember(db);
  const referrer = await newMember(db);
  const [warm, friend] = [await newMember(db), await newMember(db)];
  for (const f of [warm, friend]) {
    const linked = await db.transaction((tx) => linkReferral(tx, { friendId: f.id, code: referrer.referralCode }));
    expect(linked.linked).toBe(true);
  }
  // Prepare each kind's statements on the connection first (the first use of a statement describes it).
  expect((await buy(regular.memberNumber, "F-0")).status).toBe(201);
  expect((await buy(warm.memberNumber, "F-00")).status).toBe(201);
  const plain = await writesToDatabase(handle.db, bus, () => buy(regular.memberNumber, "F-1"));
  const referred = await writesToDatabase(handle.db, bus, () => buy(friend.memberNumber, "F-2"));
  expect(plain.result.status).toBe(201);
  expect(referred.result).toMatchObject({ status: 201, body: { pointsEarned: 30, balance: 300 + 30 } });
  // A plain purchase: four round trips in four writes (above). The referral adds one: the decision, whose
  // statement books both rewards (ADR 053, "Later (2026-12-07)"); the referral's audit row is appended with the
  // purchase's in one statement of the last batch. Five.

  expect(plain.writes, plain.seen.join(" ")).toBe(4);
  expect(referred.writes, referred.seen.join(" ")).toBe(5);
  const [decided] = await db.select().from(referral).where(eq(referral.friendId, friend.id));
  expect(decided).toMatchObject({ state: "rewarded", points: 300 });
  expect(await ledgerTotals(db, referrer.id)).toEqual({ balance: 600, ledgerSum: 600, lotsRemaining: 600 });
  expect(await ledgerTotals(db, friend.id)).toEqual({ balance: 330, ledgerSum: 330, lotsRemaining: 330 });
  expect((await checkLedger(db)).mismatches).toEqual([]);
  expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
});
