import type { Database } from "@platform/db/client";
import { loyaltyAccount, type Tier, tierChange } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { asc, eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recordPurchase } from "./purchases.server";
import { currentRules, spendWindowStart, TIER_ORDER, tierForSpend } from "./rules.server";
import { newMember } from "./testing.server";
import { evaluateTiers } from "./tiers.server";

/**
 * Property: for any history of purchases over the years, the purchase that crosses a threshold
 * upgrades at once (never a downgrade on a purchase), and the nightly evaluation then lands exactly on
 * the tier the 12-month spend earns; every change is recorded with its reason. The members of earlier
 * runs stay in the database, so the nightly run always has other accounts to get wrong (it once summed
 * every member's purchases and never downgraded anyone).
 */
let db: Database;
useMigratedTestDatabase("tiers_property", (handle) => {
  db = handle.db;
});

const DAY = 86_400_000;

describe("tier evaluation on the database (property-based)", () => {
  it("upgrades on the crossing purchase and the nightly run settles on the 12-month spend's tier", {
    timeout: 120_000,
  }, async () => {
    const rules = await currentRules(db);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ days: fc.integer({ min: 0, max: 150 }), amount: fc.integer({ min: 100, max: 120_000 }) }),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        fc.integer({ min: 0, max: 500 }),
        async (purchases, evaluateAfterDays) => {
          run++;
          const m = await newMember(db);
          const booked: { at: Date; amount: number }[] = [];
          const spendAt = (now: Date) =>
            booked.filter((p) => p.at >= spendWindowStart(now) && p.at <= now).reduce((s, p) => s + p.amount, 0);
          let now = new Date(Date.UTC(2025, 0, 1, 4));
          let tier: Tier = "basic";
          let changes = 0;
          for (const [i, p] of purchases.entries()) {
            now = new Date(now.getTime() + p.days * DAY + 1000);
            await recordPurchase(
              db,
              { memberId: m.id, storeId: "S01", receiptNumber: `T${run}-${i}`, netAmount: p.amount, purchasedAt: now },
              now,
            );
            booked.push({ at: now, amount: p.amount });
            const earned = tierForSpend(rules, spendAt(now));
            const expected: Tier = TIER_ORDER[earned] > TIER_ORDER[tier] ? earned : tier;
            if (expected !== tier) changes++;
            tier = expected;
            const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
            expect(account?.tier).toBe(tier);
          }
          const evaluation = new Date(now.getTime() + evaluateAfterDays * DAY);
          await evaluateTiers(db, evaluation);
          const target = tierForSpend(rules, spendAt(evaluation));
          if (target !== tier) changes++;
          const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
          expect(account?.tier).toBe(target);
          const recorded = await db
            .select()
            .from(tierChange)
            .where(eq(tierChange.memberId, m.id))
            .orderBy(asc(tierChange.createdAt));
          expect(recorded).toHaveLength(changes);
          for (const change of recorded) {
            expect(change.reason).toMatch(/^(purchase S01\/T\d+-\d+|nightly-evaluation)$/);
            const up = TIER_ORDER[change.toTier] > TIER_ORDER[change.fromTier];
            // A purchase only ever upgrades.
            if (change.reason.startsWith("purchase")) expect(up).toBe(true);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
