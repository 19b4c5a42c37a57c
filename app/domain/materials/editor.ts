import type { CatalogImage, LocalizedText, MaterialSpec } from "@platform/db/schema";
import { z } from "zod";
import type { Translate } from "~/lib/i18n";
import { VersionConflict } from "../refusals";

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
  /** The stores (among those displaying it) that have samples to lend (issue 37 part 3, ADR 046). */
  sampleStoreIds: string[];
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

const trimmed = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};

function messages(t: Translate) {
  return {
    required: t("console.materials.error.required"),
    tooLong: (max: number) => t("console.materials.error.tooLong", { max }),
    tooMany: (max: number) => t("console.materials.error.tooMany", { max }),
  };
}

/** A field's text, trimmed (a missing field is empty). */
const str = () => z.string().default("").pipe(z.string().trim());
/** A required text of at most `max` characters. */
const text = (t: Translate, max: number) =>
  z
    .string()
    .default("")
    .pipe(z.string().trim().min(1, messages(t).required).max(max, messages(t).tooLong(max)));
const slugId = (t: Translate) =>
  z
    .string()
    .default("")
    .pipe(
      z
        .string()
        .trim()
        .min(1, messages(t).required)
        .max(64, messages(t).tooLong(64))
        .regex(SLUG, t("console.materials.error.slug")),
    );
const imageSrc = (t: Translate) =>
  z
    .string()
    .trim()
    .min(1, messages(t).required)
    .max(LIMITS.imageSrc, messages(t).tooLong(LIMITS.imageSrc))
    .regex(IMAGE_SRC, t("console.materials.error.imageSrc"));
const checkbox = () =>
  z
    .string()
    .default("")
    .transform((v) => v === "on");

/** Both languages of a text, as the fields `${field}Zh` and `${field}En`. */
function pair<F extends string>(field: F, schema: z.ZodType<string, unknown>) {
  return { [`${field}Zh`]: schema, [`${field}En`]: schema } as Record<`${F}Zh` | `${F}En`, typeof schema>;
}

const localized = <F extends string>(values: Record<`${F}Zh` | `${F}En`, string>, field: F): LocalizedText => ({
  "zh-TW": values[`${field}Zh`],
  en: values[`${field}En`],
});

/** Ticked ids (joined by commas, `withChoices`): valid slugs only, each once, at most `max`. */
const ids = (max: number) =>
  str().transform((v) => [...new Set(v.split(","))].filter((id) => SLUG.test(id) && id.length <= 64).slice(0, max));

type Row = { i: number; cells: Record<string, string> };

/** The numbered rows of a form (`spec0…`, `spec1…`) with their cells trimmed, up to twice `max` rows. */
function numberedRows(values: Record<string, unknown>, prefix: string, cells: readonly string[], max: number): Row[] {
  const found = new Set<number>();
  for (const key of Object.keys(values)) {
    const m = new RegExp(`^${prefix}(\\d{1,2})[A-Z]`).exec(key);
    if (m) found.add(Number(m[1]));
  }
  return [...found]
    .filter((i) => i < max * 2)
    .sort((a, b) => a - b)
    .map((i) => {
      const cell = (c: string) => [c, String(values[`${prefix}${i}${c}`] ?? "").trim()];
      return { i, cells: Object.fromEntries(cells.map(cell)) };
    })
    .filter((row) => Object.values(row.cells).some((v) => v !== ""));
}

const SPEC_CELLS = ["LabelZh", "LabelEn", "ValueZh", "ValueEn"] as const;
const IMAGE_CELLS = ["Src", "AltZh", "AltEn"] as const;

/** Checks one value with `schema`; its messages go beside `field`. */
function checkField(ctx: z.RefinementCtx, field: string, schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return;
  for (const message of new Set(result.error.issues.map((i) => i.message))) {
    ctx.addIssue({ code: "custom", path: [field], message });
  }
}

/**
 * The material form (ADR 008: read by `parseForm`, with `withChoices` joining the ticked boxes). The id is typed
 * only for a new material (an edit's comes from the URL). Rows of specifications and images that are left empty
 * are skipped; a filled row needs every cell.
 */
