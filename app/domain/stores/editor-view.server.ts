import type { Database } from "@platform/db/client";
import type { Locale, MessageKey } from "~/lib/i18n";
import type { serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import type { StaffActor } from "../staff/actor";
import { hasPermission } from "../staff/permissions";
import { calendarWeeks, loadStoreEditor } from "./console.server";
import { formatRanges, STORE_DISTRICTS, type StoreContent } from "./editor";
import { formatIntervals } from "./hours";
import { photoToken, photoView } from "./photos";
import { resolvePhotos } from "./photos.server";

/** The console's store editor page in the reader's language (ADR 027): what its loader answers. */

type T = ReturnType<typeof serverT>;

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

/**
 * One store's editor: its state (published, the pending draft and who saved it), the draft (or the published
 * content) as form values with its photos, the next 8 weeks as "open now" will compute them, the published
 * versions. Refuses (`StoreEditError`) a store that does not exist or that the actor may not edit.
 */
export async function storeEditorView(db: Database, actor: StaffActor, id: string, now: Date, locale: Locale, t: T) {
  const editor = await loadStoreEditor(db, actor, id, now);
  const { row, content, draft } = editor;
  const photos = await resolvePhotos(db, content.photos);
  return {
    id,
    name: pick(content.name, locale),
    published: row.published,
    version: draft.version,
    pending: draft.data ? { by: editor.draftBy ?? "—", at: draft.updatedAt?.toISOString() ?? null } : null,
    saved: { values: contentValues(content), services: content.services, exceptionRows: content.exceptions.length + 3 },
    photos: photos.map((p) => ({ token: photoToken(p), view: photoView(p, locale) })),
    canUpload: hasPermission(actor, "catalog.edit"),
    canUnpublish: hasPermission(actor, "catalog.edit"),
    districts: districtChoices(locale, t),
    calendar: calendarWeeks(content, now).map((week) =>
      week.map(({ intervals, note, ...day }) => ({
        ...day,
        hours: formatIntervals(intervals),
        note: note ? pick(note, locale) : null,
      })),
    ),
    revisions: editor.revisions.map((r) => ({
      revision: r.revision,
      at: r.publishedAt.toISOString(),
      by: r.publishedByName ?? "—",
    })),
  };
}
