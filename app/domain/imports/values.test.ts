import { describe, expect, it } from "vitest";
import { cleanCell, parseDay, parseFlag, parseInstant, parsePoints } from "./values";

describe("import values", () => {
  it("cleans spreadsheet cells", () => {
    expect(cleanCell(' ="0912345678" ')).toBe("0912345678");
    expect(cleanCell("'0912345678")).toBe("0912345678");
    expect(cleanCell("\u3000１２３\u3000")).toBe("123");
    expect(cleanCell(undefined)).toBe("");
  });

  it("reads days and refuses impossible ones", () => {
    expect(parseDay("2024-02-29")).toBe("2024-02-29");
    expect(parseDay("2023-02-29")).toBeNull();
    expect(parseDay("113/2/29")).toBe("2024-02-29");
    expect(parseDay("1130229")).toBe("2024-02-29");
    expect(parseDay("2024-01-02T03:04:05Z")).toBe("2024-01-02");
    expect(parseDay("yesterday")).toBeNull();
    expect(parseDay("")).toBeNull();
  });

  it("reads instants with and without a zone (without: Taipei wall clock)", () => {
    expect(parseInstant("2024-01-02 03:04:05+08:00")).toBe("2024-01-01T19:04:05.000Z");
    expect(parseInstant("2024-01-02T03:04:05+0800")).toBe("2024-01-01T19:04:05.000Z");
    expect(parseInstant("2024-01-02 03:04")).toBe("2024-01-01T19:04:00.000Z");
    expect(parseInstant("1700000000")).toBe("2023-11-14T22:13:20.000Z");
    expect(parseInstant({ _seconds: 0, _nanoseconds: 0 })).toBe("1970-01-01T00:00:00.000Z");
    expect(parseInstant({ timestampValue: "2024-01-02T00:00:00Z" })).toBe("2024-01-02T00:00:00.000Z");
    expect(parseInstant("2024-01-02 25:00")).toBeNull();
    expect(parseInstant("soon")).toBeNull();
    expect(parseInstant({})).toBeNull();
  });

  it("reads flags and points", () => {
    expect(["Y", "是", "1", "true", "同意"].map((v) => parseFlag(v))).toEqual(Array(5).fill({ ok: true, value: true }));
    expect(["N", "否", "0", "false", "不同意"].map((v) => parseFlag(v))).toEqual(
      Array(5).fill({ ok: true, value: false }),
    );
    expect(parseFlag("maybe")).toEqual({ ok: false });
    expect(parseFlag("")).toBeNull();
    expect(parsePoints(12)).toEqual({ ok: true, value: 12 });
    expect(parsePoints(-1)).toEqual({ ok: false });
    expect(parsePoints("1,234,567")).toEqual({ ok: true, value: 1_234_567 });
  });
});
