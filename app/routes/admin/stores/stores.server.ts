import { formatRanges, STORE_DISTRICTS, type StoreContent, storeFormSchema, withLists } from "~/domain/stores/editor";
import { isoDate } from "~/domain/stores/hours";
import { formFailure, parseForm } from "~/lib/forms.server";
import type { Locale, MessageKey } from "~/lib/i18n";
import type { serverT } from "~/lib/i18n.server";
import { taipeiDate } from "~/lib/time";

/** What the console's store pages share on the server: the editor form read and answered, its values, districts. */

type T = ReturnType<typeof serverT>;

/**
 * The editor form (ADR 008) → the store's content, or the 400 answer: every field's message, the values as typed
 * (the ticked services as one value), the line above the form. An exception before today (Taipei) is refused.
 */
export function parseStoreForm(form: FormData, t: T, now: Date, options: { requireId?: boolean } = {}) {
  const parsed = parseForm(storeFormSchema(t, isoDate(taipeiDate(now)), options), withLists(form));
  if (parsed.ok) return parsed;
  return { ok: false as const, answer: formFailure({ ...parsed.failure, formError: t("console.stores.error.fix") }) };
}

/** The form's values for a store's content (what the editor starts from). */
export function contentValues(content: StoreContent): Record<string, string> {
  const values: Record<string, string> = {
    nameZh: content.name["zh-TW"],
    nameEn: content.name.en,
    summaryZh: content.summary["zh-TW"],
    summaryEn: content.summary.en,
    postalCode: content.postalCode,
    addressZh: content.address["zh-TW"],
    addressEn: content.address.en,
    phone: content.phone,
    email: content.email,
    latitude: String(content.latitude),
    longitude: String(content.longitude),
  };
  content.weeklyHours.forEach((day, i) => {
    values[`hours${i}`] = formatRanges(day);
  });
  content.exceptions.forEach((e, i) => {
    values[`ex${i}Date`] = e.date;
    values[`ex${i}Hours`] = formatRanges(e.intervals);
    values[`ex${i}NoteZh`] = e.note?.["zh-TW"] ?? "";
    values[`ex${i}NoteEn`] = e.note?.en ?? "";
  });
  return values;
}

/** The district choices of the form, grouped by city, in the page's language. */
export function districtChoices(locale: Locale, t: T) {
  return STORE_DISTRICTS.map((group) => ({
    city: t(`catalog.city.${group.city}` as MessageKey),
    districts: group.districts.map((d) => ({
      postalCode: d.postalCode,
      label: `${locale === "en" ? d.name.en : d.name["zh-TW"]} ${d.postalCode}`,
    })),
  }));
}
