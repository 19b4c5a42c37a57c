/**
 * The one place that knows about time zones. Every date shown to a person and every
 * day boundary (expiry, birthdays, daily limits, "open now") is computed in Asia/Taipei,
 * whatever TZ the server runs with.
 */
export const TIME_ZONE = "Asia/Taipei";

export type CalendarDate = { year: number; month: number; day: number };
export type TaipeiParts = CalendarDate & { hour: number; minute: number; second: number; weekday: number };

const partsFormatter = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
  weekday: "short",
});

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * Taipei's offset from UTC per UTC hour, as `formatToParts` reported it for an instant of that hour:
 * `formatToParts` costs ~20 µs, and every request asks for "now" (open status, the footer's year) and
 * a showroom page for many instants. Taipei's offsets have only ever changed on a whole hour of UTC
 * (UTC+8, and UTC+9 in its summers of 1945–1979), so one sample per UTC hour is exact.
 */
const offsetByHour = new Map<number, number>();
const OFFSET_CACHE_SIZE = 256;
const HOUR_MS = 3_600_000;

/** Wall-clock parts of an instant in Taipei. weekday: 0 = Sunday … 6 = Saturday. */
export function taipeiParts(instant: Date): TaipeiParts {
  const time = instant.getTime();
  if (!Number.isFinite(time)) return formatParts(instant);
  const hour = Math.floor(time / HOUR_MS);
  let offsetMs = offsetByHour.get(hour);
  if (offsetMs === undefined) {
    const p = formatParts(instant);
    offsetMs = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(time / 1000) * 1000;
    if (offsetByHour.size >= OFFSET_CACHE_SIZE) offsetByHour.delete(offsetByHour.keys().next().value as number);
    offsetByHour.set(hour, offsetMs);
  }
  const wall = new Date(time + offsetMs);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    weekday: wall.getUTCDay(),
  };
}

function formatParts(instant: Date): TaipeiParts {
  const out: Record<string, string> = {};
  for (const part of partsFormatter.formatToParts(instant)) out[part.type] = part.value;
  return {
    year: Number(out.year),
    month: Number(out.month),
    day: Number(out.day),
    hour: Number(out.hour),
    minute: Number(out.minute),
    second: Number(out.second),
    weekday: WEEKDAYS.indexOf(out.weekday ?? ""),
  };
}

/** Offset of Taipei from UTC at that instant, in minutes (480 today; computed, not assumed). */
function offsetMinutes(instant: Date): number {
  const p = taipeiParts(instant);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant at which the given Taipei wall-clock time occurs. */
export function fromTaipeiWallClock(date: CalendarDate, hour = 0, minute = 0, second = 0): Date {
  const guess = Date.UTC(date.year, date.month - 1, date.day, hour, minute, second);
  const offset = offsetMinutes(new Date(guess));
  return new Date(guess - offset * 60_000);
}

/** 00:00 Taipei time of the day that contains the instant. */
export function startOfTaipeiDay(instant: Date): Date {
  return fromTaipeiWallClock(taipeiParts(instant));
}

/** 00:00 Taipei time of the following day (an exclusive end). */
export function endOfTaipeiDay(instant: Date): Date {
  const p = taipeiParts(instant);
  return fromTaipeiWallClock(addDays(p, 1));
}

/** The last instant of the Taipei calendar year (exclusive end: 00:00 on 1 January next year). */
export function endOfTaipeiYear(year: number): Date {
  return fromTaipeiWallClock({ year: year + 1, month: 1, day: 1 });
}

export function taipeiDate(instant: Date): CalendarDate {
  const { year, month, day } = taipeiParts(instant);
  return { year, month, day };
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * A calendar day written YYYY-MM-DD, or null when the text is not a real day (2026-02-30, 2026-2-3). The one
 * parser of typed and URL dates; `earliestYear` refuses days before it (a reward's or a report's dates).
 */
export function parseIsoDate(value: string, earliestYear = 1): CalendarDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const probe = new Date(0);
  probe.setUTCFullYear(date.year, date.month - 1, date.day);
  const real =
    probe.getUTCFullYear() === date.year && probe.getUTCMonth() === date.month - 1 && probe.getUTCDate() === date.day;
  return real && date.year >= earliestYear ? date : null;
}

/** ISO date (YYYY-MM-DD) of the Taipei day containing the instant. */
export function taipeiIsoDate(instant: Date): string {
  const { year, month, day } = taipeiDate(instant);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

type DateStyle = "date" | "dateTime" | "time" | "monthDay";

const formatOptions: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { year: "numeric", month: "2-digit", day: "2-digit" },
  dateTime: { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
  time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
  monthDay: { month: "long", day: "numeric" },
};

const formatterCache = new Map<string, Intl.DateTimeFormat>();

/** Formats an instant for display in Taipei time, in the given locale. */
export function formatTaipei(instant: Date | string | number, locale: string, style: DateStyle = "date"): string {
  const key = `${locale}|${style}`;
  let formatter = formatterCache.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...formatOptions[style], timeZone: TIME_ZONE });
    formatterCache.set(key, formatter);
  }
  return formatter.format(new Date(instant));
}

/** A calendar date (YYYY-MM-DD, e.g. a birthday or an imported last day) as the pages write dates: 2027/12/31. */
export function formatIsoDate(value: string, locale: string): string {
  const date = parseIsoDate(value);
  return date ? formatTaipei(fromTaipeiWallClock(date, 12), locale, "date") : value;
}

/**
 * The last moment before an exclusive end. Expiries (point lots, coupons, a reward's offer, a tier's deadline) are
 * stored as exclusive ends: the first instant the thing is no longer valid, usually 00:00 Taipei of the day after
 * its last day. Shown as a date, the end itself would read a day late.
 */
function lastValidInstant(end: Date | string | number): Date {
  return new Date(new Date(end).getTime() - 1);
}

/** The last Taipei day (YYYY-MM-DD) on which something with this exclusive end is still valid. */
export function lastValidTaipeiDay(end: Date | string | number): string {
  return taipeiIsoDate(lastValidInstant(end));
}

/**
 * The one formatter of an expiry for people: the last Taipei day something with this exclusive end is still
 * valid, in the locale ("344 點將於 2027/12/31 到期" for lots ending at 2028-01-01 00:00 Taipei). Every page,
 * message and answer that shows an expiry date goes through here.
 */
export function formatLastValidDay(end: Date | string | number, locale: string): string {
  return formatTaipei(lastValidInstant(end), locale, "date");
}
