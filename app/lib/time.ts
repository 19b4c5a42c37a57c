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
 * The parts of the last instants asked for, by millisecond: `formatToParts` costs ~20 µs, and one page
 * asks for the same "now" many times (the open status of every showroom, the footer's year).
 */
const recentParts = new Map<number, TaipeiParts>();
const RECENT_PARTS_SIZE = 64;

/** Wall-clock parts of an instant in Taipei. weekday: 0 = Sunday … 6 = Saturday. */
export function taipeiParts(instant: Date): TaipeiParts {
  const time = instant.getTime();
  const known = recentParts.get(time);
  if (known) return { ...known };
  const parts = formatParts(instant);
  if (Number.isFinite(time)) {
    if (recentParts.size >= RECENT_PARTS_SIZE) recentParts.delete(recentParts.keys().next().value as number);
    recentParts.set(time, parts);
  }
  return { ...parts };
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
