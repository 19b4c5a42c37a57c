import { data } from "react-router";
import { CONSOLE_STORE_SORTS, CONSOLE_STORE_STATUSES, type ConsoleStoreFilters } from "~/domain/stores/console.server";
import { type FieldErrors, formatRanges, STORE_DISTRICTS, type StoreContent } from "~/domain/stores/editor";
import { formValues } from "~/lib/forms.server";
import type { Locale, MessageKey } from "~/lib/i18n";
import type { serverT } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";

/** What the console's store pages share on the server: filters, form values, errors in the page's language. */

type T = ReturnType<typeof serverT>;

const STORE_LIST_QUERY = {
  q: listField.text(60),
  sort: listField.choice(CONSOLE_STORE_SORTS, "name"),
  dir: listField.choice(["asc", "desc"], "asc"),
  status: listField.choice(CONSOLE_STORE_STATUSES, ""),
  page: listField.int(1, 1000, 1),
};

export function storeListFilters(url: URL): ConsoleStoreFilters {
  return parseListQuery(url, STORE_LIST_QUERY).values;
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

export function translateErrors(errors: FieldErrors, t: T): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, list]) => [
      field,
      list.map((e) => t(`console.stores.error.${e.code}` as MessageKey, e.params)),
    ]),
  );
}

/** The typed values kept: services (repeated checkboxes) as one comma-separated value. */
export function storeFormValues(form: FormData): Record<string, string> {
  return { ...formValues(form, []), services: form.getAll("services").map(String).join(",") };
}

/** A refused editor submission: 400 with every field's message, the values as typed. */
export function storeFormFailure(form: FormData, errors: Record<string, string[]>, t: T, status = 400) {
  return data({ errors, values: storeFormValues(form), formError: t("console.stores.error.fix") }, { status });
}
