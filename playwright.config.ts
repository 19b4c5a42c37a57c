import { randomBytes } from "node:crypto";
import os from "node:os";
import process from "node:process";
import { defineConfig, devices } from "@playwright/test";

/**
 * Browser tests. Each worker starts its own production server on a free port (see e2e/fixtures.ts),
 * so `npm run test:e2e` builds first and nothing else needs to be running.
 * Chromium is Debian's (`/usr/bin/chromium`, or CHROMIUM_PATH): this machine has no internet,
 * so `npx playwright install` must never run.
 */
const isCI = Boolean(process.env.CI);

// One secret per run opens the app's test hooks (/__test, X-Test-Now): the fixtures start each server
// with it (TEST_HOOKS_SECRET) and every request of the tests sends it. Workers inherit it from here.
process.env.TEST_HOOKS_SECRET ??= randomBytes(32).toString("base64url");

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: true,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  // The machines have 2 cores; each worker also runs one app server.
  workers: Math.max(1, Math.min(2, os.availableParallelism())),
  // Long journeys (sign-up with a proof-of-work captcha, an SMS code, several axe checks) on a shared
  // 2-core machine: CI allows twice the local budget rather than retrying a slow machine into red.
  timeout: isCI ? 120_000 : 60_000,
  expect: { timeout: isCI ? 15_000 : 10_000 },
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    ...devices["Desktop Chrome"],
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET },
    // Under CI a trace is recorded only for a failed test's retry: recording every test (its screencast drawn by the
    // GPU process and encoded by the browser) cost about a sixth of Chromium's CPU (ADR 036, 2026-12-07).
    trace: isCI ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium" }],
});
