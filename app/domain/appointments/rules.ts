import type { AppointmentKind, WeeklySlots } from "@platform/db/schema/appointments";
import type { OpeningInterval } from "@platform/db/schema/catalog";
import { minutesOf } from "~/domain/stores/hours";
import { addDays, type CalendarDate, fromTaipeiWallClock, parseIsoDate, taipeiDate } from "~/lib/time";

/**
 * The booking rules of showroom appointments (issue 37 part 1, ADR 044), pure: no database, no React. Every time
 * is a Taipei wall-clock time ("HH:MM" on a Taipei calendar date) turned into an instant with
 * `fromTaipeiWallClock`, so the server's TZ never matters.
 */

/** PRODUCT.md §12: the kinds' lengths. */
export const KIND_DEFAULT_MINUTES: Record<AppointmentKind, number> = { visit: 30, consultation: 60, measuring: 90 };
/** Bookings one member, or one phone number, may make in a Taipei day (an atomic counter, ADR 018). */
export const DAILY_BOOKING_LIMIT = 3;

/**
 * The showroom settings the booking rules read (ADR 050): how many Taipei days ahead a booking may be made, and
 * until how many minutes before the start it may be made, moved or cancelled. The caller passes the settings in
 * force (`showroomSettings`); there is no default here, so no surface can use another value.
 */
export type BookingWindow = { bookingHorizonDays: number; changeCutoffMinutes: number };

export type KindSettings = {
  enabled: boolean;
  durationMinutes: number;
  capacity: number;
  weeklySlots: WeeklySlots;
};

/** A day's hours exception of the store (a holiday has no intervals). */
export type DayException = { intervals: OpeningInterval[] } | null;

export type FreeTime = {
  /** "HH:MM", Taipei. */
  time: string;
  startsAt: Date;
  /** Places left at that start time. */
  left: number;
};

/** Why a time cannot be booked: the domain's refusal codes for the day and the time fields. */
export type TimeProblem = "in_past" | "beyond_horizon" | "closed_day" | "slot_outside" | "past_cutoff";

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isSlotTime(value: string): boolean {
  return HHMM.test(value);
}

function weekdayOf(date: CalendarDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

/** The instant of a Taipei date and "HH:MM". */
export function slotInstant(date: CalendarDate, time: string): Date {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return fromTaipeiWallClock(date, h, m);
}

/** The weekday's start times, sorted and without duplicates or malformed entries. */
export function startTimesOn(date: CalendarDate, weekly: WeeklySlots): string[] {
  const list = weekly[weekdayOf(date)] ?? [];
  return [...new Set(list.filter(isSlotTime))].sort();
}

/** Whether a slot of `duration` minutes from `time` lies inside the day's exception hours (a holiday: never). */
function fitsException(time: string, duration: number, exception: DayException): boolean {
  if (!exception) return true;
  const start = minutesOf(time);
  return exception.intervals.some((i) => start >= minutesOf(i.open) && start + duration <= minutesOf(i.close));
}

/** A day with an exception that leaves no bookable start time is a closed day. */
function closedOn(date: CalendarDate, settings: KindSettings, exception: DayException): boolean {
  if (!exception) return false;
  if (exception.intervals.length === 0) return true;
  return !startTimesOn(date, settings.weeklySlots).some((t) => fitsException(t, settings.durationMinutes, exception));
}

/** The last Taipei date that can be booked from `now`. */
export function lastBookableDate(now: Date, horizonDays: number): CalendarDate {
  return addDays(taipeiDate(now), horizonDays);
}

function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * Why this date and time cannot be booked now, or null when it can (places aside: the slot counter decides those).
 * The order is the one a person reads: the day first (past, too far, closed), then the time.
 */
export function timeProblem(
  date: CalendarDate,
  time: string,
  settings: KindSettings,
  exception: DayException,
  now: Date,
  window: BookingWindow,
): TimeProblem | null {
  if (compareDates(date, taipeiDate(now)) < 0) return "in_past";
  if (compareDates(date, lastBookableDate(now, window.bookingHorizonDays)) > 0) return "beyond_horizon";
  if (closedOn(date, settings, exception)) return "closed_day";
  if (!isSlotTime(time) || !startTimesOn(date, settings.weeklySlots).includes(time)) return "slot_outside";
  if (!fitsException(time, settings.durationMinutes, exception)) return "slot_outside";
  const startsAt = slotInstant(date, time);
  if (startsAt.getTime() <= now.getTime()) return "in_past";
  if (startsAt.getTime() - now.getTime() < window.changeCutoffMinutes * 60_000) return "past_cutoff";
  return null;
}

/**
 * The free times of one store, kind and Taipei day: the weekday's start times, less those the day's exception
 * removes, those closer than the cut-off (or past), and those whose counter is full. `booked` maps a start
 * instant's epoch milliseconds to the places taken.
 */
export function freeTimesOn(
  date: CalendarDate,
  settings: KindSettings,
  exception: DayException,
  booked: ReadonlyMap<number, number>,
  now: Date,
  window: BookingWindow,
): FreeTime[] {
  if (!settings.enabled) return [];
  const out: FreeTime[] = [];
  for (const time of startTimesOn(date, settings.weeklySlots)) {
    if (timeProblem(date, time, settings, exception, now, window) !== null) continue;
    const startsAt = slotInstant(date, time);
    const left = settings.capacity - (booked.get(startsAt.getTime()) ?? 0);
    if (left > 0) out.push({ time, startsAt, left });
  }
  return out;
}

/** Can the member still move or cancel a booking that starts then? */
export function canChange(startsAt: Date, now: Date, cutoffMinutes: number): boolean {
  return startsAt.getTime() - now.getTime() >= cutoffMinutes * 60_000;
}

/** A YYYY-MM-DD text as a Taipei calendar date (null when it is not a real day). */
export function parseDay(value: string): CalendarDate | null {
  return parseIsoDate(value, 2000);
}

/** The bookable days from today: each Taipei date and whether the kind has start times that weekday. */
export function bookableDays(now: Date, settings: KindSettings, horizonDays: number): CalendarDate[] {
  const today = taipeiDate(now);
  const days: CalendarDate[] = [];
  for (let i = 0; i <= horizonDays; i++) {
    const day = addDays(today, i);
    if (startTimesOn(day, settings.weeklySlots).length > 0) days.push(day);
  }
  return days;
}
