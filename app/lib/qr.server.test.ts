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
    expect(svg.length).toBeLessThan(6000);
    // The finder pattern's top row starts in the quiet zone's corner: a run of 7 dark modules.
    expect(svg).toContain("M2 2h7v1h-7z");
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
