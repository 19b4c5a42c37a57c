import type { AppointmentKind } from "@platform/db/schema/appointments";
import type { Locale, MessageKey, Translate } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import type { CalendarEvent } from "./calendar";

type Row = {
  id: string;
  reference: string;
  kind: AppointmentKind;
  startsAt: Date;
  endsAt: Date;
  status: string;
  version: number;
  storeName: { "zh-TW": string; en: string };
  storeAddress: { "zh-TW": string; en: string };
  storeDistrict: { "zh-TW": string; en: string };
  storeCity: string;
};

/** A booking as the calendar entry of its .ics file and its Google link (issue 37), in the reader's language. */
export function calendarEventOf(
  row: Row,
  locale: Locale,
  t: Translate,
  publicBaseUrl: string,
  now: Date,
): CalendarEvent {
  const store = pick(row.storeName, locale);
  const kind = t(`appointments.kind.${row.kind}` as MessageKey);
  return {
    uid: row.reference,
    sequence: row.version,
    title: `${kind}｜${store}`,
    description: t("appointments.calendar.description", { store, kind, reference: row.reference }),
    location: `${t(`catalog.city.${row.storeCity}` as MessageKey)}${pick(row.storeDistrict, locale)}${pick(row.storeAddress, locale)}`,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    now,
    url: `${publicBaseUrl.replace(/\/$/, "")}/member-center/appointments/${row.id}`,
    cancelled: row.status === "cancelled",
  };
}
