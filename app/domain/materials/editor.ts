import type { CatalogImage, LocalizedText, MaterialSpec } from "@platform/db/schema";
import { z } from "zod";
import type { Translate } from "~/lib/i18n";

/**
 * The material and category forms of the console (issue 14 item 2): what may be typed, checked on the
 * server. Texts are plain text: `<script>` is stored as typed and escaped wherever it is shown (React,
 * the JSON-LD writer), never interpreted. Every text has a length limit; both languages are required.
 *
 * Repeated rows (specifications, images) are numbered fields (`spec0LabelZh`, `image1Src`), so a refused
 * form comes back with every row as typed (the form values are one value per name).
 */

export const LIMITS = {
  name: 80,
  series: 80,
  summary: 400,
  short: 60,
  care: 1000,
  size: 40,
  sizes: 12,
  specLabel: 40,
  specValue: 120,
  specs: 20,
  imageSrc: 300,
  alt: 200,
  images: 8,
  related: 8,
  stores: 100,
} as const;

/** Rows the form offers beyond those already filled (no client script is needed to add one). */
export const SPARE_SPEC_ROWS = 3;
export const SPARE_IMAGE_ROWS = 1;

/** A slug id (the URL of the public page): lower-case letters, digits and single dashes. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A same-origin picture: the generated ones under /media (an uploaded file's path later, ADR 028). */
export const IMAGE_SRC = /^\/(?!\/)[A-Za-z0-9._~\-/]+$/;
const SWATCH = /^#[0-9a-fA-F]{6}$/;

export type MaterialInput = {
  id: string;
  categoryId: string;
  name: LocalizedText;
  series: LocalizedText;
  summary: LocalizedText;
  sizes: string[];
  finish: LocalizedText;
  colour: LocalizedText;
  swatch: string;
  origin: LocalizedText;
  care: LocalizedText;
  specs: MaterialSpec[];
  images: CatalogImage[];
  storeIds: string[];
  relatedIds: string[];
  featured: boolean;
};

export type CategoryInput = {
  id: string;
  name: LocalizedText;
  summary: LocalizedText;
  image: CatalogImage;
  published: boolean;
};

export type Parsed<T> = { ok: true; data: T } | { ok: false; errors: Record<string, string[]> };

const str = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};

function messages(t: Translate) {
  return {
    required: t("console.materials.error.required"),
    tooLong: (max: number) => t("console.materials.error.tooLong", { max }),
  };
}

function text(t: Translate, max: number) {
  const m = messages(t);
  return z.string().min(1, m.required).max(max, m.tooLong(max));
}

/** Collects the issues of one safeParse under the given field name. */
function check(errors: Record<string, string[]>, field: string, schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  errors[field] = [...new Set(result.error.issues.map((i) => i.message))];
  return undefined;
}

function localized(
  form: FormData,
  errors: Record<string, string[]>,
  field: string,
  schema: z.ZodType<string>,
): LocalizedText {
  const zh = check(errors, `${field}Zh`, schema, str(form, `${field}Zh`)) as string | undefined;
  const en = check(errors, `${field}En`, schema, str(form, `${field}En`)) as string | undefined;
  return { "zh-TW": zh ?? "", en: en ?? "" };
}

/** The numbered rows present in a form (`spec0…`, `spec1…`): indexes up to `max`. */
function rowIndexes(form: FormData, prefix: string, max: number): number[] {
  const found = new Set<number>();
  for (const key of form.keys()) {
    const m = new RegExp(`^${prefix}(\\d{1,2})[A-Z]`).exec(key);
    if (m) found.add(Number(m[1]));
  }
  return [...found].filter((i) => i < max * 2).sort((a, b) => a - b);
}

function ids(form: FormData, name: string, max: number): string[] {
  return [...new Set(form.getAll(name).map(String))].filter((id) => SLUG.test(id) && id.length <= 64).slice(0, max);
}

