import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { decodeCode39Widths, QUIET_ZONE } from "~/domain/einvoice/code39";
import { Code39Barcode } from "./code39-barcode";

/** The counter's barcode (ADR 041): the SVG's rectangles read back through the encoder's own table. */
describe("Code39Barcode", () => {
  it("draws an SVG whose bars read back as the carrier, with white quiet zones on both sides", () => {
    const svg = renderToStaticMarkup(createElement(Code39Barcode, { text: "/ABC+123", label: "手機條碼" }));
    expect(svg).toContain('aria-label="手機條碼"');
    const bars = [...svg.matchAll(/<rect x="(\d+)" y="0" width="(\d+)"/g)].map((m) => ({
      x: Number(m[1]),
      width: Number(m[2]),
    }));
    expect(bars).toHaveLength(50);
    const total = Number(/viewBox="0 0 (\d+) /.exec(svg)?.[1]);
    expect(bars[0]?.x).toBe(QUIET_ZONE);
    const last = bars[bars.length - 1] as { x: number; width: number };
    expect(total - (last.x + last.width)).toBe(QUIET_ZONE);
    // Bar, space, bar, … from the rectangles alone.
    const widths: number[] = [];
    bars.forEach((bar, i) => {
      if (i > 0) {
        const previous = bars[i - 1] as { x: number; width: number };
        widths.push(bar.x - (previous.x + previous.width));
      }
      widths.push(bar.width);
    });
    expect(decodeCode39Widths(widths)).toBe("/ABC+123");
  });
});
