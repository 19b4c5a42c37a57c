import { describe, expect, it } from "vitest";
import { DEFAULT_RULES, lotExpiry, pointsForAmount, spendWindowStart, tierForSpend } from "./rules.server";
import { tierDecision } from "./tiers.server";

describe("loyalty rules", () => {
  it("earns 1 point per NT$100 rounded down, times the tier multiplier rounded down", () => {
    expect(pointsForAmount(DEFAULT_RULES, "basic", 99)).toBe(0);
    expect(pointsForAmount(DEFAULT_RULES, "basic", 12_345)).toBe(123);
    expect(pointsForAmount(DEFAULT_RULES, "silver", 12_345)).toBe(147); // 123 × 1.2 = 147.6
    expect(pointsForAmount(DEFAULT_RULES, "gold", 12_345)).toBe(184); // 123 × 1.5 = 184.5
  });

  it("expires lots at the end of the calendar year after the year earned, in Taipei", () => {
    // 2026-12-31 20:00 UTC is already 2027-01-01 04:00 in Taipei: earned in 2027.
    expect(lotExpiry(new Date("2026-12-31T20:00:00Z")).toISOString()).toBe("2028-12-31T16:00:00.000Z");
    expect(lotExpiry(new Date("2026-12-31T15:59:59Z")).toISOString()).toBe("2027-12-31T16:00:00.000Z");
  });

  it("picks tiers by 12-month spend", () => {
    expect(tierForSpend(DEFAULT_RULES, 49_999)).toBe("basic");
    expect(tierForSpend(DEFAULT_RULES, 50_000)).toBe("silver");
    expect(tierForSpend(DEFAULT_RULES, 200_000)).toBe("gold");
    expect(spendWindowStart(new Date("2026-11-22T02:00:00Z")).toISOString()).toBe("2025-11-22T16:00:00.000Z");
  });

  it("upgrades at once and downgrades at most once a year", () => {
    const now = new Date("2026-11-22T02:00:00Z");
    expect(tierDecision({ tier: "basic", lastDowngradeAt: null }, "gold", now)).toBe("gold");
    expect(tierDecision({ tier: "gold", lastDowngradeAt: null }, "silver", now)).toBe("silver");
    expect(tierDecision({ tier: "gold", lastDowngradeAt: new Date("2026-03-01T00:00:00Z") }, "basic", now)).toBeNull();
    expect(tierDecision({ tier: "gold", lastDowngradeAt: new Date("2025-11-01T00:00:00Z") }, "basic", now)).toBe(
      "basic",
    );
    expect(tierDecision({ tier: "silver", lastDowngradeAt: null }, "silver", now)).toBeNull();
  });
});
