import { describe, expect, it } from "vitest";
import { SEED_STORES, STORE_FACADES, storePhotos } from "../stores";
import { FACADE_STYLES, facade, facadeSeed, gallery } from "./architecture";
import { parseMediaPath, renderTexture } from "./textures";

describe("showroom architecture", () => {
  it("gives every store its own building for the store card, coloured from its palette", () => {
    const covers = SEED_STORES.map((s) => storePhotos(s)[0]?.src);
    expect(covers.every((src) => src?.startsWith("/media/facade/"))).toBe(true);
    expect(new Set(covers).size).toBe(SEED_STORES.length);
    // Not just different colours: no two stores share a building (style and variant).
    const buildings = SEED_STORES.map((s) => STORE_FACADES[s.id]?.join(":"));
    expect(buildings.every(Boolean)).toBe(true);
    expect(new Set(buildings).size).toBe(SEED_STORES.length);
  });

  it("draws the featured stores (the home page's three) in three different styles", () => {
    const styles = SEED_STORES.filter((s) => s.featured).map((s) => STORE_FACADES[s.id]?.[0]);
    expect(new Set(styles).size).toBe(styles.length);
  });

  it("renders every style as a well-formed SVG served by the media route", () => {
    const palette = ["#ece5da", "#a27150", "#7d5236", "#d8d2c8"];
    const drawings = FACADE_STYLES.flatMap((style) =>
      [0, 1].map((variant) => facade(palette, facadeSeed(style, variant))),
    );
    expect(new Set(drawings).size).toBe(FACADE_STYLES.length * 2);
    for (const drawing of [...drawings, gallery(palette, 1)]) {
      expect(drawing).toMatch(/^<svg [^>]*viewBox="0 0 800 600"/);
      expect(drawing).not.toMatch(/NaN|undefined/);
      expect(drawing.match(/<(\w+)[\s>]/g)?.length).toBeGreaterThan(20);
    }
    const spec = parseMediaPath("facade", "ece5da-a27150-7d5236-d8d2c8", `${facadeSeed("arcade", 1)}.svg`);
    expect(spec).not.toBeNull();
    expect(renderTexture(spec!)).toBe(facade(palette, facadeSeed("arcade", 1)));
  });
});
