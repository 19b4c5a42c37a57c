import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms.server";
import type { Translate } from "~/lib/i18n";
import {
  categorySchema,
  expectedVersion,
  LIMITS,
  materialFormValues,
  materialSchema,
  rowCount,
  withChoices,
} from "./editor";

/** The material and category forms (issue 14 item 2): required texts, limits, rows, plain text kept as typed. */

const t: Translate = (key, values) => (values ? `${key}:${JSON.stringify(values)}` : key);

/** The form as the console reads it (ADR 008): `parseForm` with the schema, the ticked boxes joined first. */
function parseMaterialForm(form: FormData, tr: Translate, options: { isNew: boolean }) {
  const parsed = parseForm(materialSchema(tr, options), withChoices(form));
  return parsed.ok ? parsed : { ok: false as const, errors: parsed.failure.errors };
}

function parseCategoryForm(form: FormData, tr: Translate, options: { isNew: boolean }) {
  const parsed = parseForm(categorySchema(tr, options), form);
  return parsed.ok ? parsed : { ok: false as const, errors: parsed.failure.errors };
}

function materialForm(overrides: Record<string, string> = {}): FormData {
  const fields: Record<string, string> = {
    id: "test-oak",
    categoryId: "wood",
    nameZh: "測試橡木",
    nameEn: "Test oak",
    seriesZh: "森林",
    seriesEn: "Forest",
    summaryZh: "溫潤的橡木地板",
    summaryEn: "A warm oak floor",
    sizes: "19 × 190 cm\n 19 × 150 cm \n\n",
    finishZh: "油蠟",
    finishEn: "Oiled",
    colourZh: "自然",
    colourEn: "Natural",
    swatch: "#C8A27A",
    originZh: "德國",
    originEn: "Germany",
    careZh: "以微濕拖把清潔",
    careEn: "Clean with a damp mop",
    spec0LabelZh: "厚度",
    spec0LabelEn: "Thickness",
    spec0ValueZh: "15 mm",
    spec0ValueEn: "15 mm",
    spec1LabelZh: "",
    spec1LabelEn: "",
    spec1ValueZh: "",
    spec1ValueEn: "",
    image0Src: "/media/wood/c8a27a-8b6a4a/3.svg",
    image0AltZh: "測試橡木：正面",
    image0AltEn: "Test oak: front view",
    image1Src: "",
    image1AltZh: "",
    image1AltEn: "",
    ...overrides,
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

describe("parseMaterialForm", () => {
  it("reads a complete form: trimmed sizes, filled rows only, the swatch in lower case", () => {
    const form = materialForm();
    form.append("stores", "xinyi-flagship");
    form.append("stores", "tainan");
    form.append("related", "alishan-oak-engineered");
    form.append("related", "test-oak");
    const parsed = parseMaterialForm(form, t, { isNew: true });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.data.sizes).toEqual(["19 × 190 cm", "19 × 150 cm"]);
    expect(parsed.data.swatch).toBe("#c8a27a");
    expect(parsed.data.specs).toEqual([
      {
        key: "custom-1",
        label: { "zh-TW": "厚度", en: "Thickness" },
        value: { "zh-TW": "15 mm", en: "15 mm" },
      },
    ]);
    expect(parsed.data.images).toHaveLength(1);
    expect(parsed.data.images[0]?.alt.en).toBe("Test oak: front view");
    expect(parsed.data.storeIds).toEqual(["xinyi-flagship", "tainan"]);
    // A material is never its own related material.
    expect(parsed.data.relatedIds).toEqual(["alishan-oak-engineered"]);
  });

  it("refuses missing texts in either language, beside each field", () => {
    const parsed = parseMaterialForm(materialForm({ nameEn: "", careZh: "   ", categoryId: "" }), t, { isNew: true });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.nameEn).toEqual(["console.materials.error.required"]);
    expect(parsed.errors.careZh).toEqual(["console.materials.error.required"]);
    expect(parsed.errors.categoryId).toEqual(["console.materials.error.required"]);
    expect(parsed.errors.nameZh).toBeUndefined();
  });

  it("refuses over-long texts with the limit in the message", () => {
    const parsed = parseMaterialForm(
      materialForm({ nameZh: "石".repeat(LIMITS.name + 1), spec0ValueEn: "x".repeat(LIMITS.specValue + 1) }),
      t,
      { isNew: true },
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.nameZh).toEqual([`console.materials.error.tooLong:{"max":${LIMITS.name}}`]);
    expect(parsed.errors.spec0ValueEn).toEqual([`console.materials.error.tooLong:{"max":${LIMITS.specValue}}`]);
  });

  it("keeps HTML and script as plain text (escaped where shown, never refused or rewritten)", () => {
    const parsed = parseMaterialForm(materialForm({ nameEn: "<script>alert(1)</script>" }), t, { isNew: true });
    expect(parsed.ok && parsed.data.name.en).toBe("<script>alert(1)</script>");
  });

  it("refuses a bad id, swatch, image path, a half-filled row and an image without alt text", () => {
    const parsed = parseMaterialForm(
      materialForm({
        id: "Bad Id",
        swatch: "red",
        image0Src: "https://elsewhere.example/x.png",
        image1Src: "/media/x.svg",
        spec1LabelZh: "硬度",
      }),
      t,
      { isNew: true },
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.id).toEqual(["console.materials.error.slug"]);
    expect(parsed.errors.swatch).toEqual(["console.materials.error.swatch"]);
    expect(parsed.errors.image0Src).toEqual(["console.materials.error.imageSrc"]);
    expect(parsed.errors.image1AltZh).toEqual(["console.materials.error.required"]);
    expect(parsed.errors.spec1LabelEn).toEqual(["console.materials.error.required"]);
    expect(parsed.errors.spec1ValueZh).toEqual(["console.materials.error.required"]);
  });

  it("refuses a protocol-relative image path (another site)", () => {
    const parsed = parseMaterialForm(materialForm({ image0Src: "//evil.example/x.svg" }), t, { isNew: true });
    expect(!parsed.ok && parsed.errors.image0Src).toEqual(["console.materials.error.imageSrc"]);
  });

  it("does not ask for the id when editing (it comes from the URL)", () => {
    expect(parseMaterialForm(materialForm({ id: "test-oak" }), t, { isNew: false }).ok).toBe(true);
  });
});

