import type { WeeklyHours } from "@platform/db/schema/catalog";
import { describe, expect, it } from "vitest";
import { fromTaipeiWallClock } from "~/lib/time";
import { formatIntervals, hoursOn, isValidInterval, minutesOf, openStatus, weekAhead } from "./hours";

/** Runs in the unit project and again under TZ=UTC and TZ=America/New_York (vitest.config.ts). */
const taipei = (date: string, time: string) => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  return fromTaipeiWallClock({ year, month, day }, hour, minute);
};

const weekday = [{ open: "10:30", close: "21:30" }];
const weekend = [{ open: "10:00", close: "22:00" }];
/** Sunday first; closed on Tuesdays; Thursday has a lunch break. */
const WEEK: WeeklyHours = [
  weekend,
  weekday,
  [],
  weekday,
  [
    { open: "13:00", close: "18:00" },
    { open: "10:00", close: "12:00" },
  ],
  weekday,
  weekend,
];
const HOLIDAYS = [
  { date: "2026-12-31", intervals: [{ open: "10:30", close: "18:00" }] },
  { date: "2027-02-06", intervals: [] },
];

describe("opening hours in Asia/Taipei", () => {
  it(`knows the process time zone is irrelevant (TZ=${process.env.TZ ?? "unset"})`, () => {
    // 2026-11-25 10:15 Taipei is 02:15 UTC, still the 25th; a Wednesday.
    expect(taipei("2026-11-25", "10:15").toISOString()).toBe("2026-11-25T02:15:00.000Z");
  });

  it("is open on a weekday morning after opening and closed before it", () => {
    expect(openStatus(taipei("2026-11-25", "10:29"), WEEK, []).open).toBe(false);
    const open = openStatus(taipei("2026-11-25", "10:30"), WEEK, []);
    expect(open).toMatchObject({ open: true, closesAt: "21:30", opensNext: null });
    expect(open.today).toMatchObject({ date: "2026-11-25", weekday: 3, exceptional: false });
  });

  it("closes at the closing minute", () => {
    expect(openStatus(taipei("2026-11-25", "21:29"), WEEK, []).open).toBe(true);
    const closed = openStatus(taipei("2026-11-25", "21:30"), WEEK, []);
    expect(closed.open).toBe(false);
    expect(closed.opensNext).toMatchObject({ date: "2026-11-26", time: "10:00", isTomorrow: true });
  });

  it("uses Sunday's hours late on a Sunday night, which in UTC is still Sunday afternoon", () => {
    // 21:15 Taipei = 13:15 UTC: a server in UTC must not use another day's hours.
    expect(openStatus(taipei("2026-11-29", "21:15"), WEEK, []).open).toBe(true);
    expect(openStatus(taipei("2026-11-29", "22:00"), WEEK, []).open).toBe(false);
  });

  it("treats just after midnight Taipei as the new day (UTC is still the previous day)", () => {
    // Monday 00:30 Taipei = Sunday 16:30 UTC.
    const status = openStatus(taipei("2026-11-30", "00:30"), WEEK, []);
    expect(status.today.weekday).toBe(1);
    expect(status.open).toBe(false);
    expect(status.opensNext).toMatchObject({ date: "2026-11-30", time: "10:30", isToday: true });
  });

  it("skips a weekly closing day when looking for the next opening", () => {
    const mondayNight = openStatus(taipei("2026-11-30", "22:00"), WEEK, []);
    expect(mondayNight.opensNext).toMatchObject({ date: "2026-12-02", weekday: 3, time: "10:30" });
  });

  it("handles several intervals in one day (a lunch break), in any stored order", () => {
    expect(openStatus(taipei("2026-11-26", "11:00"), WEEK, []).closesAt).toBe("12:00");
    const lunch = openStatus(taipei("2026-11-26", "12:30"), WEEK, []);
    expect(lunch.open).toBe(false);
    expect(lunch.opensNext).toMatchObject({ time: "13:00", isToday: true });
    expect(formatIntervals(lunch.today.intervals)).toBe("10:00–12:00, 13:00–18:00");
  });

  it("applies a holiday exception with shortened hours", () => {
    // New Year's Eve is a Thursday; the exception replaces the lunch-break hours.
    const evening = openStatus(taipei("2026-12-31", "18:30"), WEEK, HOLIDAYS);
    expect(evening.open).toBe(false);
    expect(evening.today).toMatchObject({ exceptional: true, intervals: [{ open: "10:30", close: "18:00" }] });
    expect(openStatus(taipei("2026-12-31", "17:59"), WEEK, HOLIDAYS).open).toBe(true);
  });

  it("applies a holiday closure on a day that is normally open, and finds the next opening after it", () => {
    // 2027-02-06 is a Saturday (normally 10:00–22:00).
    const status = openStatus(taipei("2027-02-06", "15:00"), WEEK, HOLIDAYS);
    expect(status.open).toBe(false);
    expect(status.today).toMatchObject({ exceptional: true, intervals: [] });
    expect(status.opensNext).toMatchObject({ date: "2027-02-07", time: "10:00" });
  });

  it("uses the exception of the Taipei date, not the UTC date", () => {
    // 2026-12-31 07:00 Taipei is 2026-12-30 23:00 UTC.
    expect(openStatus(taipei("2026-12-31", "07:00"), WEEK, HOLIDAYS).today.exceptional).toBe(true);
    // 2026-12-30 23:00 Taipei is 15:00 UTC on the 30th: no exception.
    expect(openStatus(taipei("2026-12-30", "23:00"), WEEK, HOLIDAYS).today.exceptional).toBe(false);
  });

  it("lists the week ahead from today with exceptions", () => {
    const week = weekAhead(taipei("2026-12-29", "09:00"), WEEK, HOLIDAYS);
    expect(week.map((d) => d.weekday)).toEqual([2, 3, 4, 5, 6, 0, 1]);
    expect(week[0]?.intervals).toEqual([]);
    expect(week[2]).toMatchObject({ date: "2026-12-31", exceptional: true });
  });

  it("has no next opening for a store that never opens", () => {
    const never: WeeklyHours = [[], [], [], [], [], [], []];
    expect(openStatus(taipei("2026-11-25", "12:00"), never, []).opensNext).toBeNull();
  });

  it("ignores malformed intervals instead of failing", () => {
    expect(minutesOf("24:00")).toBe(1440);
    expect(minutesOf("24:30")).toBeNaN();
    expect(minutesOf("9:00")).toBeNaN();
    expect(isValidInterval({ open: "22:00", close: "02:00" })).toBe(false);
    const broken: WeeklyHours = Array.from({ length: 7 }, () => [{ open: "xx", close: "21:00" }]);
    expect(hoursOn({ year: 2026, month: 11, day: 25 }, broken, []).intervals).toEqual([]);
  });
});
