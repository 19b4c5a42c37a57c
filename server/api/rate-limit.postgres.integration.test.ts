import { apiRateCounter, purchase } from "@platform/db/schema";
import { insertTestStores } from "@platform/testing/stores";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { ledgerTotals, newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKey } from "../../app/domain/pos/api-keys.server";
import { useTwoApiInstances } from "./testing/two-api-instances";

/**
 * The per-key rate limit under simultaneous requests, on PostgreSQL: two instances of the POS API
 * (each with its own connection pool, as two app processes have) over one database. The limit is
 * decided by one upsert that returns the new count, so however the requests interleave, exactly the
 * limit passes. The clock is fixed, so the burst never straddles two one-minute windows.
 */
const LIMIT = 25;
const REQUESTS = 80;
const clock = () => new Date("2026-11-23T04:00:30Z");

const { handles, bases } = useTwoApiInstances("pos_rate_limit", { poolMax: 20, requestsPerMinute: LIMIT, clock });

it(`lets exactly ${LIMIT} of ${REQUESTS} simultaneous requests of one key through, over two instances`, async () => {
  const db = handles[0]!.db;
  await insertTestStores(db, ["TPE01"]);
  const { key, secret } = await createApiKey(db, { storeId: "TPE01", name: "busy till" });
  const statuses = await Promise.all(
    Array.from({ length: REQUESTS }, async (_, i) => {
      const res = await fetch(`${bases[i % 2]}/members/lookup?memberNumber=HL00000000`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  // Passed requests reach the endpoint (an unknown member: 404); the rest are refused with 429.
  expect(statuses.filter((s) => s === 404)).toHaveLength(LIMIT);
  expect(statuses.filter((s) => s === 429)).toHaveLength(REQUESTS - LIMIT);
  // Every request was counted once, refused ones included.
  const [row] = await db.select().from(apiRateCounter).where(eq(apiRateCounter.apiKeyId, key.id));
  expect(row?.count).toBe(REQUESTS);
}, 120_000);

// A purchase counts in the same table, before its transaction (ADR 030): refused requests count, and a
// booked purchase's transaction holds no lock on the counter.
it(`books exactly ${LIMIT} of ${REQUESTS} simultaneous purchases of one key, over two instances`, async () => {
  const db = handles[0]!.db;
  await insertTestStores(db, ["TPE02"]);
  const { key, secret } = await createApiKey(db, { storeId: "TPE02", name: "busy till" });
  const buyer = await newMember(db);
  const statuses = await Promise.all(
    Array.from({ length: REQUESTS }, async (_, i) => {
      const res = await fetch(`${bases[i % 2]}/purchases`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${secret}`,
          "content-type": "application/json",
          "idempotency-key": `burst-${i}`,
        },
        body: JSON.stringify({ memberNumber: buyer.memberNumber, receiptNumber: `R-${i}`, netAmount: 1000 }),
      });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  const seen = JSON.stringify(counts);
  expect(
    statuses.filter((s) => s === 201),
    seen,
  ).toHaveLength(LIMIT);
  expect(
    statuses.filter((s) => s === 429),
    seen,
  ).toHaveLength(REQUESTS - LIMIT);
  const [row] = await db.select().from(apiRateCounter).where(eq(apiRateCounter.apiKeyId, key.id));
  expect(row?.count).toBe(REQUESTS);
  const booked = await db.select({ id: purchase.id }).from(purchase).where(eq(purchase.memberId, buyer.id));
  expect(booked).toHaveLength(LIMIT);
  const totals = await ledgerTotals(db, buyer.id);
  expect(totals).toEqual({ balance: LIMIT * 10, ledgerSum: LIMIT * 10, lotsRemaining: LIMIT * 10 });
}, 120_000);

// The Idempotency-Key claim is in the purchase's transaction: a twin sent at the same moment waits for the
// first one's commit and replays its answer; one booking.
it("books one purchase for 12 simultaneous twins (one Idempotency-Key) over two instances", async () => {
  const db = handles[0]!.db;
  await insertTestStores(db, ["TPE03"]);
  const { secret } = await createApiKey(db, { storeId: "TPE03", name: "retrying till" });
  const buyer = await newMember(db);
  const answers = await Promise.all(
    Array.from({ length: 12 }, async (_, i) => {
      const res = await fetch(`${bases[i % 2]}/purchases`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${secret}`,
          "content-type": "application/json",
          "idempotency-key": "twin",
        },
        body: JSON.stringify({ memberNumber: buyer.memberNumber, receiptNumber: "T-1", netAmount: 2500 }),
      });
      return {
        status: res.status,
        replayed: res.headers.get("idempotent-replayed") === "true",
        body: await res.json(),
      };
    }),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
  expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
  for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
  const booked = await db.select({ id: purchase.id }).from(purchase).where(eq(purchase.memberId, buyer.id));
  expect(booked).toHaveLength(1);
  expect(await ledgerTotals(db, buyer.id)).toEqual({ balance: 25, ledgerSum: 25, lotsRemaining: 25 });
}, 120_000);

// ADR 039: a purchase keeps its Idempotency-Key in its own row (no api_idempotency row). The promises of the
// key stay: twins get one booking and one answer; the key with another body is 409 (waiting for the first);
// a key that answered another request before, or a purchase's key reused by a refund, is 409 too.
it("books one purchase for 20 simultaneous uses of one Idempotency-Key with different receipts, over two instances; the rest are 409", async () => {
  const db = handles[0]!.db;
  await insertTestStores(db, ["TPE04"]);
  const { secret } = await createApiKey(db, { storeId: "TPE04", name: "confused till" });
  const buyer = await newMember(db);
  const post = (base: string, path: string, key: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify(body),
    }).then(async (res) => ({
      status: res.status,
      replayed: res.headers.get("idempotent-replayed") === "true",
      body: (await res.json()) as Record<string, unknown> & { error?: { code: string } },
    }));
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      post(bases[i % 2]!, "/purchases", "one-key", {
        memberNumber: buyer.memberNumber,
        receiptNumber: `D-${i}`,
        netAmount: 1000,
      }),
    ),
  );
  const booked = answers.filter((a) => a.status === 201);
  expect(booked).toHaveLength(1);
  expect(answers.filter((a) => a.status === 409).map((a) => a.body.error?.code)).toEqual(
    Array(19).fill("idempotency_key_reused"),
  );
  const rows = await db.select().from(purchase).where(eq(purchase.memberId, buyer.id));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ idempotencyKey: "one-key", answer: booked[0]!.body });
  expect(await ledgerTotals(db, buyer.id)).toEqual({ balance: 10, ledgerSum: 10, lotsRemaining: 10 });

  // The winner's retry replays its answer; its receipt with another amount under the key is 409.
  const receipt = String(booked[0]!.body.receiptNumber);
  const retry = await post(bases[1]!, "/purchases", "one-key", {
    memberNumber: buyer.memberNumber,
    receiptNumber: receipt,
    netAmount: 1000,
  });
  expect(retry).toEqual({ status: 201, replayed: true, body: booked[0]!.body });
  const changed = await post(bases[0]!, "/purchases", "one-key", {
    memberNumber: buyer.memberNumber,
    receiptNumber: receipt,
    netAmount: 2000,
  });
  expect(changed.body.error?.code).toBe("idempotency_key_reused");
  // A refund under the purchase's key: 409, nothing refunded.
  const refund = await post(bases[1]!, `/purchases/${booked[0]!.body.purchaseId}/refunds`, "one-key", { amount: 100 });
  expect(refund).toMatchObject({ status: 409, body: { error: { code: "idempotency_key_reused" } } });
  // A refused purchase keeps its refusal under its key: the same key with a bookable body is then 409.
  const refused = await post(bases[0]!, "/purchases", "refused-key", {
    memberNumber: "HL99999999",
    receiptNumber: "D-X",
    netAmount: 1000,
  });
  expect(refused.status).toBe(404);
  const again = await post(bases[1]!, "/purchases", "refused-key", {
    memberNumber: buyer.memberNumber,
    receiptNumber: "D-X",
    netAmount: 1000,
  });
  expect(again.body.error?.code).toBe("idempotency_key_reused");
  expect(await db.select().from(purchase).where(eq(purchase.memberId, buyer.id))).toHaveLength(1);
}, 120_000);
