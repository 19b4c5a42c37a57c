import { describe, expect, it } from "vitest";
import {
  CODE39_PATTERNS,
  Code39Error,
  code39Bars,
  code39Widths,
  decodeCode39Widths,
  isCode39Text,
  QUIET_ZONE,
} from "./code39";

/** Reference patterns from the standard's table (bar first; n narrow, w wide), written out by hand. */
const REFERENCE: Record<string, string> = {
  "*": "nwnnwnwnn",
  "0": "nnnwwnwnn",
  "1": "wnnwnnnnw",
  "7": "nnnwnnwnw",
  A: "wnnnnwnnw",
  K: "wnnnnnnww",
  U: "wwnnnnnnw",
  Z: "nwwnwnnnn",
  "-": "nwnnnnwnw",
  ".": "wwnnnnwnn",
  " ": "nwwnnnwnn",
  $: "nwnwnwnnn",
  "/": "nwnwnnnwn",
  "+": "nwnnnwnwn",
  "%": "nnnwnwnwn",
};

const widthsOf = (pattern: string) => [...pattern].map((e) => (e === "w" ? 3 : 1));

describe("Code 39", () => {
  it("has the 43 characters and the start/stop, each with 3 wide elements of 9, all different", () => {
    expect(CODE39_PATTERNS.size).toBe(44);
    for (const pattern of CODE39_PATTERNS.values()) {
      expect(pattern).toMatch(/^[nw]{9}$/);
      expect([...pattern].filter((e) => e === "w")).toHaveLength(3);
    }
    expect(new Set(CODE39_PATTERNS.values()).size).toBe(44);
    for (const [char, pattern] of Object.entries(REFERENCE)) expect(CODE39_PATTERNS.get(char), char).toBe(pattern);
  });

  it("encodes a carrier as start, its 8 characters and stop, a narrow gap between characters", () => {
    const widths = code39Widths("/ABC+123");
    expect(widths).toHaveLength(10 * 9 + 9);
    const expected = ["*", "/", "A", "B", "C", "+", "1", "2", "3", "*"].flatMap((c, i) => [
      ...(i > 0 ? [1] : []),
      ...widthsOf(CODE39_PATTERNS.get(c) as string),
    ]);
    expect(widths).toEqual(expected);
    expect(widths.slice(0, 9)).toEqual(widthsOf("nwnnwnwnn"));
    expect(widths.slice(10, 19)).toEqual(widthsOf("nwnwnnnwn"));
    // 10 characters of 15 modules plus 9 gaps, and the quiet zones.
    expect(code39Bars("/ABC+123").width).toBe(10 * 15 + 9 + 2 * QUIET_ZONE);
  });

  it("refuses characters outside the table, the start/stop inside the text and empty text", () => {
    for (const bad of ["/abc+123", "/ABC_123", "/ABC*123", "統編", "A\u0000B"]) {
      expect(isCode39Text(bad)).toBe(false);
      expect(() => code39Widths(bad)).toThrowError(Code39Error);
    }
    expect(() => code39Widths("")).toThrowError(/Nothing to encode/);
    expect(isCode39Text("/AB.-+09")).toBe(true);
  });

  it("decodes widths back, at any scale and with uneven edges, and refuses nonsense", () => {
    for (const text of ["/ABC+123", "/0.-+XYZ", "HELLO WORLD", "$%"]) {
      expect(decodeCode39Widths(code39Widths(text))).toBe(text);
      const blurred = code39Widths(text).map((w, i) => w * 2.4 + (i % 3) * 0.3 - 0.3);
      expect(decodeCode39Widths(blurred)).toBe(text);
    }
    expect(() => decodeCode39Widths(code39Widths("AB").slice(0, 20))).toThrowError(Code39Error);
    const noStop = code39Widths("AB").slice(0, 29);
    expect(() => decodeCode39Widths(noStop)).toThrowError(/start and stop/);
  });
});