describe("materialFormValues", () => {
  it("gives seeded specification rows their catalog labels and counts the rows", () => {
    const values = materialFormValues(
      {
        id: "m",
        version: 3,
        categoryId: "tiles",
        name: { "zh-TW": "磚", en: "Tile" },
        series: { "zh-TW": "s", en: "s" },
        summary: { "zh-TW": "s", en: "s" },
        sizes: ["60 × 60 cm"],
        finish: { "zh-TW": "f", en: "f" },
        colour: { "zh-TW": "c", en: "c" },
        swatch: "#ffffff",
        origin: { "zh-TW": "o", en: "o" },
        care: { "zh-TW": "c", en: "c" },
        specs: [{ key: "thickness", value: { "zh-TW": "9 mm", en: "9 mm" } }],
        images: [],
        storeIds: ["a", "b"],
        relatedIds: [],
        featured: true,
      },
      (key, locale) => `${key}@${locale}`,
    );
    expect(values.spec0LabelZh).toBe("thickness@zh-TW");
    expect(values.spec0LabelEn).toBe("thickness@en");
    expect(values.stores).toBe("a,b");
    expect(values.version).toBe("3");
    expect(rowCount(values, "spec")).toBe(1);
    expect(rowCount(values, "image")).toBe(0);
  });
});

describe("parseCategoryForm and expectedVersion", () => {
  it("requires names, summary, image and both alt texts", () => {
    const form = new FormData();
    form.set("id", "stone-2");
    form.set("nameZh", "石材");
    const parsed = parseCategoryForm(form, t, { isNew: true });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(Object.keys(parsed.errors).sort()).toEqual(
      ["imageAltEn", "imageAltZh", "imageSrc", "nameEn", "summaryEn", "summaryZh"].sort(),
    );
  });

  it("reads the version the form was loaded with", () => {
    const form = new FormData();
    expect(expectedVersion(form)).toBeNull();
    form.set("version", "4");
    expect(expectedVersion(form)).toBe(4);
    form.set("version", "4.5");
    expect(expectedVersion(form)).toBeNull();
  });
});

/** "Has samples" per store (issue 37 part 3, ADR 046): ticked boxes among the stores that display the material. */
describe("the material's sample stores", () => {
  it("reads the ticked stores, and refuses a store with samples that does not display it, beside the boxes", () => {
    const form = materialForm();
    form.append("stores", "xinyi-flagship");
    form.append("stores", "tainan");
    form.append("samples", "xinyi-flagship");
    const parsed = parseMaterialForm(form, t, { isNew: true });
    expect(parsed.ok && parsed.data.sampleStoreIds).toEqual(["xinyi-flagship"]);
    const wrong = materialForm();
    wrong.append("stores", "tainan");
    wrong.append("samples", "xinyi-flagship");
    const refused = parseMaterialForm(wrong, t, { isNew: true });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.errors.samples).toEqual(["console.materials.samples.notDisplayed"]);
  });

  it("fills the boxes again from a stored material", () => {
    const values = materialFormValues(
      {
        id: "test-oak",
        categoryId: "wood",
        name: { "zh-TW": "橡木", en: "Oak" },
        series: { "zh-TW": "", en: "" },
        summary: { "zh-TW": "", en: "" },
        sizes: [],
        finish: { "zh-TW": "", en: "" },
        colour: { "zh-TW": "", en: "" },
        swatch: "#c8a27a",
        origin: { "zh-TW": "", en: "" },
        care: { "zh-TW": "", en: "" },
        specs: [],
        images: [],
        storeIds: ["tainan", "xinyi-flagship"],
        sampleStoreIds: ["xinyi-flagship"],
        relatedIds: [],
        featured: false,
        version: 3,
      },
      () => "",
    );
    expect(values.samples).toBe("xinyi-flagship");
  });
});