export function parseMaterialForm(form: FormData, t: Translate, options: { isNew: boolean }): Parsed<MaterialInput> {
  const m = messages(t);
  const errors: Record<string, string[]> = {};
  const id = options.isNew
    ? (check(
        errors,
        "id",
        z.string().min(1, m.required).max(64, m.tooLong(64)).regex(SLUG, t("console.materials.error.slug")),
        str(form, "id"),
      ) as string | undefined)
    : str(form, "id");
  const categoryId = check(errors, "categoryId", z.string().min(1, m.required), str(form, "categoryId")) as
    | string
    | undefined;
  const name = localized(form, errors, "name", text(t, LIMITS.name));
  const series = localized(form, errors, "series", text(t, LIMITS.series));
  const summary = localized(form, errors, "summary", text(t, LIMITS.summary));
  const finish = localized(form, errors, "finish", text(t, LIMITS.short));
  const colour = localized(form, errors, "colour", text(t, LIMITS.short));
  const origin = localized(form, errors, "origin", text(t, LIMITS.short));
  const care = localized(form, errors, "care", text(t, LIMITS.care));
  const swatch = check(
    errors,
    "swatch",
    z.string().regex(SWATCH, t("console.materials.error.swatch")),
    str(form, "swatch"),
  ) as string | undefined;

  const sizes = str(form, "sizes")
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (sizes.length > LIMITS.sizes) errors.sizes = [t("console.materials.error.tooMany", { max: LIMITS.sizes })];
  else if (sizes.some((s) => s.length > LIMITS.size)) errors.sizes = [m.tooLong(LIMITS.size)];

  const specs: MaterialSpec[] = [];
  for (const i of rowIndexes(form, "spec", LIMITS.specs)) {
    const cells = ["LabelZh", "LabelEn", "ValueZh", "ValueEn"].map((c) => str(form, `spec${i}${c}`));
    if (cells.every((c) => c === "")) continue;
    const [labelZh = "", labelEn = "", valueZh = "", valueEn = ""] = cells;
    const row = [
      [`spec${i}LabelZh`, labelZh, LIMITS.specLabel],
      [`spec${i}LabelEn`, labelEn, LIMITS.specLabel],
      [`spec${i}ValueZh`, valueZh, LIMITS.specValue],
      [`spec${i}ValueEn`, valueEn, LIMITS.specValue],
    ] as const;
    for (const [field, value, max] of row) check(errors, field, text(t, max), value);
    const key = str(form, `spec${i}Key`);
    specs.push({
      key: SLUG.test(key) || /^[a-zA-Z]+$/.test(key) ? key : `custom-${specs.length + 1}`,
      label: { "zh-TW": labelZh, en: labelEn },
      value: { "zh-TW": valueZh, en: valueEn },
    });
  }
  if (specs.length > LIMITS.specs) errors.specs = [t("console.materials.error.tooMany", { max: LIMITS.specs })];

  const images: CatalogImage[] = [];
  for (const i of rowIndexes(form, "image", LIMITS.images)) {
    const src = str(form, `image${i}Src`);
    const altZh = str(form, `image${i}AltZh`);
    const altEn = str(form, `image${i}AltEn`);
    if (!src && !altZh && !altEn) continue;
    check(
      errors,
      `image${i}Src`,
      z
        .string()
        .min(1, m.required)
        .max(LIMITS.imageSrc, m.tooLong(LIMITS.imageSrc))
        .regex(IMAGE_SRC, t("console.materials.error.imageSrc")),
      src,
    );
    check(errors, `image${i}AltZh`, text(t, LIMITS.alt), altZh);
    check(errors, `image${i}AltEn`, text(t, LIMITS.alt), altEn);
    const size = (name: string, fallback: number) => {
      const n = Number(str(form, `image${i}${name}`));
      return Number.isInteger(n) && n > 0 && n <= 10_000 ? n : fallback;
    };
    images.push({ src, alt: { "zh-TW": altZh, en: altEn }, width: size("Width", 800), height: size("Height", 600) });
  }
  if (images.length > LIMITS.images) errors.images = [t("console.materials.error.tooMany", { max: LIMITS.images })];

  const relatedIds = ids(form, "related", LIMITS.related + 1).filter((r) => r !== id);
  if (relatedIds.length > LIMITS.related) {
    errors.related = [t("console.materials.error.tooMany", { max: LIMITS.related })];
  }

  if (Object.keys(errors).length > 0 || !id || !categoryId || !swatch) return { ok: false, errors };
  return {
    ok: true,
    data: {
      id,
      categoryId,
      name,
      series,
      summary,
      sizes,
      finish,
      colour,
      swatch: swatch.toLowerCase(),
      origin,
      care,
      specs,
      images,
      storeIds: ids(form, "stores", LIMITS.stores),
      relatedIds,
      featured: form.get("featured") === "on",
    },
  };
}

