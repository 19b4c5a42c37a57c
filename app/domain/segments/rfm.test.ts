import { describe, expect, it } from "vitest";
import { RFM_GROUP_RULES, RFM_GROUPS, RFM_SCORES, rfmGroupOf } from "./rfm";

/** The RFM group rules (ADR 056): every cell of the 5 × 5 recency × frequency grid in exactly one group. */
describe("RFM groups", () => {
  it("put each of the 25 (R, F) cells in exactly one group", () => {
    for (const r of RFM_SCORES) {
      for (const f of RFM_SCORES) {
        const holding = RFM_GROUPS.filter((g) => {
          const rule = RFM_GROUP_RULES[g];
          return r >= rule.r[0] && r <= rule.r[1] && f >= rule.f[0] && f <= rule.f[1];
        });
        expect(holding, `R${r} F${f}`).toHaveLength(1);
        expect(rfmGroupOf(r, f)).toBe(holding[0]);
      }
    }
  });

  it("follow the grid of ADR 056", () => {
    const grid = [5, 4, 3, 2, 1].map((r) => RFM_SCORES.map((f) => rfmGroupOf(r, f)));
    expect(grid).toEqual([
      ["new", "potential", "potential", "champions", "champions"],
      ["new", "potential", "potential", "champions", "champions"],
      ["hibernating", "hibernating", "loyal", "loyal", "loyal"],
      ["hibernating", "hibernating", "at-risk", "at-risk", "cant-lose"],
      ["lost", "lost", "at-risk", "at-risk", "cant-lose"],
    ]);
  });

  it("refuse scores outside 1–5", () => {
    expect(() => rfmGroupOf(0, 3)).toThrow(RangeError);
    expect(() => rfmGroupOf(3, 6)).toThrow(RangeError);
  });
});
