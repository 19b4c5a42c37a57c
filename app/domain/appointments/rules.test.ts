import { describe, expect, it } from "vitest";
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

describe("free times (Taipei wall clock)", () => {
  it("turns a Taipei slot into its instant: 14:00 Taipei is 06:00 UTC", () => {
    expect(slotInstant(monday, "14:00").toISOString()).toBe("2026-12-07T06:00:00.000Z");
  });

  it("lists the weekday's start times with the places left, less the full ones", () => {
    const booked = new Map([[slotInstant(monday, "14:00").getTime(), 2]]);
    const free = freeTimesOn(monday, consultation, null, booked, new Date("2026-12-06T01:00:00Z"));
    expect(free.map((f) => [f.time, f.left])).toEqual([
      ["10:00", 2],
      ["19:00", 2],
    ]);
  });

  it("leaves out times closer than the 2 h cut-off and past ones", () => {
    // 09:00 Taipei: 10:00 is within 2 h, 14:00 and 19:00 are free.
    expect(freeTimesOn(monday, consultation, null, new Map(), nineAm).map((f) => f.time)).toEqual(["14:00", "19:00"]);
    expect(timeProblem(monday, "10:00", consultation, null, nineAm)).toBe("past_cutoff");
    const evening = new Date("2026-12-07T12:00:00Z"); // 20:00 Taipei
    expect(timeProblem(monday, "19:00", consultation, null, evening)).toBe("in_past");
  });

  it("a holiday (an exception without hours) closes the day; special hours keep the slots that fit", () => {
    expect(freeTimesOn(monday, consultation, { intervals: [] }, new Map(), nineAm)).toEqual([]);
    expect(timeProblem(monday, "14:00", consultation, { intervals: [] }, nineAm)).toBe("closed_day");
    const shortDay = { intervals: [{ open: "12:00", close: "17:00" }] };
    expect(freeTimesOn(monday, consultation, shortDay, new Map(), nineAm).map((f) => f.time)).toEqual(["14:00"]);
    expect(timeProblem(monday, "19:00", consultation, shortDay, nineAm)).toBe("slot_outside");
  });

  it("refuses a time outside the slots, a malformed one, a past day and beyond the 60-day horizon", () => {
    expect(timeProblem(monday, "15:00", consultation, null, nineAm)).toBe("slot_outside");
    expect(timeProblem(monday, "25:00", consultation, null, nineAm)).toBe("slot_outside");
    expect(timeProblem({ year: 2026, month: 12, day: 6 }, "10:00", consultation, null, nineAm)).toBe("in_past");
    expect(lastBookableDate(nineAm)).toEqual({ year: 2027, month: 2, day: 5 });
    expect(timeProblem({ year: 2027, month: 2, day: 5 }, "10:00", consultation, null, nineAm)).toBeNull();
    expect(timeProblem({ year: 2027, month: 2, day: 6 }, "10:00", consultation, null, nineAm)).toBe("beyond_horizon");
  });

  it("the Taipei day decides, not the server's: 23:30 UTC Sunday is already Monday in Taipei", () => {
    const lateSundayUtc = new Date("2026-12-06T23:30:00Z"); // Monday 07:30 Taipei
    expect(timeProblem(monday, "10:00", consultation, null, lateSundayUtc)).toBeNull();
    expect(freeTimesOn(monday, consultation, null, new Map(), lateSundayUtc).map((f) => f.time)).toEqual([
      "10:00",
      "14:00",
      "19:00",
    ]);
  });

  it("a switched-off kind has no free times; duplicate and malformed start times are ignored", () => {
    expect(freeTimesOn(monday, { ...consultation, enabled: false }, null, new Map(), nineAm)).toEqual([]);
    const messy = { ...consultation, weeklySlots: every(["19:00", "14:00", "14:00", "7pm"]) };
    expect(freeTimesOn(monday, messy, null, new Map(), nineAm).map((f) => f.time)).toEqual(["14:00", "19:00"]);
  });
});
