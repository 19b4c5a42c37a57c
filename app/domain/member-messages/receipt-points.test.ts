import { describe, expect, it } from "vitest";
import { automaticCard } from "./compose.server";

describe("the receipt message's card (issue 36)", () => {
  it("shows the points spent beside the points earned when points paid part of the purchase", () => {
    const base = "https://example.test";
    expect(automaticCard("receipt", { points: "27", pointsSpent: "500" }, "zh-TW", base).highlight.value).toBe(
      "+27 點 · 折抵 500 點",
    );
    expect(automaticCard("receipt", { points: "27", pointsSpent: "500" }, "en", base).highlight.value).toBe(
      "+27 points · 500 points paid",
    );
    expect(automaticCard("receipt", { points: "120" }, "zh-TW", base).highlight.value).toBe("+120 點");
  });
});
