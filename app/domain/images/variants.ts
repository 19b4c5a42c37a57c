import { VARIANT_WIDTHS } from "./limits";

/**
 * The widths to make of a picture `width` × `height` pixels (after its orientation is applied): the
 * standard widths below its own, and its own width (or the largest standard width) on top; never
 * larger than the picture. A width within 15% of the next larger one is left out (480 and 500 → 500).
 */
export function planVariantSizes(width: number, height: number): { width: number; height: number }[] {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) return [];
  const largest = Math.min(width, VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1] as number);
  const widths = [...VARIANT_WIDTHS.filter((w) => w < largest), largest];
  const kept = widths.filter((w, i) => {
    const next = widths[i + 1];
    return next === undefined || w < next * 0.85;
  });
  return kept.map((w) => ({ width: w, height: Math.max(1, Math.round((height * w) / width)) }));
}
