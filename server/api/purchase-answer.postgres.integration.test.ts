import { purchase, tierChange } from "@platform/db/schema";
import { insertTestStores } from "@platform/testing/stores";
import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { checkLedger } from "../../app/domain/loyalty/ledger-check.server";
import { recordPurchase, recordPurchaseInTransaction } from "../../app/domain/loyalty/purchases.server";
import { ledgerTotals, newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKey } from "../../app/domain/pos/api-keys.server";
import { linkReferral } from "../../app/domain/referrals/referrals.server";
import { useTwoApiInstances } from "./testing/two-api-instances";

/**
 * The purchase's answer written with its insert (ADR 039, "Later (2026-12-07, the answer)"): the tier and the
 * balance in it are decided before the insert, from the account read under its lock and the 12-month spend read
 * behind that lock in the same round trip. On PostgreSQL, two instances over one database: purchases of one member
 * at once answer the balance and tier each really had, a purchase that waited for the lock counts what the holder
 * committed, and every answer is replayed as it was kept.
 */
let secret = "";
// One clock for both instances, so the lock's order is the only order in the first tests; the test with two clocks
// (a purchase stamped after the waiting request's own clock) shows the spend counts what committed, whatever its time.
const NOW = new Date(Date.now() - 60_000);
const clock = () => NOW;
const before = new Date(NOW.getTime() - 3_600_000);

const { handles, bases } = useTwoApiInstances("pos_answer", { poolMax: 10, clock });

beforeAll(async () => {
  await insertTestStores(handles[0]!.db, ["TPE01"]);
  ({ secret } = await createApiKey(handles[0]!.db, { storeId: "TPE01", name: "till" }));
});

type Answer = { purchaseId: string; balance: number; tier: string; pointsEarned: number };

const buy = (instance: number, memberNumber: string, receiptNumber: string, netAmount: number) =>
  fetch(`${bases[instance]}/purchases`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      "idempotency-key": `key-${receiptNumber}`,
    },
    body: JSON.stringify({ memberNumber, receiptNumber, netAmount }),
  }).then(async (res) => ({
    status: res.status,
    replayed: res.headers.get("idempotent-replayed"),
    text: await res.text(),
  }));

/** A member with NT$40,000 spent this year (basic; silver from NT$50,000 under the default rules): 400 points. */
async function memberAt40k() {
  const db = handles[0]!.db;
  const m = await newMember(db);
  await recordPurchase(
    db,
    { memberId: m.id, storeId: "TPE01", receiptNumber: `SEED-${m.id}`, netAmount: 40_000, purchasedAt: before },
    NOW,
  );
  return m;
}

it("answers two purchases of one member at once, over two instances, with the balance and tier each had", async () => {
  const db = handles[0]!.db;
  const m = await memberAt40k();
  // Each NT$6,000 alone stays basic; the second of the two (in the lock's order) reaches NT$52,000: silver.
  const both = await Promise.all([
    buy(0, m.memberNumber, `A-${m.id}`, 6_000),
    buy(1, m.memberNumber, `B-${m.id}`, 6_000),
  ]);
  expect(both.map((r) => r.status)).toEqual([201, 201]);
  const answers = both.map((r) => JSON.parse(r.text) as Answer).sort((a, b) => a.balance - b.balance);
  expect(answers.map((a) => [a.balance, a.tier, a.pointsEarned])).toEqual([
    [460, "basic", 60],
    [520, "silver", 60],
  ]);
  expect(await ledgerTotals(db, m.id)).toEqual({ balance: 520, ledgerSum: 520, lotsRemaining: 520 });
  expect(await db.select().from(tierChange).where(eq(tierChange.memberId, m.id))).toHaveLength(1);
  // Kept in the rows as sent (the insert wrote them), and replayed as kept.
  for (const [i, r] of both.entries()) {
    const answer = JSON.parse(r.text) as Answer;
    const [row] = await db.select().from(purchase).where(eq(purchase.id, answer.purchaseId));
    expect(row?.answer).toEqual(answer);
    const again = await buy(1 - i, m.memberNumber, i === 0 ? `A-${m.id}` : `B-${m.id}`, 6_000);
    expect(again).toMatchObject({ status: 201, replayed: "true" });
    expect(JSON.parse(again.text)).toEqual(answer);
  }
  expect((await checkLedger(db)).mismatches).toEqual([]);
});

