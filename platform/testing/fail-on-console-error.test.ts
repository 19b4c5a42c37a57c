import { allowConsoleError } from "@platform/testing/fail-on-console-error";
import { describe, expect, it } from "vitest";

describe("the console.error guard of the unit projects", () => {
  // it.fails passes only when the test fails: the guard's afterEach must turn this into a failure.
  it.fails("fails a test that calls console.error unexpectedly (the error printed here is deliberate)", () => {
    console.error("deliberate console.error: the guard must fail this test");
  });

  it("lets a test that expects console.error opt out and assert on the calls", () => {
    const spy = allowConsoleError();
    console.error("expected", 42);
    expect(spy).toHaveBeenCalledExactlyOnceWith("expected", 42);
  });

  it("starts every test with a fresh spy", () => {
    // The previous test's calls and permission must not leak into this one.
    const spy = allowConsoleError();
    expect(spy).not.toHaveBeenCalled();
  });
});
