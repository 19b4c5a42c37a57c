import { describe, expect, it } from "vitest";
import { fromTaipeiWallClock } from "~/lib/time";
import { birthdayIn, birthdayPointsWithheld } from "./birthday.server";

const taipei = (iso: string, hour = 12) => {
  const [year, month, day] = iso.split("-").map(Number) as [number, number, number];
  return fromTaipeiWallClock({ year, month, day }, hour);
};

describe("the 30-day birthday rule", () => {
  it("withholds a birthday entered 0–30 days before it falls, or later in its month", () => {
    expect(birthdayPointsWithheld("1990-03-15", taipei("2026-02-13"), 2026)).toBe(true); // 30 days before
    expect(birthdayPointsWithheld("1990-03-15", taipei("2026-03-15"), 2026)).toBe(true);
    expect(birthdayPointsWithheld("1990-03-05", taipei("2026-03-20"), 2026)).toBe(true); // moved back in the month
    expect(birthdayPointsWithheld("1990-03-15", taipei("2026-03-31", 23), 2026)).toBe(true);
  });

  it("pays a birthday entered more than 30 days before, never entered, or entered in another year", () => {
    expect(birthdayPointsWithheld("1990-03-15", taipei("2026-02-12"), 2026)).toBe(false); // 31 days before
    expect(birthdayPointsWithheld("1990-03-15", null, 2026)).toBe(false);
    expect(birthdayPointsWithheld("1990-03-15", taipei("2026-03-10"), 2027)).toBe(false); // next year
    expect(birthdayPointsWithheld("1990-03-15", taipei("2026-04-01"), 2026)).toBe(false); // after the month
  });

  it("counts Taipei days across the new year, at the day's edges", () => {
    // 20 December to 5 January: 16 days ahead, the new year's points are withheld.
    expect(birthdayPointsWithheld("1985-01-05", taipei("2026-12-20"), 2027)).toBe(true);
    expect(birthdayPointsWithheld("1985-01-05", taipei("2026-12-20"), 2026)).toBe(false);
    // Midnight in Taipei on 13 February is still 12 February in UTC: the Taipei date decides.
    expect(birthdayPointsWithheld("1990-03-15", taipei("2026-02-13", 0), 2026)).toBe(true);
    expect(birthdayPointsWithheld("1990-03-15", taipei("2026-02-12", 23), 2026)).toBe(false);
  });

  it("moves 29 February to 28 February in other years", () => {
    expect(birthdayIn("2000-02-29", 2026)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(birthdayIn("2000-02-29", 2028)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(birthdayPointsWithheld("2000-02-29", taipei("2026-01-29"), 2026)).toBe(true);
    expect(birthdayPointsWithheld("2000-02-29", taipei("2026-01-28"), 2026)).toBe(false);
  });
});