export function parseCategoryForm(form: FormData, t: Translate, options: { isNew: boolean }): Parsed<CategoryInput> {
  const m = messages(t);
  const errors: Record<string, string[]> = {};
  const id = options.isNew
    ? (check(
        errors,
        "id",
        z.string().min(1, m.required).max(64, m.tooLong(64)).regex(SLUG, t("console.materials.error.slug")),
        str(form, "id"),
      ) as string | undefined)
    : str(form, "id");
  const name = localized(form, errors, "name", text(t, LIMITS.name));
  const summary = localized(form, errors, "summary", text(t, LIMITS.summary));
  const src = check(
    errors,
    "imageSrc",
    z
      .string()
      .min(1, m.required)
      .max(LIMITS.imageSrc, m.tooLong(LIMITS.imageSrc))
      .regex(IMAGE_SRC, t("console.materials.error.imageSrc")),
    str(form, "imageSrc"),
  ) as string | undefined;
  const alt = localized(form, errors, "imageAlt", text(t, LIMITS.alt));
  if (Object.keys(errors).length > 0 || !id || !src) return { ok: false, errors };
  return {
    ok: true,
    data: {
      id,
      name,
      summary,
      image: { src, alt, width: 800, height: 600 },
      published: form.get("published") === "on",
    },
  };
}

/** The expected version sent back by an edit form (a hidden field); null when missing or malformed. */
export function expectedVersion(form: FormData): number | null {
  const n = Number(str(form, "version"));
  return Number.isInteger(n) && n > 0 ? n : null;
}

type EditableMaterial = Omit<MaterialInput, "storeIds"> & { storeIds: string[]; version: number };

/**
 * A stored material as the form's values (the same names the form posts). A seeded specification row has
 * no label of its own: `labelOf` gives its catalog name per language, written into the row on the next save.
 */
export function materialFormValues(
  m: EditableMaterial,
  labelOf: (key: string, locale: "zh-TW" | "en") => string,
): Record<string, string> {
  const values: Record<string, string> = {
    id: m.id,
    version: String(m.version),
    categoryId: m.categoryId,
    sizes: m.sizes.join("\n"),
    swatch: m.swatch,
    stores: m.storeIds.join(","),
    related: m.relatedIds.join(","),
    featured: m.featured ? "on" : "",
  };
  for (const field of ["name", "series", "summary", "finish", "colour", "origin", "care"] as const) {
    values[`${field}Zh`] = m[field]["zh-TW"];
    values[`${field}En`] = m[field].en;
  }
  m.specs.forEach((s, i) => {
    values[`spec${i}Key`] = s.key;
    values[`spec${i}LabelZh`] = s.label?.["zh-TW"] ?? labelOf(s.key, "zh-TW");
    values[`spec${i}LabelEn`] = s.label?.en ?? labelOf(s.key, "en");
    values[`spec${i}ValueZh`] = s.value["zh-TW"];
    values[`spec${i}ValueEn`] = s.value.en;
  });
  m.images.forEach((image, i) => {
    values[`image${i}Src`] = image.src;
    values[`image${i}AltZh`] = image.alt["zh-TW"];
    values[`image${i}AltEn`] = image.alt.en;
    values[`image${i}Width`] = String(image.width);
    values[`image${i}Height`] = String(image.height);
  });
  return values;
}

/** How many numbered rows a form's values hold (`spec0…`, `spec3…` → 4). */
export function rowCount(values: Record<string, string>, prefix: "spec" | "image"): number {
  let count = 0;
  const pattern = new RegExp(`^${prefix}(\\d{1,2})[A-Z]`);
  for (const [key, value] of Object.entries(values)) {
    const m = pattern.exec(key);
    if (m && value.trim() !== "") count = Math.max(count, Number(m[1]) + 1);
  }
  return count;
}

/** The values of a submitted form, the ticked boxes (repeated names) joined by commas. */
export function submittedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value === "string" && key !== "stores" && key !== "related") values[key] = value;
  }
  values.stores = form.getAll("stores").map(String).join(",");
  values.related = form.getAll("related").map(String).join(",");
  return values;
}
