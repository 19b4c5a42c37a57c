import type { Database } from "@platform/db/client";
import { pointEntry, pointLot, purchase } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LoyaltyError } from "./errors";
import { checkLedger } from "./ledger-check.server";
import { adjustPoints } from "./points.server";
import { RETURNED_POINTS_DAYS, recordPurchase, refundPurchase } from "./purchases.server";
import { changeRules, lotExpiry } from "./rules.server";
import { ledgerTotals, newMember } from "./testing.server";

/** Paying with points (issue 36, ADR 040): the spend in the purchase's transaction, replays, conflicts, refunds. */
let db: Database;
useMigratedTestDatabase("pay_with_points", (handle) => {
  db = handle.db;
});

const t0 = new Date("2026-03-10T04:00:00Z");

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LoyaltyError) return error.code;
    throw error;
  }
  throw new Error("expected a LoyaltyError");
}

async function invariants(memberId: string) {
  const totals = await ledgerTotals(db, memberId);
  expect(totals.ledgerSum).toBe(totals.balance);
  expect(totals.lotsRemaining).toBe(Math.max(0, totals.balance));
  expect((await checkLedger(db)).mismatches).toEqual([]);
  return totals.balance;
}

async function memberWith(points: number, key = "seed") {
  const m = await newMember(db);
  await adjustPoints(db, { memberId: m.id, amount: points, reason: "seed", idempotencyKey: `${key}:${m.id}` }, t0);
  return m;
}

const buy = (memberId: string, receiptNumber: string, netAmount: number, pointsToSpend?: number, now = t0) =>
  recordPurchase(db, { memberId, storeId: "S01", receiptNumber, netAmount, purchasedAt: now, pointsToSpend }, now);

