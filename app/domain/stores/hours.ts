import type { OpeningInterval, WeeklyHours } from "@platform/db/schema/catalog";
import { addDays, type CalendarDate, taipeiParts } from "~/lib/time";

/**
 * Opening hours in Asia/Taipei. Pure functions on plain data (no database, no React), so the list,
 * the detail page and later the staff console agree on "open now", whatever the server's TZ.
 */
export type HoursException = {
  date: string;
  intervals: OpeningInterval[];
  note?: { "zh-TW": string; en: string } | null;
};

export type DayHours = {
  /** Taipei calendar date, YYYY-MM-DD. */
  date: string;
  weekday: number;
  intervals: OpeningInterval[];
  /** True when a date exception (holiday) replaces the regular hours. */
  exceptional: boolean;
  /** Why the hours differ that day (the exception's note). */
  note: { "zh-TW": string; en: string } | null;
};

export type OpenStatus = {
  open: boolean;
  /** Today's hours in Taipei (after exceptions). */
  today: DayHours;
  /** While open: when the current interval ends ("HH:MM"). */
  closesAt: string | null;
  /** While closed: the next opening within a week, if any. */
  opensNext: { date: string; weekday: number; time: string; isToday: boolean; isTomorrow: boolean } | null;
};

const HHMM = /^([01]\d|2[0-4]):([0-5]\d)$/;

/** Minutes since midnight of an "HH:MM" string ("24:00" = 1440); NaN when malformed. */
export function minutesOf(hhmm: string): number {
  const m = HHMM.exec(hhmm);
  if (!m) return Number.NaN;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return minutes <= 24 * 60 ? minutes : Number.NaN;
}

/** A well-formed interval: both times parse and it ends after it starts (no overnight intervals). */
export function isValidInterval(interval: OpeningInterval): boolean {
  const open = minutesOf(interval.open);
  const close = minutesOf(interval.close);
  return Number.isFinite(open) && Number.isFinite(close) && close > open;
}

export function isoDate(date: CalendarDate): string {
  return `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}

function weekdayOf(date: CalendarDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

/** The hours of one Taipei calendar date: the exception for that date if there is one, else the weekday's. */
export function hoursOn(date: CalendarDate, weekly: WeeklyHours, exceptions: readonly HoursException[]): DayHours {
  const iso = isoDate(date);
  const weekday = weekdayOf(date);
  const exception = exceptions.find((e) => e.date === iso);
  const intervals = (exception ? exception.intervals : (weekly[weekday] ?? [])).filter(isValidInterval);
  intervals.sort((a, b) => minutesOf(a.open) - minutesOf(b.open));
  return { date: iso, weekday, intervals, exceptional: Boolean(exception), note: exception?.note ?? null };
}

/** Is the store open at this instant, and what are today's hours (all in Taipei)? */
export function openStatus(now: Date, weekly: WeeklyHours, exceptions: readonly HoursException[]): OpenStatus {
  const p = taipeiParts(now);
  const todayDate: CalendarDate = { year: p.year, month: p.month, day: p.day };
  const minuteNow = p.hour * 60 + p.minute;
  const today = hoursOn(todayDate, weekly, exceptions);

  const current = today.intervals.find((i) => minuteNow >= minutesOf(i.open) && minuteNow < minutesOf(i.close));
  if (current) return { open: true, today, closesAt: current.close, opensNext: null };

  let opensNext: OpenStatus["opensNext"] = null;
  for (let offset = 0; offset <= 7 && !opensNext; offset += 1) {
    const day = offset === 0 ? today : hoursOn(addDays(todayDate, offset), weekly, exceptions);
    const next = day.intervals.find((i) => offset > 0 || minutesOf(i.open) > minuteNow);
    if (next) {
      opensNext = {
        date: day.date,
        weekday: day.weekday,
        time: next.open,
        isToday: offset === 0,
        isTomorrow: offset === 1,
      };
    }
  }
  return { open: false, today, closesAt: null, opensNext };
}

/** The seven days starting today (Taipei), exceptions applied: the week table of the detail page. */
export function weekAhead(now: Date, weekly: WeeklyHours, exceptions: readonly HoursException[]): DayHours[] {
  const p = taipeiParts(now);
  const start: CalendarDate = { year: p.year, month: p.month, day: p.day };
  return Array.from({ length: 7 }, (_, i) => hoursOn(addDays(start, i), weekly, exceptions));
}

/** "10:30–21:00, 13:00–18:00" style text; empty intervals are the caller's "closed". */
export function formatIntervals(intervals: readonly OpeningInterval[]): string {
  return intervals.map((i) => `${i.open}–${i.close}`).join(", ");
}
