import { describe, expect, it } from "vitest";
import { DEFAULT_SHOWROOM_SETTINGS } from "~/domain/showroom/settings";
import { freeTimesOn, type KindSettings, lastBookableDate, slotInstant, timeProblem } from "./rules";

/**
 * Free times are Taipei wall-clock times whatever the server's TZ: this file also runs under TZ=UTC,
 * America/New_York and America/Los_Angeles (vitest.config.ts, the time-* projects).
 */
const every = (times: string[]) => [times, times, times, times, times, times, times];
const consultation: KindSettings = {
  enabled: true,
  durationMinutes: 60,
  capacity: 2,
  weeklySlots: [[], ["10:00", "14:00", "19:00"], ["10:00"], ["10:00"], ["10:00"], ["10:00"], ["10:00"]],
};
// Monday 7 December 2026, 09:00 Taipei = 01:00 UTC.
const monday = { year: 2026, month: 12, day: 7 };
const nineAm = new Date("2026-12-07T01:00:00Z");
// PRODUCT.md §12's defaults: 60 days ahead, changes until 2 h before.
const W = DEFAULT_SHOWROOM_SETTINGS;

describe("free times (Taipei wall clock)", () => {
  it("turns a Taipei slot into its instant: 14:00 Taipei is 06:00 UTC", () => {
    expect(slotInstant(monday, "14:00").toISOString()).toBe("2026-12-07T06:00:00.000Z");
  });

  it("lists the weekday's start times with the places left, less the full ones", () => {
    const booked = new Map([[slotInstant(monday, "14:00").getTime(), 2]]);
    const free = freeTimesOn(monday, consultation, null, booked, new Date("2026-12-06T01:00:00Z"), W);
    expect(free.map((f) => [f.time, f.left])).toEqual([
      ["10:00", 2],
      ["19:00", 2],
    ]);
  });

  it("leaves out times closer than the 2 h cut-off and past ones", () => {
    // 09:00 Taipei: 10:00 is within 2 h, 14:00 and 19:00 are free.
    expect(freeTimesOn(monday, consultation, null, new Map(), nineAm, W).map((f) => f.time)).toEqual([
      "14:00",
      "19:00",
    ]);
    expect(timeProblem(monday, "10:00", consultation, null, nineAm, W)).toBe("past_cutoff");
    const evening = new Date("2026-12-07T12:00:00Z"); // 20:00 Taipei
    expect(timeProblem(monday, "19:00", consultation, null, evening, W)).toBe("in_past");
  });

  it("a holiday (an exception without hours) closes the day; special hours keep the slots that fit", () => {
    expect(freeTimesOn(monday, consultation, { intervals: [] }, new Map(), nineAm, W)).toEqual([]);
    expect(timeProblem(monday, "14:00", consultation, { intervals: [] }, nineAm, W)).toBe("closed_day");
    const shortDay = { intervals: [{ open: "12:00", close: "17:00" }] };
    expect(freeTimesOn(monday, consultation, shortDay, new Map(), nineAm, W).map((f) => f.time)).toEqual(["14:00"]);
    expect(timeProblem(monday, "19:00", consultation, shortDay, nineAm, W)).toBe("slot_outside");
  });

  it("refuses a time outside the slots, a malformed one, a past day and beyond the 60-day horizon", () => {
    expect(timeProblem(monday, "15:00", consultation, null, nineAm, W)).toBe("slot_outside");
    expect(timeProblem(monday, "25:00", consultation, null, nineAm, W)).toBe("slot_outside");
    expect(timeProblem({ year: 2026, month: 12, day: 6 }, "10:00", consultation, null, nineAm, W)).toBe("in_past");
    expect(lastBookableDate(nineAm, W.bookingHorizonDays)).toEqual({ year: 2027, month: 2, day: 5 });
    expect(timeProblem({ year: 2027, month: 2, day: 5 }, "10:00", consultation, null, nineAm, W)).toBeNull();
    expect(timeProblem({ year: 2027, month: 2, day: 6 }, "10:00", consultation, null, nineAm, W)).toBe(
      "beyond_horizon",
    );
  });

  it("the Taipei day decides, not the server's: 23:30 UTC Sunday is already Monday in Taipei", () => {
    const lateSundayUtc = new Date("2026-12-06T23:30:00Z"); // Monday 07:30 Taipei
    expect(timeProblem(monday, "10:00", consultation, null, lateSundayUtc, W)).toBeNull();
    expect(freeTimesOn(monday, consultation, null, new Map(), lateSundayUtc, W).map((f) => f.time)).toEqual([
      "10:00",
      "14:00",
      "19:00",
    ]);
  });

  it("a switched-off kind has no free times; duplicate and malformed start times are ignored", () => {
    expect(freeTimesOn(monday, { ...consultation, enabled: false }, null, new Map(), nineAm, W)).toEqual([]);
    const messy = { ...consultation, weeklySlots: every(["19:00", "14:00", "14:00", "7pm"]) };
    expect(freeTimesOn(monday, messy, null, new Map(), nineAm, W).map((f) => f.time)).toEqual(["14:00", "19:00"]);
  });
});

describe("the booking window is the showroom settings' (ADR 050)", () => {
  it("a horizon of 30 days refuses day 31, a cut-off of 240 minutes refuses a start 3 hours away", () => {
    const window = { bookingHorizonDays: 30, changeCutoffMinutes: 240 };
    // Day 30 from Monday 7 December is 6 January (a Wednesday: 10:00 is a start time), day 31 the 7th.
    expect(timeProblem({ year: 2027, month: 1, day: 6 }, "10:00", consultation, null, nineAm, window)).toBeNull();
    expect(timeProblem({ year: 2027, month: 1, day: 7 }, "10:00", consultation, null, nineAm, window)).toBe(
      "beyond_horizon",
    );
    // 09:00 → 14:00 is 5 h (kept), 11:00 → 14:00 is 3 h (refused with 240, kept with the default 120).
    const eleven = new Date("2026-12-07T03:00:00Z");
    expect(timeProblem(monday, "14:00", consultation, null, nineAm, window)).toBeNull();
    expect(timeProblem(monday, "14:00", consultation, null, eleven, window)).toBe("past_cutoff");
    expect(timeProblem(monday, "14:00", consultation, null, eleven, W)).toBeNull();
    expect(freeTimesOn(monday, consultation, null, new Map(), eleven, window).map((f) => f.time)).toEqual(["19:00"]);
  });
});
