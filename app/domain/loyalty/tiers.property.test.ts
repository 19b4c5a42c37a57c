import type { Tier } from "@platform/db/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES, type LoyaltyRules, oneYearAfter, TIER_ORDER, tierForSpend } from "./rules.server";
import { tierDecision } from "./tiers.server";

/**
 * Properties of tier evaluation (PRODUCT.md §4): the tier for a spend is monotone in the spend and in
 * the thresholds; upgrades happen at once; a member is downgraded at most once a year, and
 * otherwise the evaluation always converges on the tier the spend earns.
 */
const tiers: Tier[] = ["basic", "silver", "gold"];
const tier = fc.constantFrom(...tiers);
const rules: fc.Arbitrary<LoyaltyRules> = fc
  .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }))
  .map(([silver, extra]) => ({ ...DEFAULT_RULES, silverSpend: silver, goldSpend: silver + extra }));
const spend = fc.integer({ min: 0, max: 3_000_000 });
const instant = fc.date({
  min: new Date("2024-01-01T00:00:00Z"),
  max: new Date("2030-01-01T00:00:00Z"),
  noInvalidDate: true,
});

describe("tier evaluation (property-based)", () => {
  it("gives a higher or equal tier for a higher spend", () => {
    fc.assert(
      fc.property(rules, spend, spend, (r, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(TIER_ORDER[tierForSpend(r, low)]).toBeLessThanOrEqual(TIER_ORDER[tierForSpend(r, high)]);
      }),
    );
  });

  it("reaches a tier exactly at its threshold", () => {
    fc.assert(
      fc.property(rules, (r) => {
        expect(tierForSpend(r, r.silverSpend - 1)).toBe("basic");
        expect(tierForSpend(r, r.silverSpend)).toBe("silver");
        expect(tierForSpend(r, r.goldSpend - 1)).toBe("silver");
        expect(tierForSpend(r, r.goldSpend)).toBe("gold");
      }),
    );
  });

  it("upgrades at once, never decides a no-op, and downgrades only a year after the last downgrade", () => {
    fc.assert(
      fc.property(tier, tier, fc.option(instant, { nil: null }), instant, (current, target, lastDowngradeAt, now) => {
        const decided = tierDecision({ tier: current, lastDowngradeAt }, target, now);
        if (TIER_ORDER[target] > TIER_ORDER[current]) expect(decided).toBe(target);
        else if (target === current) expect(decided).toBeNull();
        else {
          const allowed = !lastDowngradeAt || oneYearAfter(lastDowngradeAt) <= now;
          expect(decided).toBe(allowed ? target : null);
        }
      }),
    );
  });

  it("over any history of nightly evaluations: upgrades the same night, at most one downgrade a year, then converges", () => {
    fc.assert(
      fc.property(
        rules,
        fc.array(fc.record({ days: fc.integer({ min: 1, max: 120 }), spend }), { minLength: 1, maxLength: 60 }),
        (r, nights) => {
          let account: { tier: Tier; lastDowngradeAt: Date | null } = { tier: "basic", lastDowngradeAt: null };
          let now = new Date("2025-01-01T16:00:00Z");
          const downgrades: Date[] = [];
          for (const night of nights) {
            now = new Date(now.getTime() + night.days * 86_400_000);
            const target = tierForSpend(r, night.spend);
            const to = tierDecision(account, target, now);
            if (to) {
              if (TIER_ORDER[to] < TIER_ORDER[account.tier]) {
                downgrades.push(now);
                account = { tier: to, lastDowngradeAt: now };
              } else account = { ...account, tier: to };
            }
            // Never below what the spend earns; above it only while a downgrade is held back.
            expect(TIER_ORDER[account.tier]).toBeGreaterThanOrEqual(TIER_ORDER[target]);
            if (account.tier !== target) {
              expect(account.lastDowngradeAt).not.toBeNull();
              expect(oneYearAfter(account.lastDowngradeAt!).getTime()).toBeGreaterThan(now.getTime());
            }
          }
          for (let i = 1; i < downgrades.length; i++) {
            expect(downgrades[i]!.getTime()).toBeGreaterThanOrEqual(oneYearAfter(downgrades[i - 1]!).getTime());
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
