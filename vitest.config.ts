import { defineConfig } from "vitest/config";

/**
 * Unit and integration tests. No React Router plugin here: route modules are exercised through a
 * real Vite dev server inside server/app.integration.test.ts, everything else is plain TypeScript.
 *
 *   npm test                                   every project, PGlite in memory
 *   npx vitest run --project integration       integration only
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx vitest run --project integration
 *                                              integration on PostgreSQL, one fresh database per file
 */
const unitSetup = ["./platform/testing/fail-on-console-error.ts"];

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    reporters: ["default"],
    // Used when --reporter=json is passed (CI also passes --outputFile.json explicitly).
    outputFile: { json: "reports/vitest.json" },
    teardownTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "platform/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/node_modules/**", "**/*.integration.test.ts"],
          setupFiles: unitSetup,
        },
      },
      {
        extends: true,
        test: {
          name: "time-utc",
          environment: "node",
          include: ["app/lib/time.test.ts", "app/domain/stores/hours.test.ts"],
          env: { TZ: "UTC" },
          setupFiles: unitSetup,
        },
      },
      {
        extends: true,
        test: {
          name: "time-new-york",
          environment: "node",
          include: ["app/lib/time.test.ts", "app/domain/stores/hours.test.ts"],
          env: { TZ: "America/New_York" },
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
          // Tests of real concurrency need real connections: PostgreSQL only, never skipped tests on PGlite.
          exclude: [
            "**/node_modules/**",
            ...(process.env.TEST_DATABASE_URL ? [] : ["**/*.postgres.integration.test.ts"]),
          ],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
