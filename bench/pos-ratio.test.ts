import { describe, expect, it } from "vitest";
import { compareKinds, median, roundOrder } from "./pos-ratio.js";

describe("median", () => {
  it("takes the middle value, the upper middle for an even count, and skips what is not a number", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([null, 5, Number.NaN, 1, 3])).toBe(3);
    expect(median([])).toBeNull();
  });
});

describe("roundOrder", () => {
  it("rotates the kinds by one each round, so each is first once in as many rounds as kinds", () => {
    expect(roundOrder(["a", "b", "c"], 1)).toEqual(["a", "b", "c"]);
    expect(roundOrder(["a", "b", "c"], 2)).toEqual(["b", "c", "a"]);
    expect(roundOrder(["a", "b", "c"], 3)).toEqual(["c", "a", "b"]);
    expect(roundOrder(["a", "b", "c"], 4)).toEqual(["a", "b", "c"]);
    expect(roundOrder(["plain", "growth"], 2)).toEqual(["growth", "plain"]);
  });
});

describe("compareKinds", () => {
  const segment = (kind: string, round: number, perSecond: number, p50Ms: number, appCpuMs: number | null) => ({
    kind,
    round,
    perSecond,
    p50Ms,
    p99Ms: p50Ms * 2,
    appCpuMs,
    backendCpuMs: appCpuMs === null ? null : appCpuMs / 2,
    postgresCpuMs: 1,
  });

  it("gives per-round ratios (base's rate over the other's; the other's latency and CPU over base's) and their medians", () => {
    const result = compareKinds(
      [
        segment("plain", 1, 100, 10, 2),
        segment("growth", 1, 80, 12, 2.5),
        segment("growth", 2, 90, 11, 2.2),
        segment("plain", 2, 90, 10, 2),
        segment("plain", 3, 120, 8, 2),
        segment("growth", 3, 100, 10, 3),
      ],
      "plain",
      "growth",
    );
    expect(result.rounds.map((r) => r.throughput)).toEqual([1.25, 1, 1.2]);
    expect(result.throughput).toBe(1.2);
    expect(result.rounds.map((r) => r.p50)).toEqual([1.2, 1.1, 1.25]);
    expect(result.p50).toBe(1.2);
    expect(result.p99).toBe(1.2);
    expect(result.appCpu).toBe(1.25);
    expect(result.backendCpu).toBe(1.25);
    expect(result.postgresCpu).toBe(1);
  });

  it("leaves out a round that lacks one kind, and a ratio whose parts are missing or zero", () => {
    const result = compareKinds(
      [segment("card", 1, 50, 0, null), segment("spend", 1, 40, 5, 3), segment("spend", 2, 40, 5, 3)],
      "card",
      "spend",
    );
    expect(result.rounds).toHaveLength(1);
    expect(result.throughput).toBe(1.25);
    expect(result.p50).toBeNull();
    expect(result.appCpu).toBeNull();
    expect(result.backendCpu).toBeNull();
  });
});