describe("paying with points", () => {
  it("spends FIFO in the purchase's transaction, earns on the money part only, replays and refuses conflicts", async () => {
    const m = await memberWith(1000);
    const paid = await buy(m.id, "P-1", 3280, 500);
    // NT$3,280 − 500 points × NT$1 = NT$2,780 paid in money: 27 points at basic.
    expect(paid).toMatchObject({ pointsSpent: 500, pointsSpentValue: 500, pointsEarned: 27, replayed: false });
    expect(paid.balance).toBe(1000 - 500 + 27);
    expect(paid.purchase).toMatchObject({ pointsSpent: 500, pointsSpentValue: 500, pointsEarned: 27 });
    const entries = await db
      .select({ kind: pointEntry.kind, amount: pointEntry.amount })
      .from(pointEntry)
      .where(eq(pointEntry.purchaseId, paid.purchase.id))
      .orderBy(asc(pointEntry.amount));
    expect(entries).toEqual([
      { kind: "spend-purchase", amount: -500 },
      { kind: "earn-purchase", amount: 27 },
    ]);
    expect(await invariants(m.id)).toBe(527);

    // A retry answers the first result (even though the balance would now refuse 600).
    const again = await buy(m.id, "P-1", 3280, 500);
    expect(again).toMatchObject({ pointsSpent: 500, pointsEarned: 27, balance: 527, replayed: true });
    // The same receipt with other points, or none: a conflict, nothing booked.
    expect(await refusal(buy(m.id, "P-1", 3280, 400))).toBe("receipt_conflict");
    expect(await refusal(buy(m.id, "P-1", 3280))).toBe("receipt_conflict");
    expect(await invariants(m.id)).toBe(527);
  });

  it("refuses more than the balance, more than the share, fractional and negative points; nothing half-booked", async () => {
    const m = await memberWith(300);
    expect(await refusal(buy(m.id, "B-1", 3280, 301))).toBe("points_exceed_balance");
    // 50 % of NT$400 is NT$200: 201 points are too many even though the member has 300.
    expect(await refusal(buy(m.id, "B-2", 400, 201))).toBe("points_exceed_share");
    expect(await refusal(buy(m.id, "B-3", 3280, 1.5))).toBe("invalid_points");
    expect(await refusal(buy(m.id, "B-4", 3280, -1))).toBe("invalid_points");
    expect(await db.select().from(purchase).where(eq(purchase.memberId, m.id))).toEqual([]);
    expect(await invariants(m.id)).toBe(300);
    // Exactly the share is fine.
    expect(await buy(m.id, "B-2", 400, 200)).toMatchObject({ pointsSpent: 200, pointsEarned: 2 });
    expect(await invariants(m.id)).toBe(102);
  });

  it("takes the lots that expire first and refuses points only an expired lot still holds", async () => {
    const m = await newMember(db);
    const early = new Date("2025-06-01T04:00:00Z");
    await adjustPoints(db, { memberId: m.id, amount: 100, reason: "old", idempotencyKey: `old:${m.id}` }, early);
    await adjustPoints(db, { memberId: m.id, amount: 100, reason: "new", idempotencyKey: `new:${m.id}` }, t0);
    await buy(m.id, "F-1", 1000, 150);
    const lots = await db
      .select({ remaining: pointLot.remaining, expiresAt: pointLot.expiresAt })
      .from(pointLot)
      .where(eq(pointLot.memberId, m.id))
      .orderBy(asc(pointLot.expiresAt));
    // The 2025 lot (expiring end of 2026) is emptied first; 50 from the 2026 lot; the purchase's own lot is new.
    expect(lots[0]?.remaining).toBe(0);
    expect(lots.slice(1).reduce((sum, l) => sum + l.remaining, 0)).toBe(50 + 8);
    await invariants(m.id);

    // In 2028 the 2026 lot (expired end of 2027) still counts in the balance until the expiry job books it: it
    // pays nothing.
    const later = new Date("2028-02-01T04:00:00Z");
    expect(await refusal(buy(m.id, "F-2", 1000, 10, later))).toBe("points_exceed_balance");
    await invariants(m.id);
  });

  it("a partial refund gives spent points back in proportion, repeated refunds add up exactly, full returns all", async () => {
    const m = await memberWith(1000);
    const paid = await buy(m.id, "R-1", 3280, 500);
    const id = paid.purchase.id;
    const refund = (amount: number, key: string, now = t0) =>
      refundPurchase(db, { purchaseId: id, amount, idempotencyKey: key }, now);
    // NT$1,000 of NT$3,280: 152 of the 500 points back (floor), 8 of the 27 earned reversed.
    const first = await refund(1000, "r1");
    expect(first).toMatchObject({ pointsReturned: 152, pointsReversed: 8, replayed: false });
    expect(first.balance).toBe(527 + 152 - 8);
    expect(await invariants(m.id)).toBe(671);
    // Replayed: the first answer, nothing new.
    expect(await refund(1000, "r1")).toMatchObject({ pointsReturned: 152, replayed: true });
    expect(await refusal(refund(999, "r1"))).toBe("idempotency_conflict");
    // Three more odd-sized refunds to the full amount: 500 returned in all, 27 reversed in all.
    const second = await refund(1, "r2");
    const third = await refund(1093, "r3");
    const last = await refund(1186, "r4");
    expect(first.pointsReturned + second.pointsReturned + third.pointsReturned + last.pointsReturned).toBe(500);
    const [row] = await db.select().from(purchase).where(eq(purchase.id, id));
    expect(row).toMatchObject({ refundedAmount: 3280, pointsReturned: 500, pointsReversed: 27 });
    expect(await invariants(m.id)).toBe(1000);
    expect(await refusal(refund(1, "r5"))).toBe("refund_exceeds_purchase");

    // The returned points are new lots with the original expiry (end of 2027 for points adjusted in 2026).
    const returned = await db
      .select({ lotExpiresAt: pointEntry.lotExpiresAt })
      .from(pointEntry)
      .where(and(eq(pointEntry.purchaseId, id), eq(pointEntry.kind, "spend-return")));
    // The NT$1 refund gave back nothing (152 of 500 still rounds to 152): three return entries.
    expect(second.pointsReturned).toBe(0);
    expect(returned.length).toBe(3);
    for (const r of returned) expect(r.lotExpiresAt?.toISOString()).toBe(lotExpiry(t0).toISOString());
  });

  it("a full refund at once returns exactly what was spent; a lot about to expire comes back with 30 days", async () => {
    const m = await newMember(db);
    const nearEnd = new Date("2026-12-20T04:00:00Z");
    await adjustPoints(db, { memberId: m.id, amount: 400, reason: "seed", idempotencyKey: `s:${m.id}` }, t0);
    // 2025 lot: expires 2026-12-31 (Taipei).
    const early = new Date("2025-06-01T04:00:00Z");
    await adjustPoints(db, { memberId: m.id, amount: 100, reason: "old", idempotencyKey: `o:${m.id}` }, early);
    const paid = await buy(m.id, "Q-1", 1000, 300, nearEnd);
    const done = await refundPurchase(
      db,
      { purchaseId: paid.purchase.id, amount: 1000, idempotencyKey: "q1" },
      nearEnd,
    );
    expect(done).toMatchObject({ pointsReturned: 300, pointsReversed: paid.pointsEarned });
    const lots = await db
      .select({ amount: pointEntry.amount, lotExpiresAt: pointEntry.lotExpiresAt })
      .from(pointEntry)
      .where(and(eq(pointEntry.purchaseId, paid.purchase.id), eq(pointEntry.kind, "spend-return")))
      .orderBy(asc(pointEntry.lotExpiresAt));
    const thirtyDays = new Date(nearEnd.getTime() + RETURNED_POINTS_DAYS * 86_400_000).toISOString();
    expect(lots.map((l) => [l.amount, l.lotExpiresAt?.toISOString()])).toEqual([
      [100, thirtyDays],
      [200, lotExpiry(t0).toISOString()],
    ]);
    expect(await invariants(m.id)).toBe(500);
  });

  it("reads the point value and the share from the rules in force", async () => {
    const later = new Date("2026-04-01T04:00:00Z");
    await changeRules(db, { pointValueCents: 50, maxSpendPercent: 20 }, later);
    try {
      const m = await memberWith(10_000, "rules");
      // 20 % of NT$1,000 = NT$200 = 400 points at NT$0.5.
      expect(await refusal(buy(m.id, "V-1", 1000, 401, later))).toBe("points_exceed_share");
      const paid = await buy(m.id, "V-1", 1000, 400, later);
      expect(paid).toMatchObject({ pointsSpent: 400, pointsSpentValue: 200, pointsEarned: 8 });
      await invariants(m.id);
    } finally {
      await changeRules(db, { pointValueCents: 100, maxSpendPercent: 50 }, new Date(later.getTime() + 1000));
    }
  });
});
