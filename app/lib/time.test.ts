import { describe, expect, it } from "vitest";
import {
  addDays,
  endOfTaipeiDay,
  endOfTaipeiYear,
  formatIsoDate,
  formatLastValidDay,
  formatTaipei,
  fromTaipeiWallClock,
  lastValidTaipeiDay,
  parseIsoDate,
  startOfTaipeiDay,
  TIME_ZONE,
  taipeiDate,
  taipeiIsoDate,
  taipeiParts,
} from "./time";

/**
 * This file runs three times: in `unit` (the machine's TZ), `time-utc` (TZ=UTC) and `time-new-york`
 * (TZ=America/New_York, which has daylight saving time and sits on the other side of midnight UTC).
 * Every expectation is the same in all three: nothing here may depend on the process's zone.
 */
const EXPECTED_ZONE: Record<string, { tz: string; offset1970: number } | null> = {
  unit: null,
  "time-utc": { tz: "UTC", offset1970: 0 },
  "time-new-york": { tz: "America/New_York", offset1970: 300 },
};

const at = (iso: string) => new Date(iso);

describe("the process time zone of this project", () => {
  it("is the one the project configures (so a TZ project cannot pass silently in another zone)", ({ task }) => {
    const projectName = task.file.projectName ?? "";
    expect(Object.keys(EXPECTED_ZONE)).toContain(projectName);
    const expected = EXPECTED_ZONE[projectName];
    if (expected) {
      expect(process.env.TZ).toBe(expected.tz);
      expect(new Date(0).getTimezoneOffset()).toBe(expected.offset1970);
      expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(expected.tz);
    }
  });
});

