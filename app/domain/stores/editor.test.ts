import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms.server";
import type { Translate } from "~/lib/i18n";
import { districtByPostalCode, parseRanges, STORE_DISTRICTS, storeFormSchema, withLists } from "./editor";

/** The messages as their code and parameters (the last part of the key), to assert on the rule, not the words. */
const t = ((key: string, params?: Record<string, string | number>) =>
  JSON.stringify({ code: key.split(".").pop(), params })) as Translate;

/** The form run as the routes run it: `parseForm` with the schema, repeated fields joined. */
function parseStoreForm(form: FormData, today: string, options: { requireId?: boolean } = {}) {
  const parsed = parseForm(storeFormSchema(t, today, options), withLists(form));
  if (parsed.ok) return { ok: true as const, ...parsed.data };
  const errors = Object.entries(parsed.failure.errors).map(([field, list]) => [field, list.map((m) => JSON.parse(m))]);
  return { ok: false as const, errors: Object.fromEntries(errors) as Record<string, { code: string }[]> };
}

function validForm(overrides: Record<string, string> = {}): FormData {
  const form = new FormData();
  const fields: Record<string, string> = {
    id: "new-store",
    nameZh: "新門市",
    nameEn: "New store",
    summaryZh: "介紹",
    summaryEn: "About",
    postalCode: "110",
    addressZh: "松仁路 1 號",
    addressEn: "No. 1, Songren Rd.",
    phone: "02-2723-0101",
    email: "new@han-living.example",
    latitude: "25.033",
    longitude: "121.5654",
    hours0: "",
    hours1: "10:30–13:00, 14:00–21:00",
    hours2: "10:30-21:00",
    hours3: "10:30~21:00",
    hours4: "10:30–21:00",
    hours5: "10:30–21:00",
    hours6: "09:00–24:00",
    ex0Date: "2026-12-25",
    ex0Hours: "",
    ex0NoteZh: "聖誕節",
    ex0NoteEn: "Christmas",
    ...overrides,
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

const TODAY = "2026-11-25";

describe("opening ranges", () => {
  it("reads several ranges a day in any common spelling, sorted; empty is closed", () => {
    expect(parseRanges("14:00-21:00, 9:30～12:00")).toEqual({
      ok: true,
      intervals: [
        { open: "09:30", close: "12:00" },
        { open: "14:00", close: "21:00" },
      ],
    });
    expect(parseRanges("  ")).toEqual({ ok: true, intervals: [] });
  });

  it("refuses a range that ends before (or when) it starts, overlapping ranges and nonsense", () => {
    expect(parseRanges("21:00–10:00")).toMatchObject({ ok: false, error: { code: "rangeBackwards" } });
    expect(parseRanges("10:00–10:00")).toMatchObject({ ok: false, error: { code: "rangeBackwards" } });
    expect(parseRanges("10:00–14:00, 13:00–18:00")).toMatchObject({ ok: false, error: { code: "rangeOverlap" } });
    expect(parseRanges("25:00–26:00")).toMatchObject({ ok: false, error: { code: "rangeFormat" } });
    expect(parseRanges("<script>")).toMatchObject({ ok: false, error: { code: "rangeFormat" } });
    expect(parseRanges("1:00-2:00,3:00-4:00,5:00-6:00,7:00-8:00,9:00-10:00")).toMatchObject({
      ok: false,
      error: { code: "tooManyRanges" },
    });
    // Ranges that touch do not overlap.
    expect(parseRanges("10:00–13:00, 13:00–18:00").ok).toBe(true);
  });
});

describe("the store form", () => {
  it("gives the content: district and city from the postal code, hours per weekday, the exception", () => {
    const parsed = parseStoreForm(validForm(), TODAY, { requireId: true });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.id).toBe("new-store");
    expect(parsed.content.city).toBe("taipei");
    expect(parsed.content.district).toEqual({ "zh-TW": "信義區", en: "Xinyi District" });
    expect(parsed.content.weeklyHours[0]).toEqual([]);
    expect(parsed.content.weeklyHours[1]).toHaveLength(2);
    expect(parsed.content.weeklyHours[6]).toEqual([{ open: "09:00", close: "24:00" }]);
    expect(parsed.content.exceptions).toEqual([
      { date: "2026-12-25", intervals: [], note: { "zh-TW": "聖誕節", en: "Christmas" } },
    ]);
  });

  it("refuses missing required texts, over-long texts and a bad id, each beside its field", () => {
    const parsed = parseStoreForm(
      validForm({ nameZh: "", summaryEn: "x".repeat(301), id: "Not A Slug", addressEn: "  " }),
      TODAY,
      { requireId: true },
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.nameZh).toEqual([{ code: "required" }]);
    expect(parsed.errors.summaryEn).toEqual([{ code: "tooLong", params: { max: 300 } }]);
    expect(parsed.errors.addressEn).toEqual([{ code: "required" }]);
    expect(parsed.errors.id).toEqual([{ code: "slug" }]);
  });

  it("keeps HTML in texts as text (escaping is the page's job)", () => {
    const parsed = parseStoreForm(validForm({ nameEn: '<script>alert("x")</script>' }), TODAY);
    expect(parsed.ok && parsed.content.name.en).toBe('<script>alert("x")</script>');
  });

  it("refuses coordinates outside Taiwan or not numbers, and an unknown district", () => {
    const parsed = parseStoreForm(validForm({ latitude: "48.85", longitude: "abc", postalCode: "999" }), TODAY);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.latitude?.[0]?.code).toBe("taiwanBounds");
    expect(parsed.errors.longitude?.[0]?.code).toBe("number");
    expect(parsed.errors.postalCode?.[0]?.code).toBe("district");
  });

  it("refuses hours that end before they start or overlap, per weekday", () => {
    const parsed = parseStoreForm(validForm({ hours2: "21:00–10:30", hours3: "10:00–14:00, 12:00–20:00" }), TODAY);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.hours2?.[0]?.code).toBe("rangeBackwards");
    expect(parsed.errors.hours3?.[0]?.code).toBe("rangeOverlap");
  });

  it("refuses an exception on a past date, a duplicate date and a note in one language only", () => {
    const parsed = parseStoreForm(
      validForm({
        ex0Date: "2026-11-24",
        ex1Date: "2026-12-31",
        ex1NoteZh: "跨年",
        ex2Date: "2026-12-31",
        ex2Hours: "10:00–15:00",
      }),
      TODAY,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.ex0Date?.[0]?.code).toBe("pastDate");
    expect(parsed.errors.ex1NoteEn?.[0]?.code).toBe("bothLanguages");
    // Row 1 was refused, so row 2 is the first for that date and stands.
    expect(parsed.errors.ex2Date).toBeUndefined();
  });

  it("drops exception rows marked for deletion and blank rows; today itself is allowed", () => {
    const parsed = parseStoreForm(
      validForm({ ex0Remove: "on", ex1Date: TODAY, ex1Hours: "12:00–18:00", ex2Date: "" }),
      TODAY,
    );
    expect(parsed.ok && parsed.content.exceptions.map((e) => e.date)).toEqual([TODAY]);
  });

  it("knows every catalogue city's districts with postal codes in both languages", () => {
    expect(STORE_DISTRICTS.every((g) => g.districts.length > 0)).toBe(true);
    expect(districtByPostalCode("302")?.city).toBe("hsinchu-county");
    expect(districtByPostalCode("970")?.district.name["zh-TW"]).toBe("花蓮市");
  });
});