/**
 * A purchase that waits for the account's lock while another transaction, which holds it, books NT$6,000 for the
 * member at `heldAt` (its booking's clock `heldNow`); answers the waiting purchase once the holder has committed.
 */
async function buyWhileHeld(m: { id: string; memberNumber: string }, held: { at: Date; now: Date }) {
  const holder = handles[1]!.db;
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const holding = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const other = holder.transaction(async (tx) => {
    await recordPurchaseInTransaction(
      tx,
      { memberId: m.id, storeId: "TPE01", receiptNumber: `HELD-${m.id}`, netAmount: 6_000, purchasedAt: held.at },
      held.now,
    );
    locked();
    await gate;
  });
  await holding;
  const pending = buy(0, m.memberNumber, `WAIT-${m.id}`, 6_000);
  // The purchase is waiting for the account's lock (its spend read is queued behind the lock's statement).
  for (let i = 0; i < 200; i++) {
    const [row] = (await handles[0]!.db.execute(
      sql`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where not l.granted and a.datname = current_database()`,
    )) as unknown as { n: number }[];
    if ((row?.n ?? 0) > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (i === 199) throw new Error("the purchase never waited for the account's lock");
  }
  release();
  await other;
  return pending;
}

it("counts in the tier what the lock's holder committed while the purchase waited for the lock", async () => {
  const m = await memberAt40k();
  const answered = await buyWhileHeld(m, { at: before, now: NOW });
  expect(answered.status).toBe(201);
  // NT$40,000 + 6,000 (committed by the holder while this one waited) + 6,000: silver. Read before the lock, the
  // spend would have been NT$46,000 and the answer basic.
  expect(JSON.parse(answered.text)).toMatchObject({ balance: 520, tier: "silver", pointsEarned: 60 });
  expect(await ledgerTotals(handles[0]!.db, m.id)).toEqual({ balance: 520, ledgerSum: 520, lotsRemaining: 520 });
});

it("counts the holder's purchase stamped after this request's own clock (two instances' clocks, one lock)", async () => {
  // The holder's booking came in later (its clock and its purchase 2 s after this instance's NOW) but took the lock
  // first. Until 2026-12-07 the spend stopped at the booking's own `now` and left it out: basic, not silver.
  const m = await memberAt40k();
  const later = new Date(NOW.getTime() + 2_000);
  const answered = await buyWhileHeld(m, { at: later, now: later });
  expect(answered.status).toBe(201);
  expect(JSON.parse(answered.text)).toMatchObject({ balance: 520, tier: "silver", pointsEarned: 60 });
  expect(await ledgerTotals(handles[0]!.db, m.id)).toEqual({ balance: 520, ledgerSum: 520, lotsRemaining: 520 });
});

it("keeps a referred friend's qualifying answer, which its referral decision changes after the insert", async () => {
  const db = handles[0]!.db;
  const referrer = await newMember(db);
  const friend = await newMember(db);
  const linked = await db.transaction((tx) => linkReferral(tx, { friendId: friend.id, code: referrer.referralCode }));
  expect(linked.linked).toBe(true);
  const first = await buy(0, friend.memberNumber, `REF-${friend.id}`, 3_000);
  expect(first.status).toBe(201);
  const answer = JSON.parse(first.text) as Answer;
  // 30 points earned and the friend's 300 of the referral, decided after the insert.
  expect(answer).toMatchObject({ pointsEarned: 30, balance: 330 });
  const [row] = await db.select().from(purchase).where(eq(purchase.id, answer.purchaseId));
  expect(row?.answer).toEqual(answer);
  const again = await buy(1, friend.memberNumber, `REF-${friend.id}`, 3_000);
  expect(again).toMatchObject({ status: 201, replayed: "true" });
  expect(JSON.parse(again.text)).toEqual(answer);
});
