import os from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Unit and integration tests. No React Router plugin here: route modules are exercised through a
 * real Vite dev server inside server/app.integration.test.ts, everything else is plain TypeScript.
 *
 *   npm test                                   every project, PGlite in memory
 *   npx vitest run --project 'integration*'    integration only (integration and integration-alone)
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx vitest run --project 'integration*'
 *                                              integration on PostgreSQL, one fresh database per file
 */
const unitSetup = ["./platform/testing/fail-on-console-error.ts"];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Integration files that need a process of their own (see the integration-alone project): the two that take the
 * database away, and the two that count a purchase's writes with postgres.js as the server build runs it (they mock
 * `postgres`, which the shared module registry of the integration project would not see).
 */
const ALONE = [
  "server/database-outage.postgres.integration.test.ts",
  "server/outage-observability.postgres.integration.test.ts",
  "server/api/purchase-round-trips.postgres.integration.test.ts",
  "server/api/points-round-trips.postgres.integration.test.ts",
];

// Tests of real concurrency need real connections: PostgreSQL only, never skipped tests on PGlite.
// Tests of the embedded database's own commands (npm start, npm run api-key on DATA_DIR) ignore
// TEST_DATABASE_URL: a PostgreSQL run would repeat them unchanged.
const integrationExclude = [
  "**/node_modules/**",
  ...(onPostgres ? ["**/*.embedded.integration.test.ts"] : ["**/*.postgres.integration.test.ts"]),
];

const integrationSettings = {
  // The run's migrated database, made once, which each file's databases start from (PGlite or PostgreSQL).
  globalSetup: ["./platform/testing/pglite-template.ts"],
  // A file's first test also waits for its Vite dev server: 35–45 s at load 25–30 on 2 cores.
  testTimeout: 90_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    reporters: ["default"],
    // Used when --reporter=json is passed (CI also passes --outputFile.json explicitly).
    outputFile: { json: "reports/vitest.json" },
    teardownTimeout: 30_000,
    // No test asserts on time; the 5 s default only turned a loaded CI machine (load 10 on 2 cores: image
    // processing, property tests over many instants) into a failure now and then. Hangs still end the test.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: a single file at a time on the 2-core machines,
    // while most integration files wait on a child process, a socket or PostgreSQL. Two at a time at least.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Each integration file's Vite dev server runs React Router's type generation into .react-router/types
    // (for the editor and tsc, not for the tests). Two files starting at once race on that folder (one
    // removes it while the other writes: ENOENT, ENOTDIR or EEXIST, or ENOTEMPTY when a file lands during the removal): that
    // error says nothing about the tests, so it is not counted.
    onUnhandledError(error) {
      const { code, path: where } = error as { code?: string; path?: string };
      const race = code === "ENOENT" || code === "ENOTEMPTY" || code === "ENOTDIR" || code === "EEXIST";
      return !(race && typeof where === "string" && where.includes(".react-router"));
    },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: [
            "app/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
            "platform/**/*.test.{ts,tsx}",
            "scripts/**/*.test.ts",
            "bench/**/*.test.ts",
          ],
          exclude: ["**/node_modules/**", "**/*.integration.test.ts"],
          setupFiles: unitSetup,
        },
      },
      {
        extends: true,
        test: {
          name: "time-utc",
          environment: "node",
          include: ["app/lib/time.test.ts", "app/domain/stores/hours.test.ts", "app/domain/appointments/rules.test.ts"],
          env: { TZ: "UTC" },
          setupFiles: unitSetup,
        },
      },
      {
        extends: true,
        test: {
          name: "time-new-york",
          environment: "node",
          include: ["app/lib/time.test.ts", "app/domain/stores/hours.test.ts", "app/domain/appointments/rules.test.ts"],
          env: { TZ: "America/New_York" },
          setupFiles: unitSetup,
        },
      },
      {
        extends: true,
        test: {
          // Appointment slots are Taipei wall-clock times whatever the server's TZ (issue 37).
          name: "time-los-angeles",
          environment: "node",
          include: ["app/domain/appointments/rules.test.ts"],
          env: { TZ: "America/Los_Angeles" },
          setupFiles: unitSetup,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          environment: "node",
          include: [
            "app/**/*.integration.test.ts",
            "server/**/*.integration.test.ts",
            "platform/**/*.integration.test.ts",
            "scripts/**/*.integration.test.ts",
          ],
          exclude: [...integrationExclude, ...ALONE],
          ...integrationSettings,
          // The files a worker runs share one module registry, so they share the worker's Vite dev server
          // (server/testing/dev-app.ts): about 30 s of CPU a file that starts the app, 49 files, twice a CI run.
          // No integration file here mocks modules (those are in ALONE), stubs globals or the environment, or sets process listeners;
          // each opens its own databases and app instances and closes them in afterAll.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The files that take the database away under the app: the app's "database away" state is the process's
          // (platform/db/availability.ts), so they run in a process of their own; and the files that mock a module
          // (isolated here, as vitest isolates by default). `--project 'integration*'`.
          name: "integration-alone",
          environment: "node",
          include: ALONE,
          exclude: integrationExclude,
          ...integrationSettings,
        },
      },
    ],
  },
});
