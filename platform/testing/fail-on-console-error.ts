import { format } from "node:util";
import { afterEach, beforeEach, type MockInstance, vi } from "vitest";

/**
 * Setup file for the unit projects (Epic Stack style): a console.error during a test fails that
 * test, because React, React Router and our own code report real problems there. A test that
 * expects one calls allowConsoleError() first and may assert on the returned spy.
 *
 * The check runs in afterEach rather than by throwing from console.error itself, so code under
 * test that catches errors cannot swallow it.
 */
let spy: MockInstance<typeof console.error> | undefined;
let allowed = false;

export function allowConsoleError(): MockInstance<typeof console.error> {
  if (!spy) throw new Error("allowConsoleError() is only available inside a test");
  allowed = true;
  return spy;
}

beforeEach(() => {
  allowed = false;
  const original = console.error.bind(console);
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    if (!allowed) original(...args);
  });
});

afterEach(() => {
  const calls = spy?.mock.calls ?? [];
  const unexpected = !allowed && calls.length > 0;
  spy?.mockRestore();
  spy = undefined;
  if (unexpected) {
    throw new Error(
      `console.error was called ${calls.length} time(s) during this test; call allowConsoleError() if that is expected.\n` +
        `First call: ${format(...(calls[0] ?? []))}`,
    );
  }
});
