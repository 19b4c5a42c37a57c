import { encode } from "uqr";
import { describe, expect, it, vi } from "vitest";
import { qrSvg } from "./qr.server";

vi.mock("uqr", async (importOriginal) => {
  const real = await importOriginal<typeof import("uqr")>();
  return { ...real, encode: vi.fn(real.encode) };
});

describe("qrSvg", () => {
  it("draws a card token as one small path inside its quiet zone", () => {
    const svg = qrSvg("KnxuJPVESCmOyfDk_oe-g2sCzlc.9mwH9tlkJpcrgGXLwA2bRg");
    // 50 characters at error correction M: version 4 (33 modules) plus 2 modules of border each side.
    expect(svg).toContain('viewBox="0 0 37 37"');
    expect(svg.match(/<path /g)).toHaveLength(1);
    expect(svg.length).toBeLessThan(2000);
    // The finder pattern's top row starts in the quiet zone's corner: a run of 7 dark modules.
    expect(svg).toContain("M2 2.5h7");
  });

  it("draws exactly the dark modules of the code, and nothing in the quiet zone", () => {
    for (const text of ["KnxuJPVESCmOyfDk_oe-g2sCzlc.9mwH9tlkJpcrgGXLwA2bRg", "HL-0000-0001", "x".repeat(120)]) {
      const { size, data } = encode(text, { ecc: "M", border: 0 });
      const d = qrSvg(text).match(/ d="([^"]+)"/)?.[1] ?? "";
      const drawn = Array.from({ length: size + 4 }, () => Array<boolean>(size + 4).fill(false));
      // Replay the path: M x y.5 starts a row, m dx 0 moves along it, h n draws n modules.
      let x = 0;
      let y = 0;
      for (const [, op, a, b] of d.matchAll(/([MmHh])(-?\d+(?:\.5)?)(?: (-?\d+(?:\.5)?))?/g)) {
        if (op === "M") [x, y] = [Number(a), Number(b) - 0.5];
        else if (op === "m") x += Number(a);
        else for (let i = 0; i < Number(a); i++) (drawn[y] as boolean[])[x++] = true;
      }
      const expected = Array.from({ length: size + 4 }, (_, row) =>
        Array.from({ length: size + 4 }, (_, col) => Boolean(data[row - 2]?.[col - 2])),
      );
      expect(drawn, text).toEqual(expected);
    }
  });

  it("changes with the text and stays decorative for assistive technology (the wrapper is labelled)", () => {
    const a = qrSvg("A".repeat(26));
    expect(a).not.toBe(qrSvg("B".repeat(26)));
    expect(a).toContain('aria-hidden="true"');
  });

  it("encodes a repeated text once, and again after it has been evicted", () => {
    const encoded = vi.mocked(encode);
    encoded.mockClear();
    const first = qrSvg("HL-cache-check-1");
    expect(qrSvg("HL-cache-check-1")).toBe(first);
    expect(encoded).toHaveBeenCalledTimes(1);
    // Another quiet zone is another picture, not the cached one.
    expect(qrSvg("HL-cache-check-1", { border: 4 })).not.toBe(first);
    expect(encoded).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 600; i++) qrSvg(`HL-cache-fill-${i}`);
    encoded.mockClear();
    expect(qrSvg("HL-cache-check-1")).toBe(first);
    expect(encoded).toHaveBeenCalledTimes(1);
  });
});
