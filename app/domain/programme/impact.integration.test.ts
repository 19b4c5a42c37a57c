import type { Database } from "@platform/db/client";
import { loyaltyAccount, purchase, type Tier } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { pointsForAmount } from "../loyalty/earn";
import { currentRules, type LoyaltyRules, TIER_ORDER, tierForSpend } from "../loyalty/rules.server";
import { newMember } from "../loyalty/testing.server";
import { spend12Months, tierDecision } from "../loyalty/tiers.server";
import { rulesImpact, type TierMove } from "./rules.server";

/**
 * The impact preview's set-based SQL against the engine's own per-member functions (spend12Months,
 * tierForSpend, tierDecision, pointsForAmount): for any proposed thresholds and earn rates, the tier
 * moves and the 30-day points agree exactly. The accounts include downgrades on 29 February and a year
 * ago to the second, where a calendar shortcut would differ from oneYearAfter.
 */
let db: Database;
useMigratedTestDatabase("programme_impact", (handle) => {
  db = handle.db;
});

const DAY = 86_400_000;
const NOW = new Date("2026-03-01T03:00:00.000Z"); // 11:00 Taipei, the day after 28 Feb 2026
type Fixture = { memberId: string; tier: Tier; lastDowngradeAt: Date | null };
const accounts: Fixture[] = [];

beforeAll(async () => {
  const downgrades: (Date | null)[] = [
    null,
    new Date("2024-02-28T16:00:00.000Z"), // 29 Feb 2024 00:00 Taipei → a year later is 1 Mar 2025
    new Date("2025-03-01T03:00:00.000Z"), // exactly a year before NOW
    new Date("2025-03-01T03:00:01.000Z"), // a second short of a year
    new Date("2025-09-01T00:00:00.000Z"),
    new Date("2025-02-28T16:00:00.000Z"),
  ];
  const random = fc.sample(
    fc.record({
      tier: fc.constantFrom<Tier>("basic", "silver", "gold"),
      downgrade: fc.integer({ min: 0, max: downgrades.length - 1 }),
      purchases: fc.array(
        fc.record({
          daysAgo: fc.integer({ min: 0, max: 400 }),
          amount: fc.integer({ min: 1, max: 150_000 }),
          refundedShare: fc.constantFrom(0, 0, 0, 0.5, 1),
        }),
        { maxLength: 6 },
      ),
    }),
    { numRuns: 60, seed: 29 },
  );
  for (const [i, spec] of random.entries()) {
    const m = await newMember(db);
    const lastDowngradeAt = downgrades[spec.downgrade] ?? null;
    await db.insert(loyaltyAccount).values({ memberId: m.id, tier: spec.tier, lastDowngradeAt });
    accounts.push({ memberId: m.id, tier: spec.tier, lastDowngradeAt });
    for (const [j, p] of spec.purchases.entries()) {
      await db.insert(purchase).values({
        memberId: m.id,
        storeId: "S01",
        receiptNumber: `IMPACT-${i}-${j}`,
        netAmount: p.amount,
        refundedAmount: Math.floor(p.amount * p.refundedShare),
        purchasedAt: new Date(NOW.getTime() - p.daysAgo * DAY - j * 1000),
      });
    }
  }
});

async function engineImpact(rules: LoyaltyRules) {
  const moves = new Map<string, number>();
  for (const a of accounts) {
    const spend = await spend12Months(db, a.memberId, NOW);
    const to = tierDecision(a, tierForSpend(rules, spend), NOW);
    if (to) moves.set(`${a.tier}>${to}`, (moves.get(`${a.tier}>${to}`) ?? 0) + 1);
  }
  const rows = await db.select().from(purchase);
  let points = 0;
  let purchases = 0;
  const tierOf = new Map(accounts.map((a) => [a.memberId, a.tier]));
  for (const p of rows) {
    const tier = tierOf.get(p.memberId);
    if (!tier || p.purchasedAt.getTime() <= NOW.getTime() - 30 * DAY || p.purchasedAt > NOW) continue;
    purchases++;
    points += pointsForAmount(rules, tier, p.netAmount);
  }
  return { moves, points, purchases };
}

function asMap(moves: TierMove[]) {
  return new Map(moves.map((m) => [`${m.from}>${m.to}`, m.members]));
}

describe("rules impact preview", () => {
  it("matches the engine's per-member functions for any proposed rules", { timeout: 120_000 }, async () => {
    const inForce = await currentRules(db, NOW);
    const expectedCurrent = await engineImpact(inForce);
    let sawDowngrade = false;
    let sawUpgrade = false;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1, max: 300_000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.integer({ min: 100, max: 5000 }), { minLength: 3, maxLength: 3 }),
        async (silver, extra, amountPerPoint, multipliers) => {
          const proposed: LoyaltyRules = {
            ...inForce,
            silverSpend: silver,
            goldSpend: silver + extra,
            amountPerPoint,
            basicMultiplierPermille: multipliers[0] ?? 1000,
            silverMultiplierPermille: multipliers[1] ?? 1000,
            goldMultiplierPermille: multipliers[2] ?? 1000,
          };
          const impact = await rulesImpact(db, proposed, NOW);
          const expected = await engineImpact(proposed);
          expect(asMap(impact.proposed)).toEqual(expected.moves);
          expect(asMap(impact.current)).toEqual(expectedCurrent.moves);
          expect(impact.pointsProposed).toBe(expected.points);
          expect(impact.pointsCurrent).toBe(expectedCurrent.points);
          expect(impact.purchases).toBe(expected.purchases);
          for (const m of impact.proposed) {
            if (TIER_ORDER[m.to] < TIER_ORDER[m.from]) sawDowngrade = true;
            else sawUpgrade = true;
          }
        },
      ),
      { numRuns: 25, seed: 2026 },
    );
    // The data exercised both directions (a property that never saw a move would prove little).
    expect(sawDowngrade && sawUpgrade).toBe(true);
  });
});
