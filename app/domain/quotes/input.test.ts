import { describe, expect, it } from "vitest";
import { catalogT } from "~/lib/i18n.server";
import { lineTotal, parseQuantity, parseQuoteRequest } from "./input";

/** The quote forms' rules (issue 37 part 4, ADR 047), pure. */
const t = catalogT("zh-TW");

describe("a quantity", () => {
  it.each([
    ["12.5", "m2", "12.50"],
    ["1,200", "m2", "1200.00"],
    ["3", "piece", "3.00"],
    ["3.00", "piece", "3.00"],
    ["100000", "m2", "100000.00"],
    ["0.01", "m2", "0.01"],
  ] as const)("%s %s is %s", (raw, unit, value) => {
    expect(parseQuantity(raw, unit)).toEqual({ ok: true, value });
  });

  it.each([
    ["", "m2", "required"],
    ["   ", "piece", "required"],
    ["0", "m2", "positive"],
    ["0.00", "piece", "positive"],
    ["-3", "m2", "positive"],
    ["2.5", "piece", "whole"],
    ["1.234", "m2", "number"],
    ["1e5", "m2", "number"],
    ["abc", "m2", "number"],
    ["100000.01", "m2", "max"],
    ["999999999", "piece", "max"],
    ["99999999999999999999", "m2", "number"],
  ] as const)("%j %s is refused (%s)", (raw, unit, problem) => {
    expect(parseQuantity(raw, unit)).toEqual({ ok: false, problem });
  });
});

describe("a line total", () => {
  it("rounds half up to whole NT$, exactly", () => {
    expect(lineTotal("12.50", 1299)).toBe(16238);
    expect(lineTotal("0.01", 49)).toBe(0);
    expect(lineTotal("0.01", 50)).toBe(1);
    expect(lineTotal("100000.00", 10_000_000)).toBe(1_000_000_000_000);
    expect(lineTotal("30.00", 0)).toBe(0);
  });
});

describe("the member's request form", () => {
  it("reads the ticked lines with their quantity, unit and note", () => {
    const parsed = parseQuoteRequest(
      {
        storeId: "xinyi-flagship",
        message: " 浴室 ",
        "pick.oak-floor": "on",
        "qty.oak-floor": "12.5",
        "unit.oak-floor": "m2",
        "note.oak-floor": "客廳",
        "qty.not-ticked": "-1",
      },
      t,
    );
    expect(parsed).toEqual({
      ok: true,
      data: {
        storeId: "xinyi-flagship",
        message: "浴室",
        lines: [{ materialId: "oak-floor", quantity: "12.50", unit: "m2", note: "客廳" }],
      },
    });
  });

  it("puts each problem beside its own field", () => {
    const parsed = parseQuoteRequest(
      {
        storeId: "",
        "pick.a": "on",
        "qty.a": "2.5",
        "unit.a": "piece",
        "pick.b": "on",
        "qty.b": "1",
        "unit.b": "litre",
        "pick.DROP TABLE": "on",
        message: "長".repeat(1001),
      },
      t,
    );
    expect(parsed.ok ? null : parsed.errors).toEqual({
      storeId: ["請選擇門市"],
      message: ["最多 1000 個字"],
      "qty.a": ["以片計算時請填整數"],
      "unit.b": ["請選擇單位"],
      lines: ["有建材已下架或不存在，請重新整理頁面後再選"],
    });
  });

  it("needs at least one line, at most 20", () => {
    expect(parseQuoteRequest({ storeId: "xinyi-flagship" }, t)).toEqual({
      ok: false,
      errors: { lines: ["請至少勾選一項建材"] },
    });
    const many: Record<string, string> = { storeId: "xinyi-flagship" };
    for (let i = 0; i < 21; i++)
      Object.assign(many, { [`pick.m${i}`]: "on", [`qty.m${i}`]: "1", [`unit.m${i}`]: "m2" });
    const parsed = parseQuoteRequest(many, t);
    expect(parsed.ok ? null : parsed.errors.lines).toEqual(["一張報價單最多 20 項建材"]);
  });
});
