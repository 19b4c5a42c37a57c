import { type AppConfig, opensTestHooks, TEST_HOOKS_HEADER } from "@platform/config";

/**
 * "Now" for a request. Everything time-dependent on the public pages ("open now", today's hours)
 * takes its instant from here, so a browser test can pin it: with APP_ENV=test and the run's
 * TEST_HOOKS_SECRET sent beside it (config.testHooks), and only then, an `X-Test-Now` header holding
 * an ISO 8601 instant (e.g. `2026-11-25T10:15:00+08:00`) replaces the server clock for that request.
 * Playwright sets it with `page.setExtraHTTPHeaders`, beside `page.clock` for the browser's own
 * clock. Anything else ignores the header.
 */
export const TEST_NOW_HEADER = "x-test-now";

export function requestNow(request: Request, config: Pick<AppConfig, "testHooks">): Date {
  if (opensTestHooks(config, request.headers.get(TEST_HOOKS_HEADER))) {
    const value = request.headers.get(TEST_NOW_HEADER);
    if (value) {
      const pinned = new Date(value);
      if (!Number.isNaN(pinned.getTime())) return pinned;
    }
  }
  return new Date();
}
