import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { heat } from "./cohorts";

/** The theme's colours as app.css declares them (`--color-<name>: #rrggbb`). */
const css = readFileSync(new URL("../../../app.css", import.meta.url), "utf8");
const colours = new Map([...css.matchAll(/--color-([a-z0-9-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1], m[2]]));
colours.set("white", "#ffffff");

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe("cohort heat map", () => {
  // The review found white on brand-500 (4.18:1) in a cell of the dashboard's cohort table.
  it.each([null, 0, 0.05, 0.1, 0.25, 0.4, 0.5, 0.9, 1])("a share of %s keeps AA contrast (4.5:1)", (share) => {
    const classes = heat(share).split(" ");
    const bg = classes.find((c) => c.startsWith("bg-"))?.slice(3) ?? "paper";
    const fg = classes.find((c) => c.startsWith("text-"))?.slice(5) ?? "ink";
    const [back, text] = [colours.get(bg), colours.get(fg)];
    expect(back, bg).toBeDefined();
    expect(text, fg).toBeDefined();
    expect(contrast(back ?? "", text ?? "")).toBeGreaterThanOrEqual(4.5);
  });

  it("a brand-500 cell with white text would fail (the check can fail)", () => {
    expect(contrast(colours.get("brand-500") ?? "", "#ffffff")).toBeLessThan(4.5);
  });
});
