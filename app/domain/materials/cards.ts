import type { Locale } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import type { MaterialCard } from "./materials.server";

export type MaterialCardView = {
  id: string;
  categoryId: string;
  name: string;
  series: string;
  colour: string;
  swatch: string;
  image: { src: string; alt: string; width: number; height: number } | null;
};

export function materialCard(m: MaterialCard, locale: Locale): MaterialCardView {
  const image = m.images[0];
  return {
    id: m.id,
    categoryId: m.categoryId,
    name: pick(m.name, locale),
    series: pick(m.series, locale),
    colour: pick(m.colour, locale),
    swatch: m.swatch,
    image: image ? { src: image.src, alt: pick(image.alt, locale), width: image.width, height: image.height } : null,
  };
}
