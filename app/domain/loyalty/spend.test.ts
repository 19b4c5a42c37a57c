import { describe, expect, it } from "vitest";
import { decideSpend, pointsValue, refundReturn } from "./spend";

const DEFAULTS = { pointValueCents: 100, maxSpendPercent: 50 };

describe("decideSpend (the one decision on paying with points)", () => {
  it("allows min(balance, floor(share × net / value)) and answers the value and what is left to pay", () => {
    expect(decideSpend(DEFAULTS, 1000, 3280, 500)).toEqual({
      maxPoints: 1000,
      maxByShare: 1640,
      points: 500,
      value: 500,
      toPay: 2780,
      problem: null,
    });
    expect(decideSpend(DEFAULTS, 5000, 3280).maxPoints).toBe(1640);
    expect(decideSpend(DEFAULTS, 5000, 3281).maxByShare).toBe(1640);
    expect(decideSpend(DEFAULTS, 0, 3280)).toMatchObject({ maxPoints: 0, points: 0, toPay: 3280, problem: null });
    // A negative balance (after a refund) allows nothing, and spending nothing is always fine.
    expect(decideSpend(DEFAULTS, -20, 3280)).toMatchObject({ maxPoints: 0, problem: null });
    expect(decideSpend(DEFAULTS, -20, 3280, 1).problem).toBe("points_exceed_balance");
  });

  it("refuses more than the share, more than the balance, fractional, negative and non-numbers", () => {
    expect(decideSpend(DEFAULTS, 5000, 400, 201).problem).toBe("points_exceed_share");
    expect(decideSpend(DEFAULTS, 5000, 400, 200).problem).toBeNull();
    expect(decideSpend(DEFAULTS, 100, 3280, 101).problem).toBe("points_exceed_balance");
    expect(decideSpend(DEFAULTS, 100, 3280, 100).problem).toBeNull();
    expect(decideSpend(DEFAULTS, 100, 3280, 1.5).problem).toBe("invalid_points");
    expect(decideSpend(DEFAULTS, 100, 3280, -1).problem).toBe("invalid_points");
    expect(decideSpend(DEFAULTS, 100, 3280, Number.NaN).problem).toBe("invalid_points");
    expect(decideSpend(DEFAULTS, 100, 3280, "10").problem).toBe("invalid_points");
    expect(decideSpend(DEFAULTS, 100, 3280, 1e20).problem).toBe("invalid_points");
  });

  it("follows the rules: a point worth NT$0.5, a 20 % share, a share of 0 (paying with points off)", () => {
    const half = { pointValueCents: 50, maxSpendPercent: 20 };
    expect(decideSpend(half, 10_000, 1000)).toMatchObject({ maxPoints: 400, maxByShare: 400 });
    expect(decideSpend(half, 10_000, 1000, 401).problem).toBe("points_exceed_share");
    expect(decideSpend(half, 10_000, 1000, 3)).toMatchObject({ value: 1, toPay: 999 });
    expect(pointsValue(half, 1)).toBe(0);
    expect(decideSpend({ pointValueCents: 100, maxSpendPercent: 0 }, 500, 1000, 1).problem).toBe("points_exceed_share");
  });
});

describe("refundReturn", () => {
  it("returns in proportion by the total refunded, so partial refunds add up to exactly what was spent", () => {
    let p = { netAmount: 3280, refundedAmount: 0, pointsSpent: 500, pointsReturned: 0 };
    let total = 0;
    for (const amount of [1000, 1, 1093, 7, 1179]) {
      const { give, target } = refundReturn(p, amount);
      total += give;
      p = { ...p, refundedAmount: p.refundedAmount + amount, pointsReturned: target };
    }
    expect(p.refundedAmount).toBe(3280);
    expect(total).toBe(500);
    expect(refundReturn({ netAmount: 3280, refundedAmount: 0, pointsSpent: 500, pointsReturned: 0 }, 3280).give).toBe(
      500,
    );
    expect(refundReturn({ netAmount: 100, refundedAmount: 0, pointsSpent: 0, pointsReturned: 0 }, 50).give).toBe(0);
  });
});
