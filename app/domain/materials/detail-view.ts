import type { LocalizedText, MaterialSpec } from "@platform/db/schema";
import type { Locale, MessageKey, Translate } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import { type MaterialCardView, materialCard } from "./cards";
import type { MaterialCard, MaterialRow } from "./materials.server";

/**
 * What the material detail page shows, in one language: built from the stored row by the public page and
 * from the unsaved form by the console's preview (ADR 033), so both render the very same component.
 */
export type MaterialDetailView = {
  material: {
    id: string;
    name: string;
    series: string;
    summary: string;
    sizes: string[];
    finish: string;
    colour: string;
    swatch: string;
    origin: string;
    care: string;
    specs: { key: string; label: string; value: string }[];
  };
  category: { id: string; name: string };
  images: { src: string; alt: string; width: number; height: number }[];
  stores: { id: string; name: string; city: string; district: string; address: string; phone: string }[];
  related: MaterialCardView[];
};

type StoreRow = {
  id: string;
  name: LocalizedText;
  city: string;
  district: LocalizedText;
  address: LocalizedText;
  phone: string;
};

/** A specification's label: its own (written in the console) or the catalog's name for its key. */
export function specLabel(spec: MaterialSpec, locale: Locale, t: Translate): string {
  return spec.label ? pick(spec.label, locale) : t(`catalog.spec.${spec.key}` as MessageKey);
}

export function materialDetailView(
  found: {
    material: Pick<
      MaterialRow,
      | "id"
      | "name"
      | "series"
      | "summary"
      | "sizes"
      | "finish"
      | "colour"
      | "swatch"
      | "origin"
      | "care"
      | "specs"
      | "images"
    >;
    category: { id: string; name: LocalizedText };
    stores: StoreRow[];
    related: MaterialCard[];
  },
  locale: Locale,
  t: Translate,
): MaterialDetailView {
  const { material: m, category } = found;
  return {
    material: {
      id: m.id,
      name: pick(m.name, locale),
      series: pick(m.series, locale),
      summary: pick(m.summary, locale),
      sizes: m.sizes,
      finish: pick(m.finish, locale),
      colour: pick(m.colour, locale),
      swatch: m.swatch,
      origin: pick(m.origin, locale),
      care: pick(m.care, locale),
      specs: m.specs.map((s) => ({ key: s.key, label: specLabel(s, locale, t), value: pick(s.value, locale) })),
    },
    category: { id: category.id, name: pick(category.name, locale) },
    images: m.images.map((i) => ({ src: i.src, alt: pick(i.alt, locale), width: i.width, height: i.height })),
    stores: found.stores.map((s) => ({
      id: s.id,
      name: pick(s.name, locale),
      city: s.city,
      district: pick(s.district, locale),
      address: pick(s.address, locale),
      phone: s.phone,
    })),
    related: found.related.map((r) => materialCard(r, locale)),
  };
}
