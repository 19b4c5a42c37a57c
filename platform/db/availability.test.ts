import { afterEach, describe, expect, it } from "vitest";
import {
  databaseUnavailableSince,
  markDatabaseAvailable,
  reportDatabaseOutcome,
  setAvailabilityLogger,
} from "./availability";

/** The outage's two log lines (ADR 021): what a statement's outcome says about the database, and when. */
function recording() {
  const lines: string[] = [];
  const note = (_fields: unknown, message: string) => lines.push(message);
  const stop = setAvailabilityLogger({ debug: note, info: note, warn: note, error: note } as never);
  return { lines, stop };
}

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

afterEach(() => markDatabaseAvailable());

describe("the database's availability", () => {
  it("a statement sent before the outage was noticed, answering after it, does not end it", () => {
    const { lines, stop } = recording();
    const sentBefore = performance.now();
    reportDatabaseOutcome(refused, performance.now());
    expect(databaseUnavailableSince()).not.toBeNull();
    // Its answer was on the way when the connection went.
    reportDatabaseOutcome(null, sentBefore);
    expect(databaseUnavailableSince()).not.toBeNull();
    // Another failure of the same outage says nothing new.
    reportDatabaseOutcome(refused, performance.now());
    expect(lines).toEqual(["database unavailable"]);
    // A statement sent since then that succeeds: the database is back, said once.
    reportDatabaseOutcome(null, performance.now());
    expect(databaseUnavailableSince()).toBeNull();
    expect(lines).toEqual(["database unavailable", "database back after 0 s"]);
    stop();
  });

  it("a failing statement that is not about the connection is not an outage", () => {
    const { lines, stop } = recording();
    reportDatabaseOutcome(Object.assign(new Error("duplicate key"), { code: "23505" }), performance.now());
    expect(databaseUnavailableSince()).toBeNull();
    expect(lines).toEqual([]);
    stop();
  });
});