describe("Taipei day boundaries (UTC+8, no daylight saving time)", () => {
  it("uses Asia/Taipei", () => {
    expect(TIME_ZONE).toBe("Asia/Taipei");
  });

  it("puts 16:00 UTC on the next Taipei day", () => {
    expect(taipeiIsoDate(at("2024-03-10T15:59:59.999Z"))).toBe("2024-03-10");
    expect(taipeiIsoDate(at("2024-03-10T16:00:00.000Z"))).toBe("2024-03-11");
    // Just after midnight UTC it is already morning in Taipei, on the same date.
    expect(taipeiIsoDate(at("2024-03-11T00:00:00.000Z"))).toBe("2024-03-11");
    expect(taipeiIsoDate(at("2024-03-10T23:59:59.999Z"))).toBe("2024-03-11");
  });

  it("reads the Taipei wall clock, including the hour after midnight as 0 (not 24)", () => {
    expect(taipeiParts(at("2024-03-10T16:00:00Z"))).toEqual({
      year: 2024,
      month: 3,
      day: 11,
      hour: 0,
      minute: 0,
      second: 0,
      weekday: 1, // Monday
    });
    expect(taipeiParts(at("2024-03-10T15:59:59Z"))).toMatchObject({ day: 10, hour: 23, minute: 59, weekday: 0 });
  });

  it("gives each caller its own parts when it answers the same instant again", () => {
    const first = taipeiParts(at("2024-07-01T04:00:00Z"));
    first.year = 1999;
    first.hour = 99;
    expect(taipeiParts(at("2024-07-01T04:00:00Z"))).toMatchObject({ year: 2024, hour: 12 });
    expect(() => taipeiParts(new Date(Number.NaN))).toThrow(RangeError);
  });

  it("agrees with Intl for any instant, summer time of 1945–1979 included", () => {
    const reference = new Intl.DateTimeFormat("en-US", {
      timeZone: "Asia/Taipei",
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    });
    const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const from = Date.UTC(1940, 0, 1);
    const to = Date.UTC(2100, 0, 1);
    // A deterministic spread of instants (every ~3.7 days, at varied times of day), plus the hours
    // around the summer-time changes of 1974–1979.
    const instants: number[] = [];
    for (let t = from; t < to; t += 319_777_777) instants.push(t);
    for (const change of [
      "1974-03-31T16:00:00Z",
      "1974-09-30T15:00:00Z",
      "1979-06-30T16:00:00Z",
      "1979-09-29T15:00:00Z",
    ]) {
      const t = Date.parse(change);
      for (const delta of [-3_600_001, -1, 0, 1, 1_800_000, 3_599_999]) instants.push(t + delta);
    }
    for (const t of instants) {
      const parts = Object.fromEntries(reference.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
      expect(taipeiParts(new Date(t)), new Date(t).toISOString()).toEqual({
        year: Number(parts.year),
        month: Number(parts.month),
        day: Number(parts.day),
        hour: Number(parts.hour),
        minute: Number(parts.minute),
        second: Number(parts.second),
        weekday: weekdays.indexOf(parts.weekday ?? ""),
      });
    }
  });

  it("starts and ends the Taipei day at 16:00 UTC", () => {
    // 2024-03-10 is the day New York moves its clocks forward: local-time code would be off here.
    for (const instant of ["2024-03-10T16:00:00Z", "2024-03-11T03:30:00Z", "2024-03-11T15:59:59.999Z"]) {
      expect(startOfTaipeiDay(at(instant)).toISOString()).toBe("2024-03-10T16:00:00.000Z");
      expect(endOfTaipeiDay(at(instant)).toISOString()).toBe("2024-03-11T16:00:00.000Z");
    }
    expect(startOfTaipeiDay(at("2024-03-10T15:59:59.999Z")).toISOString()).toBe("2024-03-09T16:00:00.000Z");
  });

  it("keeps day boundaries across month, leap day and year ends", () => {
    expect(taipeiIsoDate(at("2024-02-28T16:00:00Z"))).toBe("2024-02-29");
    expect(endOfTaipeiDay(at("2024-02-29T05:00:00Z")).toISOString()).toBe("2024-02-29T16:00:00.000Z");
    expect(endOfTaipeiDay(at("2024-12-31T12:00:00Z")).toISOString()).toBe("2024-12-31T16:00:00.000Z");
    expect(startOfTaipeiDay(at("2024-11-03T06:30:00Z")).toISOString()).toBe("2024-11-02T16:00:00.000Z");
  });

  it("ends the Taipei year at 16:00 UTC on 31 December (exclusive)", () => {
    expect(endOfTaipeiYear(2024).toISOString()).toBe("2024-12-31T16:00:00.000Z");
    expect(endOfTaipeiYear(2025).toISOString()).toBe("2025-12-31T16:00:00.000Z");
    expect(taipeiIsoDate(at("2024-12-31T15:59:59.999Z"))).toBe("2024-12-31");
    expect(taipeiIsoDate(endOfTaipeiYear(2024))).toBe("2025-01-01");
    expect(taipeiDate(at("2024-12-31T16:00:00Z"))).toEqual({ year: 2025, month: 1, day: 1 });
  });

  it("turns Taipei wall-clock times into instants", () => {
    expect(fromTaipeiWallClock({ year: 2024, month: 1, day: 1 }).toISOString()).toBe("2023-12-31T16:00:00.000Z");
    expect(fromTaipeiWallClock({ year: 2024, month: 3, day: 10 }, 9, 30, 15).toISOString()).toBe(
      "2024-03-10T01:30:15.000Z",
    );
    expect(fromTaipeiWallClock({ year: 2024, month: 7, day: 1 }, 23, 59, 59).toISOString()).toBe(
      "2024-07-01T15:59:59.000Z",
    );
  });

  it("adds calendar days across months, leap years and years", () => {
    expect(addDays({ year: 2024, month: 2, day: 28 }, 1)).toEqual({ year: 2024, month: 2, day: 29 });
    expect(addDays({ year: 2023, month: 2, day: 28 }, 1)).toEqual({ year: 2023, month: 3, day: 1 });
    expect(addDays({ year: 2024, month: 12, day: 31 }, 1)).toEqual({ year: 2025, month: 1, day: 1 });
    expect(addDays({ year: 2025, month: 1, day: 1 }, -1)).toEqual({ year: 2024, month: 12, day: 31 });
    expect(addDays({ year: 2024, month: 1, day: 31 }, 30)).toEqual({ year: 2024, month: 3, day: 1 });
  });

  it("pads ISO dates", () => {
    expect(taipeiIsoDate(at("2025-01-04T20:00:00Z"))).toBe("2025-01-05");
    expect(taipeiIsoDate(at("2025-09-08T23:00:00Z"))).toBe("2025-09-09");
  });
});

describe("formatTaipei", () => {
  // 00:00 on 11 March 2024 in Taipei; still 10 March in UTC and in New York.
  const midnight = at("2024-03-10T16:00:00Z");
  // ICU separates date and time with a thin space in zh-TW; compare words, not space characters.
  const spaced = (text: string) => text.replace(/\s/g, " ");

  it("formats in zh-TW", () => {
    expect(formatTaipei(midnight, "zh-TW")).toBe("2024/03/11");
    expect(spaced(formatTaipei(midnight, "zh-TW", "dateTime"))).toBe("2024/03/11 00:00");
    expect(formatTaipei(midnight, "zh-TW", "time")).toBe("00:00");
    expect(formatTaipei(midnight, "zh-TW", "monthDay")).toBe("3月11日");
  });

  it("formats in en", () => {
    expect(formatTaipei(midnight, "en")).toBe("03/11/2024");
    expect(spaced(formatTaipei(midnight, "en", "dateTime"))).toBe("03/11/2024, 00:00");
    expect(formatTaipei(midnight, "en", "time")).toBe("00:00");
    expect(formatTaipei(midnight, "en", "monthDay")).toBe("March 11");
  });

  it("accepts ISO strings and epoch milliseconds", () => {
    expect(formatTaipei("2024-12-31T16:00:00Z", "zh-TW")).toBe("2025/01/01");
    expect(spaced(formatTaipei(Date.UTC(2024, 11, 31, 15, 59), "en", "dateTime"))).toBe("12/31/2024, 23:59");
  });

  it("keeps a separate formatter per locale and style", () => {
    // A shared cache keyed wrongly would return the first locale's output for the second.
    expect(formatTaipei(midnight, "en", "monthDay")).toBe("March 11");
    expect(formatTaipei(midnight, "zh-TW", "monthDay")).toBe("3月11日");
    expect(formatTaipei(midnight, "en", "date")).toBe("03/11/2024");
  });
});

describe("an exclusive end shown as the last valid day", () => {
  it("is the Taipei day before an end at Taipei midnight, in both languages", () => {
    // Points earned in 2026 end at 2028-01-01 00:00 Taipei: they are good through 2027-12-31.
    const yearEnd = endOfTaipeiYear(2027);
    expect(lastValidTaipeiDay(yearEnd)).toBe("2027-12-31");
    expect(formatLastValidDay(yearEnd, "zh-TW")).toBe("2027/12/31");
    expect(formatLastValidDay(yearEnd.toISOString(), "en")).toBe("12/31/2027");
    // A coupon ending at 2027-01-06 00:00 Taipei (16:00 UTC the day before) is valid until 2027-01-05.
    expect(formatLastValidDay(at("2027-01-05T16:00:00Z"), "zh-TW")).toBe("2027/01/05");
    // An end inside a day (a reward's stock window, say) names that day.
    expect(lastValidTaipeiDay(at("2027-01-05T18:30:00Z"))).toBe("2027-01-06");
  });
});

describe("parseIsoDate", () => {
  it("reads a real day written YYYY-MM-DD", () => {
    expect(parseIsoDate("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseIsoDate("0050-01-01")).toEqual({ year: 50, month: 1, day: 1 });
  });
  it("refuses what is not a real day, or is written another way", () => {
    for (const bad of ["2023-02-29", "2026-04-31", "2026-00-10", "2026-1-05", "20260105", " 2026-01-05", ""]) {
      expect(parseIsoDate(bad)).toBeNull();
    }
  });
  it("refuses days before the earliest year when one is given", () => {
    expect(parseIsoDate("1999-12-31", 2000)).toBeNull();
    expect(parseIsoDate("2000-01-01", 2000)).toEqual({ year: 2000, month: 1, day: 1 });
  });
});

describe("formatIsoDate", () => {
  it("writes a calendar date as the pages write dates, whatever the process time zone", () => {
    expect(formatIsoDate("2027-12-31", "zh-TW")).toBe("2027/12/31");
    expect(formatIsoDate("2027-01-01", "zh-TW")).toBe(
      formatLastValidDay(fromTaipeiWallClock({ year: 2027, month: 1, day: 2 }), "zh-TW"),
    );
    expect(formatIsoDate("not a date", "zh-TW")).toBe("not a date");
  });
});
