import { describe, expect, it } from "vitest";
import { csvCell, panelRows } from "./csv";
import { liabilityNtd, monthsBetween, parseDashboardQuery, redemptionRate, scopeFor } from "./filters";

const q = (s: string) => parseDashboardQuery(new URLSearchParams(s), "2026-03-05");

describe("dashboard filters", () => {
  it("defaults to the last 30 Taipei days", () => {
    expect(q("")).toEqual({ ok: true, query: { from: "2026-02-04", to: "2026-03-05", store: null } });
  });
  it("refuses a range ending before it starts, one spanning 20 years, and impossible dates", () => {
    expect(q("from=2026-03-05&to=2026-03-04")).toMatchObject({ ok: false, error: "reversed" });
    expect(q("from=2006-01-01&to=2025-12-31")).toMatchObject({ ok: false, error: "too_long" });
    expect(q("from=2023-03-06&to=2026-03-05")).toMatchObject({ ok: true });
    expect(q("from=2023-03-05&to=2026-03-05")).toMatchObject({ ok: false, error: "too_long" });
    expect(q("from=2026-02-30")).toMatchObject({ ok: false, error: "invalid_from" });
    expect(q("to=yesterday")).toMatchObject({ ok: false, error: "invalid_to" });
  });
  it("refuses another manager's store and lets an admin pick any", () => {
    const manager = { stores: ["xinyi"] as const };
    expect(scopeFor(manager, null)).toEqual({ kind: "stores", storeIds: ["xinyi"] });
    expect(scopeFor(manager, "xinyi")).toEqual({ kind: "stores", storeIds: ["xinyi"] });
    expect(scopeFor(manager, "taichung")).toBeNull();
    expect(scopeFor({ stores: [] }, null)).toEqual({ kind: "stores", storeIds: [] });
    expect(scopeFor({ stores: "all" }, null)).toEqual({ kind: "all" });
    expect(scopeFor({ stores: "all" }, "taichung")).toEqual({ kind: "stores", storeIds: ["taichung"] });
  });
});

describe("aggregations", () => {
  it("redemption rate, liability, months", () => {
    expect(redemptionRate(0, 0)).toBeNull();
    expect(redemptionRate(1000, 300)).toBe(0.3);
    expect(liabilityNtd(1234, 100)).toBe(1234);
    expect(liabilityNtd(1234, 50)).toBe(617);
    expect(monthsBetween("2025-11-15", "2026-02-01")).toEqual(["2025-11-01", "2025-12-01", "2026-01-01", "2026-02-01"]);
  });
  it("CSV cells are quoted and formulas neutralised; programme panels absent from a store view", () => {
    expect(csvCell("=HYPERLINK(1)")).toBe(`"'=HYPERLINK(1)"`);
    expect(csvCell('a "b"')).toBe(`"a ""b"""`);
    expect(csvCell(12)).toBe("12");
    const d = { programme: false, liability: null, tiers: null, tierMoves: null } as never;
    expect(panelRows(d, "liability", (x) => x)).toBeNull();
    expect(panelRows(d, "signups", (x) => x)).toBeNull();
  });
});
