import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "@platform/db/client";
import { coupon, loyaltyAccount, pointEntry, purchase, reward } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LoyaltyError } from "./errors";
import { adjustPoints } from "./points.server";
import { recordPurchase, refundPurchase } from "./purchases.server";
import { redeemReward, useCoupon } from "./rewards.server";
import { ledgerTotals, newMember } from "./testing.server";

/**
 * Real concurrency needs real connections: PGlite serialises everything on one, so this file runs
 * only on PostgreSQL, with two database handles standing in for two app instances. vitest.config.ts
 * includes `*.postgres.integration.test.ts` only when TEST_DATABASE_URL is set.
 */
{
  let one: DatabaseHandle;
  let two: DatabaseHandle;

  useTwoPostgresInstances("loyalty_conc", (pair) => {
    ({ one, two } = pair);
  });

  describe("concurrent ledger operations on PostgreSQL", () => {
    it("never double-spends: 200 parallel redemptions over two instances, balance = ledger sum ≥ 0", {
      timeout: 120_000,
    }, async () => {
      const m = await newMember(one.db);
      const rewardId = randomUUID();
      await one.db.insert(reward).values({ id: rewardId, name: "gift", kind: "gift", pointsCost: 30, stock: 1000 });
      await adjustPoints(one.db, { memberId: m.id, amount: 1000, reason: "seed", idempotencyKey: "seed" });
      // 200 attempts, each key used twice (a retry): at most 33 coupons fit into 1000 points.
      const attempts = Array.from({ length: 200 }, (_, i) => {
        const handle = i % 2 === 0 ? one : two;
        return redeemReward(handle.db, { memberId: m.id, rewardId, idempotencyKey: `k${i % 100}` }).then(
          (r) => r.coupon.id,
          (error: unknown) => {
            if (error instanceof LoyaltyError && error.code === "insufficient_points") return null;
            throw error;
          },
        );
      });
      const results = await Promise.all(attempts);
      const coupons = await one.db.select().from(coupon).where(eq(coupon.memberId, m.id));
      expect(coupons).toHaveLength(33);
      expect(new Set(results.filter(Boolean)).size).toBe(33);
      const totals = await ledgerTotals(one.db, m.id);
      expect(totals).toEqual({ balance: 10, ledgerSum: 10, lotsRemaining: 10 });
      const [item] = await one.db.select().from(reward).where(eq(reward.id, rewardId));
      expect(item?.stock).toBe(1000 - 33);
    });

    it("keeps every invariant under mixed purchases, refunds, redemptions and coupon uses", {
      timeout: 120_000,
    }, async () => {
      const members = await Promise.all(Array.from({ length: 5 }, () => newMember(one.db)));
      const rewardId = randomUUID();
      await one.db
        .insert(reward)
        .values({ id: rewardId, name: "off", kind: "amount-off", amountOff: 50, pointsCost: 20 });
      const purchases: { id: string; amount: number }[] = [];
      const coupons: string[] = [];
      const ops = Array.from({ length: 600 }, (_, i) => async () => {
        const handle = i % 2 === 0 ? one : two;
        const m = members[i % members.length]!;
        const kind = i % 4;
        try {
          if (kind === 0 || purchases.length === 0) {
            const receipt = `C-${Math.floor(i / 2)}`; // pairs of ops share a receipt: a retry
            const r = await recordPurchase(handle.db, {
              memberId: m.id,
              storeId: `S${i % members.length}`,
              receiptNumber: receipt,
              netAmount: 2_000,
              purchasedAt: new Date(),
            });
            purchases.push({ id: r.purchase.id, amount: 2_000 });
          } else if (kind === 1) {
            const p = purchases[i % purchases.length]!;
            await refundPurchase(handle.db, { purchaseId: p.id, amount: 700, idempotencyKey: `rf-${i % 50}-${p.id}` });
          } else if (kind === 2) {
            const r = await redeemReward(handle.db, { memberId: m.id, rewardId, idempotencyKey: `rd-${i % 150}` });
            coupons.push(r.coupon.code);
          } else if (coupons.length > 0) {
            await useCoupon(handle.db, { code: coupons[i % coupons.length]!, storeId: "S0" });
          }
        } catch (error) {
          if (!(error instanceof LoyaltyError)) throw error;
        }
      });
      // 20 clients draining one queue of operations.
      let next = 0;
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < ops.length) await ops[next++]!();
        }),
      );
      for (const m of members) {
        const totals = await ledgerTotals(one.db, m.id);
        expect(totals.ledgerSum).toBe(totals.balance);
        expect(totals.lotsRemaining).toBe(Math.max(0, totals.balance));
        const [account] = await one.db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
        if (totals.balance < 0) expect(account?.negativeSince).not.toBeNull();
      }
      const [receipts] = await one.db
        .select({
          all: sql<number>`count(*)::int`,
          distinct: sql<number>`count(distinct (${purchase.storeId}, ${purchase.receiptNumber}))::int`,
        })
        .from(purchase);
      expect(receipts?.all).toBe(receipts?.distinct);
      const [couponUses] = await one.db
        .select({ used: sql<number>`count(*)::int` })
        .from(pointEntry)
        .where(eq(pointEntry.kind, "redeem"));
      expect(couponUses?.used).toBeGreaterThan(0);
    });
  });
}