export function materialSchema(t: Translate, options: { isNew: boolean }) {
  const m = messages(t);
  return z
    .looseObject({
      id: options.isNew ? slugId(t) : str(),
      categoryId: str().pipe(z.string().min(1, m.required)),
      ...pair("name", text(t, LIMITS.name)),
      ...pair("series", text(t, LIMITS.series)),
      ...pair("summary", text(t, LIMITS.summary)),
      ...pair("finish", text(t, LIMITS.short)),
      ...pair("colour", text(t, LIMITS.short)),
      ...pair("origin", text(t, LIMITS.short)),
      ...pair("care", text(t, LIMITS.care)),
      swatch: str().pipe(z.string().regex(SWATCH, t("console.materials.error.swatch"))),
      sizes: str()
        .transform((v) =>
          v
            .split(/\r?\n/)
            .map((s) => s.trim())
            .filter(Boolean),
        )
        .check((ctx) => {
          const sizes = ctx.value;
          const message =
            sizes.length > LIMITS.sizes
              ? m.tooMany(LIMITS.sizes)
              : sizes.some((s) => s.length > LIMITS.size)
                ? m.tooLong(LIMITS.size)
                : null;
          if (message) ctx.issues.push({ code: "custom", message, input: sizes });
        }),
      stores: ids(LIMITS.stores),
      samples: ids(LIMITS.stores),
      related: ids(LIMITS.related + 1),
      featured: checkbox(),
    })
    .superRefine((values, ctx) => {
      const specs = numberedRows(values, "spec", SPEC_CELLS, LIMITS.specs);
      for (const { i, cells } of specs) {
        for (const cell of SPEC_CELLS) {
          const max = cell.startsWith("Label") ? LIMITS.specLabel : LIMITS.specValue;
          checkField(ctx, `spec${i}${cell}`, text(t, max), cells[cell]);
        }
      }
      if (specs.length > LIMITS.specs)
        ctx.addIssue({ code: "custom", path: ["specs"], message: m.tooMany(LIMITS.specs) });
      const images = numberedRows(values, "image", IMAGE_CELLS, LIMITS.images);
      for (const { i, cells } of images) {
        checkField(ctx, `image${i}Src`, imageSrc(t), cells.Src);
        checkField(ctx, `image${i}AltZh`, text(t, LIMITS.alt), cells.AltZh);
        checkField(ctx, `image${i}AltEn`, text(t, LIMITS.alt), cells.AltEn);
      }
      if (images.length > LIMITS.images) {
        ctx.addIssue({ code: "custom", path: ["images"], message: m.tooMany(LIMITS.images) });
      }
      if (values.samples.some((id) => !values.stores.includes(id))) {
        ctx.addIssue({ code: "custom", path: ["samples"], message: t("console.materials.samples.notDisplayed") });
      }
      if (values.related.filter((r) => r !== values.id).length > LIMITS.related) {
        ctx.addIssue({ code: "custom", path: ["related"], message: m.tooMany(LIMITS.related) });
      }
    })
    .transform((values): MaterialInput => {
      const specs = numberedRows(values, "spec", SPEC_CELLS, LIMITS.specs).map(({ i, cells }, n) => {
        const key = String(values[`spec${i}Key`] ?? "").trim();
        return {
          key: SLUG.test(key) || /^[a-zA-Z]+$/.test(key) ? key : `custom-${n + 1}`,
          label: { "zh-TW": cells.LabelZh ?? "", en: cells.LabelEn ?? "" },
          value: { "zh-TW": cells.ValueZh ?? "", en: cells.ValueEn ?? "" },
        };
      });
      const images = numberedRows(values, "image", IMAGE_CELLS, LIMITS.images).map(({ i, cells }) => {
        const size = (name: string, fallback: number) => {
          const n = Number(String(values[`image${i}${name}`] ?? "").trim());
          return Number.isInteger(n) && n > 0 && n <= 10_000 ? n : fallback;
        };
        const alt = { "zh-TW": cells.AltZh ?? "", en: cells.AltEn ?? "" };
        return { src: cells.Src ?? "", alt, width: size("Width", 800), height: size("Height", 600) };
      });
      return {
        id: values.id,
        categoryId: values.categoryId,
        name: localized(values, "name"),
        series: localized(values, "series"),
        summary: localized(values, "summary"),
        sizes: values.sizes,
        finish: localized(values, "finish"),
        colour: localized(values, "colour"),
        swatch: values.swatch.toLowerCase(),
        origin: localized(values, "origin"),
        care: localized(values, "care"),
        specs,
        images,
        storeIds: values.stores,
        sampleStoreIds: values.samples,
        relatedIds: values.related.filter((r) => r !== values.id),
        featured: values.featured,
      };
    });
}

/** The category form (ADR 008, read by `parseForm`); the id is typed only for a new category. */
export function categorySchema(t: Translate, options: { isNew: boolean }) {
  return z
    .object({
      id: options.isNew ? slugId(t) : str(),
      ...pair("name", text(t, LIMITS.name)),
      ...pair("summary", text(t, LIMITS.summary)),
      imageSrc: str().pipe(imageSrc(t)),
      ...pair("imageAlt", text(t, LIMITS.alt)),
      published: checkbox(),
    })
    .transform(
      (values): CategoryInput => ({
        id: values.id,
        name: localized(values, "name"),
        summary: localized(values, "summary"),
        image: { src: values.imageSrc, alt: localized(values, "imageAlt"), width: 800, height: 600 },
        published: values.published,
      }),
    );
}

/** The form with the ticked boxes (repeated names) joined by commas, as `parseForm` and the refilled form read them. */
export function withChoices(form: FormData): FormData {
  const joined = new FormData();
  for (const [key, value] of form) {
    if (key !== "stores" && key !== "related" && key !== "samples") joined.append(key, value);
  }
  joined.set("stores", form.getAll("stores").map(String).join(","));
  joined.set("samples", form.getAll("samples").map(String).join(","));
  joined.set("related", form.getAll("related").map(String).join(","));
  return joined;
}

/** The expected version sent back by an edit form (a hidden field); null when missing or malformed. */
export function expectedVersion(form: FormData): number | null {
  const n = Number(trimmed(form, "version"));
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** The version an edit form was loaded with; a form without one cannot be checked, so it is a conflict. */
export function requireVersion(form: FormData): number {
  const version = expectedVersion(form);
  if (version === null) throw new VersionConflict("materials", null);
  return version;
}

/** A stored category as the form's values (the names the form posts). */
export function categoryFormValues(c: Omit<CategoryInput, "id">): Record<string, string> {
  return {
    nameZh: c.name["zh-TW"],
    nameEn: c.name.en,
    summaryZh: c.summary["zh-TW"],
    summaryEn: c.summary.en,
    imageSrc: c.image.src,
    imageAltZh: c.image.alt["zh-TW"],
    imageAltEn: c.image.alt.en,
    published: c.published ? "on" : "",
  };
}

type EditableMaterial = Omit<MaterialInput, "storeIds" | "sampleStoreIds"> & {
  storeIds: string[];
  sampleStoreIds?: string[];
  version: number;
};

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
    samples: (m.sampleStoreIds ?? []).join(","),
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
