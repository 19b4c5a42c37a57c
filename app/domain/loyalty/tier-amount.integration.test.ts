import { type Database, rowsOf } from "@platform/db/client";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberCenterSummary } from "./member-center.server";
import { adjustPoints } from "./points.server";
import { recordPurchase, refundPurchase } from "./purchases.server";
import { newMember } from "./testing.server";
import { tierAmountOf, tierAmountSql } from "./tier-amount.server";
import { spend12Months, tierProgress } from "./tiers.server";

/**
 * Only the money part counts toward the tier (PRODUCT.md §12, ADR 052): NT$3,280 paid with 500 points counts
 * NT$2,780; a refund takes back its share of that. The booking, the member center and the tier progress agree
 * (they all sum tierAmountSql).
 */
let db: Database;
useMigratedTestDatabase("tier_amount", (handle) => {
  db = handle.db;
});

describe("the spend toward the tier", () => {
  it("counts the money part of a purchase paid partly with points, and a partial refund takes back its share", async () => {
    const m = await newMember(db);
    await adjustPoints(db, { memberId: m.id, amount: 1000, reason: "seed", idempotencyKey: `seed:${m.id}` });
    const now = new Date();
    const booked = await recordPurchase(
      db,
      { memberId: m.id, storeId: "S01", receiptNumber: "TA-1", netAmount: 3280, purchasedAt: now, pointsToSpend: 500 },
      now,
    );
    expect(booked.pointsSpentValue).toBe(500);
    expect(await spend12Months(db, m.id, now)).toBe(2780);
    expect((await tierProgress(db, m.id, now)).spend12Months).toBe(2780);
    expect((await memberCenterSummary(db, m.id, now)).spend12Months).toBe(2780);
    // Half refunded: half of the NT$2,780 paid in money.
    const later = new Date(now.getTime() + 1000);
    await refundPurchase(db, { purchaseId: booked.purchase.id, amount: 1640, idempotencyKey: `ta:${m.id}` }, later);
    expect(await spend12Months(db, m.id, later)).toBe(1390);
    // A purchase without points counts whole; a full refund counts nothing.
    const plain = await recordPurchase(
      db,
      { memberId: m.id, storeId: "S01", receiptNumber: "TA-2", netAmount: 1000, purchasedAt: later },
      later,
    );
    expect(await spend12Months(db, m.id, later)).toBe(2390);
    await refundPurchase(db, { purchaseId: plain.purchase.id, amount: 1000, idempotencyKey: `ta2:${m.id}` }, later);
    await refundPurchase(db, { purchaseId: booked.purchase.id, amount: 1640, idempotencyKey: `ta3:${m.id}` }, later);
    expect(await spend12Months(db, m.id, later)).toBe(0);
  });

  it("computes one purchase's amount in JavaScript exactly as tierAmountSql does (the booking's own, ADR 039)", async () => {
    const cases = [
      [1, 0, 0],
      [3280, 500, 0],
      [3280, 500, 1640],
      [1000, 0, 1000],
      [999, 333, 7],
      [100_000_000, 49_999_999, 3],
      [100_000_000, 0, 99_999_999],
    ] as const;
    for (const [netAmount, pointsSpentValue, refundedAmount] of cases) {
      const [row] = rowsOf<{ amount: string }>(
        await db.execute(
          sql`select ${tierAmountSql("t")}::text as amount from (values (${netAmount}::int, ${pointsSpentValue}::int,
            ${refundedAmount}::int)) as t(net_amount, points_spent_value, refunded_amount)`,
        ),
      );
      expect(tierAmountOf({ netAmount, pointsSpentValue, refundedAmount })).toBe(Number(row?.amount));
    }
  });
});
