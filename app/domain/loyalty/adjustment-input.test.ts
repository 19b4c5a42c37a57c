import { describe, expect, it } from "vitest";
import { adjustmentNeedsApproval } from "../staff/permissions";
import { parseAdjustment, parsePoints } from "./adjustment-input";

describe("parsePoints", () => {
  const cases: [string, number | string][] = [
    ["300", 300],
    ["+500", 500],
    ["-200", -200],
    ["−200", -200],
    ["１,２００", 1200],
    ["1,000", 1000],
    [" 42 ", 42],
    ["7.0", 7],
    ["007", 7],
    ["1000000", 1_000_000],
    ["-1000000", -1_000_000],
    ["", "amount_required"],
    ["   ", "amount_required"],
    ["0", "amount_zero"],
    ["-0", "amount_zero"],
    ["1.5", "amount_fraction"],
    ["-0.5", "amount_fraction"],
    [".5", "amount_fraction"],
    ["1000001", "amount_too_large"],
    ["99999999999999999999", "amount_too_large"],
    ["1e3", "amount_not_number"],
    ["abc", "amount_not_number"],
    ["12abc", "amount_not_number"],
    ["--5", "amount_not_number"],
    ["0x10", "amount_not_number"],
    ["Infinity", "amount_not_number"],
  ];
  it.each(cases)("%j → %j", (raw, expected) => {
    const result = parsePoints(raw);
    if (typeof expected === "number") expect(result).toEqual({ ok: true, value: expected });
    else expect(result).toEqual({ ok: false, error: expected });
  });
});

describe("parseAdjustment", () => {
  const cases: [Record<string, unknown>, Record<string, string> | null][] = [
    [{ amount: "100", reason: "goodwill", detail: "" }, null],
    [{ amount: "100", reason: "other", detail: "手動補登" }, null],
    [{ amount: "100", reason: "other", detail: "  " }, { detail: "detail_required" }],
    [{ amount: "100", reason: "bribe", detail: "" }, { reason: "reason_invalid" }],
    [{ amount: "100", reason: undefined }, { reason: "reason_invalid" }],
    [{ amount: "100", reason: "correction", detail: "x".repeat(201) }, { detail: "detail_too_long" }],
    [
      { amount: "0", reason: "x", detail: "" },
      { amount: "amount_zero", reason: "reason_invalid" },
    ],
    [{ amount: ["1"], reason: "goodwill" }, { amount: "amount_required" }],
  ];
  it.each(cases)("%j → %j", (raw, errors) => {
    const result = parseAdjustment(raw);
    if (errors === null) expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, errors });
  });
});

describe("adjustmentNeedsApproval", () => {
  const cases: [Parameters<typeof adjustmentNeedsApproval>[0], number, number, boolean][] = [
    ["manager", 1_000, 1_000, false],
    ["manager", -1_000, 1_000, false],
    ["manager", 1_001, 1_000, true],
    ["manager", -1_001, 1_000, true],
    ["manager", 1, 0, true],
    ["admin", 1_000_000, 1_000, false],
    ["admin", -1_000_000, 0, false],
  ];
  it.each(cases)("%s adjusting %d with limit %d → %s", (role, points, limit, expected) => {
    expect(adjustmentNeedsApproval(role, points, limit)).toBe(expected);
  });
});
