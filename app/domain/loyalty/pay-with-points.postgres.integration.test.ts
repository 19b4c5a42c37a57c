import type { DatabaseHandle } from "@platform/db/client";
import { purchase, purchaseRefund } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LoyaltyError } from "./errors";
import { checkLedger } from "./ledger-check.server";
import { adjustPoints } from "./points.server";
import { recordPurchase, refundPurchase } from "./purchases.server";
import { ledgerTotals, newMember } from "./testing.server";

/**
 * Paying with points under real concurrency (issue 36, "Bad input and races"): two database handles stand in for
 * two app instances. PostgreSQL only (TEST_DATABASE_URL).
 */
{
  let one: DatabaseHandle;
  let two: DatabaseHandle;

  useTwoPostgresInstances("pay_points_conc", (pair) => {
    ({ one, two } = pair);
  });

  const codeOf = (error: unknown) => {
    if (error instanceof LoyaltyError) return error.code;
    throw error;
  };

  async function ledgerHolds(memberId: string) {
    const totals = await ledgerTotals(one.db, memberId);
    expect(totals.ledgerSum).toBe(totals.balance);
    expect(totals.lotsRemaining).toBe(Math.max(0, totals.balance));
    expect((await checkLedger(one.db)).mismatches).toEqual([]);
    return totals.balance;
  }

  describe("paying with points on PostgreSQL", () => {
    it("two purchases spending the same points at once over two instances: one wins, the balance never below 0", {
      timeout: 120_000,
    }, async () => {
      for (let round = 0; round < 10; round++) {
        const m = await newMember(one.db);
        await adjustPoints(one.db, { memberId: m.id, amount: 500, reason: "seed", idempotencyKey: `seed:${m.id}` });
        const now = new Date();
        const results = await Promise.all(
          [one, two].map((handle, i) =>
            recordPurchase(
              handle.db,
              {
                memberId: m.id,
                storeId: "S01",
                receiptNumber: `RACE-${round}-${i}`,
                netAmount: 1000,
                purchasedAt: now,
                pointsToSpend: 400,
              },
              now,
            ).then(
              (r) => r.pointsSpent,
              (error: unknown) => codeOf(error),
            ),
          ),
        );
        expect(results.sort()).toEqual([400, "points_exceed_balance"].sort());
        const booked = await one.db.select().from(purchase).where(eq(purchase.memberId, m.id));
        expect(booked).toHaveLength(1);
        // 500 − 400 + 6 earned on the NT$600 paid in money.
        expect(await ledgerHolds(m.id)).toBe(106);
      }
    });

    it("the same receipt spending points sent to both instances at once: booked once, both answer its result", {
      timeout: 60_000,
    }, async () => {
      const m = await newMember(one.db);
      await adjustPoints(one.db, { memberId: m.id, amount: 500, reason: "seed", idempotencyKey: `seed:${m.id}` });
      const now = new Date();
      const results = await Promise.all(
        [one, two].map((handle) =>
          recordPurchase(
            handle.db,
            {
              memberId: m.id,
              storeId: "S01",
              receiptNumber: "SAME-1",
              netAmount: 1000,
              purchasedAt: now,
              pointsToSpend: 400,
            },
            now,
          ),
        ),
      );
      expect(results.map((r) => r.replayed).sort()).toEqual([false, true]);
      expect(new Set(results.map((r) => r.purchase.id)).size).toBe(1);
      expect(await ledgerHolds(m.id)).toBe(106);
    });

    it("a refund of a purchase paid partly with points, twice at once: given back once, the ledger balances", {
      timeout: 120_000,
    }, async () => {
      const m = await newMember(one.db);
      await adjustPoints(one.db, { memberId: m.id, amount: 1000, reason: "seed", idempotencyKey: `seed:${m.id}` });
      const now = new Date();
      const paid = await recordPurchase(
        one.db,
        {
          memberId: m.id,
          storeId: "S01",
          receiptNumber: "REF-1",
          netAmount: 3280,
          purchasedAt: now,
          pointsToSpend: 500,
        },
        now,
      );
      // The same refund (one key) on both instances: booked once, both answer it.
      const same = await Promise.all(
        [one, two].map((handle) =>
          refundPurchase(handle.db, { purchaseId: paid.purchase.id, amount: 1000, idempotencyKey: "ref-same" }, now),
        ),
      );
      expect(same.map((r) => r.refund.id)[0]).toBe(same[1]?.refund.id);
      expect(same.map((r) => r.pointsReturned)).toEqual([152, 152]);
      expect(await ledgerHolds(m.id)).toBe(527 + 152 - 8);
      // Two different refunds of the rest at once: one fits, the other exceeds the purchase.
      const rest = await Promise.all(
        [one, two].map((handle, i) =>
          refundPurchase(
            handle.db,
            { purchaseId: paid.purchase.id, amount: 2280, idempotencyKey: `ref-rest-${i}` },
            now,
          ).then(
            (r) => r.pointsReturned,
            (error: unknown) => codeOf(error),
          ),
        ),
      );
      expect(rest.sort()).toEqual([348, "refund_exceeds_purchase"].sort());
      const refunds = await one.db.select().from(purchaseRefund).where(eq(purchaseRefund.purchaseId, paid.purchase.id));
      expect(refunds.reduce((sum, r) => sum + r.pointsReturned, 0)).toBe(500);
      expect(await ledgerHolds(m.id)).toBe(1000);
    });
  });
}
