import type { AppointmentKind } from "@platform/db/schema/appointments";
import { fromTaipeiWallClock, parseIsoDate, TIME_ZONE } from "~/lib/time";

/** How a booking's day and time read (Taipei): "12月8日 週二 14:00–15:00" / "Tue, Dec 8 14:00–15:00". */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: TIME_ZONE,
});

function dayFormat(locale: string): Intl.DateTimeFormat {
  let f = dayFormats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      year: "numeric",
      month: "short",
      day: "numeric",
      weekday: "short",
      timeZone: TIME_ZONE,
    });
    dayFormats.set(locale, f);
  }
  return f;
}

export function taipeiClock(instant: Date): string {
  return timeFormat.format(instant);
}

export function whenText(startsAt: Date, endsAt: Date, locale: string): string {
  return `${dayFormat(locale).format(startsAt)} ${taipeiClock(startsAt)}–${taipeiClock(endsAt)}`;
}

/** A YYYY-MM-DD day as a short label for the day picker: weekday and day. */
export function dayLabel(iso: string, locale: string): { weekday: string; day: string } {
  const date = parseIsoDate(iso);
  if (!date) return { weekday: "", day: iso };
  const noon = fromTaipeiWallClock(date, 12);
  return {
    weekday: new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: TIME_ZONE }).format(noon),
    day: `${date.month}/${date.day}`,
  };
}

export const KIND_ORDER: readonly AppointmentKind[] = ["visit", "consultation", "measuring"];
