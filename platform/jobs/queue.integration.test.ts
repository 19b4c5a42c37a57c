import { type DatabaseHandle, openDatabase, rowsOf } from "@platform/db/client";
import { isPermanentFailure, type JobQueue, startJobQueue } from "@platform/jobs/queue";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { waitFor } from "@platform/testing/wait";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The job queue on the test database: PGlite in memory by default, a fresh PostgreSQL database
 * with TEST_DATABASE_URL. Polling is fast here so retries are visible within seconds.
 */
const logger = pino({ level: "silent" });
const FAST = { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 0.5 };

let testDb: TestDatabase;
let database: DatabaseHandle;
let queue: JobQueue;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "jobs", migrated: true });
  database = await openDatabase(testDb.config);
  await database.migrate();
  queue = await startJobQueue({ connection: database.connection, logger, ...FAST });
});

afterAll(async () => {
  await queue?.stop(2000);
  await database?.close();
  await testDb?.drop();
});

class Permanent extends Error {
  readonly permanent = true;
}

describe("the job queue", () => {
  it("creates its own schema (pgboss) in the app's database, beside the Drizzle migrations", async () => {
    const tables = rowsOf<{ schema: string; name: string }>(
      await database.db.execute(
        sql`select table_schema as schema, table_name as name from information_schema.tables
            where table_schema in ('pgboss', 'drizzle') order by 1, 2`,
      ),
    );
    expect(tables).toContainEqual({ schema: "pgboss", name: "job" });
    expect(tables).toContainEqual({ schema: "pgboss", name: "queue" });
    expect(tables).toContainEqual({ schema: "drizzle", name: "__drizzle_migrations" });
  });

  it("runs a job once and stores the handler's output", async () => {
    await queue.define("test.echo", { retryLimit: 0 });
    const runs: unknown[] = [];
    await queue.work<{ word: string }>("test.echo", async (job) => {
      runs.push(job.data);
      return { echoed: job.data.word.toUpperCase() };
    });
    const id = await queue.send("test.echo", { word: "hello" });
    const job = await waitFor(
      () => queue.job("test.echo", id),
      (j) => j?.state === "completed",
    );
    expect(job).toMatchObject({ state: "completed", retryCount: 0, output: { echoed: "HELLO" } });
    expect(runs).toEqual([{ word: "hello" }]);
  });

  it("retries a failing job with backoff, then completes it", async () => {
    await queue.define("test.flaky", { retryLimit: 3, retryDelay: 1, retryDelayMax: 2 });
    const attempts: { retryCount: number; at: number }[] = [];
    await queue.work("test.flaky", async (job) => {
      attempts.push({ retryCount: job.retryCount, at: Date.now() });
      if (attempts.length < 3) throw new Error(`outage ${attempts.length}`);
      return undefined;
    });
    const id = await queue.send("test.flaky", {});
    const job = await waitFor(
      () => queue.job("test.flaky", id),
      (j) => j?.state === "completed",
      20_000,
    );
    expect(job?.retryCount).toBe(2);
    expect(attempts.map((a) => a.retryCount)).toEqual([0, 1, 2]);
    // Each retry waited at least the retry delay (1 s).
    for (let i = 1; i < attempts.length; i += 1) {
      expect((attempts[i]?.at ?? 0) - (attempts[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(900);
    }
  });

  it("gives up after the retry limit and records the last error", async () => {
    await queue.define("test.broken", { retryLimit: 1, retryDelay: 1, retryDelayMax: 1 });
    let runs = 0;
    await queue.work("test.broken", async () => {
      runs += 1;
      throw new Error("still broken");
    });
    const id = await queue.send("test.broken", {});
    const job = await waitFor(
      () => queue.job("test.broken", id),
      (j) => j?.state === "failed",
      20_000,
    );
    expect(runs).toBe(2);
    expect(job?.output).toMatchObject({ message: "still broken", permanent: false });
  });

  it("fails a permanent error at once, without retries", async () => {
    await queue.define("test.refused", { retryLimit: 5, retryDelay: 1 });
    let runs = 0;
    await queue.work("test.refused", async () => {
      runs += 1;
      throw new Permanent("number refused");
    });
    const id = await queue.send("test.refused", {});
    const job = await waitFor(
      () => queue.job("test.refused", id),
      (j) => j?.state === "failed",
    );
    expect(job).toMatchObject({ retryCount: 0, output: { message: "number refused", permanent: true } });
    // Give a wrongly scheduled retry the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runs).toBe(1);
  });

  it("recognises permanent failures by their `permanent` flag only", () => {
    expect(isPermanentFailure(new Permanent("x"))).toBe(true);
    expect(isPermanentFailure(new Error("x"))).toBe(false);
    expect(isPermanentFailure({ permanent: true })).toBe(false);
  });

  it("keeps cron schedules in the database, read in Asia/Taipei by default", async () => {
    await queue.define("test.nightly");
    await queue.schedule("test.nightly", "0 3 * * *", { task: "nightly" });
    await queue.schedule("test.nightly", "0 4 * * 1", { task: "weekly" }, { key: "weekly", tz: "UTC" });
    const schedules = await queue.schedules("test.nightly");
    expect(schedules.map((s) => ({ key: s.key, cron: s.cron, timezone: s.timezone, data: s.data }))).toEqual([
      { key: "", cron: "0 3 * * *", timezone: "Asia/Taipei", data: { task: "nightly" } },
      { key: "weekly", cron: "0 4 * * 1", timezone: "UTC", data: { task: "weekly" } },
    ]);
    // Scheduling again replaces, never duplicates.
    await queue.schedule("test.nightly", "15 3 * * *", { task: "nightly" });
    expect((await queue.schedules("test.nightly")).map((s) => s.cron).sort()).toEqual(["0 4 * * 1", "15 3 * * *"]);
    await queue.unschedule("test.nightly", "weekly");
    expect((await queue.schedules("test.nightly")).map((s) => s.key)).toEqual([""]);
  });

  it("refuses to enqueue into an undefined queue", async () => {
    await expect(queue.send("test.never-defined", {})).rejects.toThrow();
  });
});

describe("two queue instances on one database", () => {
  it("process every job exactly once between them", async () => {
    const other = await startJobQueue({ connection: database.connection, logger, ...FAST });
    try {
      await queue.define("test.shared", { retryLimit: 0 });
      const seen: { id: string; by: string }[] = [];
      const handler = (by: string) => async (job: { id: string }) => {
        seen.push({ id: job.id, by });
        // Long enough that the other instance picks up the next job meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return undefined;
      };
      await queue.work("test.shared", handler("a"));
      await other.work("test.shared", handler("b"));

      const ids: string[] = [];
      for (let i = 0; i < 30; i += 1) ids.push(await queue.send("test.shared", { i }));
      await waitFor(
        async () => Promise.all(ids.map((id) => queue.job("test.shared", id))),
        (jobs) => jobs.every((j) => j?.state === "completed"),
        30_000,
      );
      const processed = seen.map((s) => s.id);
      expect(processed.slice().sort()).toEqual(ids.slice().sort());
      expect(new Set(processed).size).toBe(ids.length);
      expect(new Set(seen.map((s) => s.by))).toEqual(new Set(["a", "b"]));
    } finally {
      await other.stop(2000);
    }
  });
});

describe("stopping", () => {
  it("lets a running job finish before stop() returns", async () => {
    const own = await startJobQueue({ connection: database.connection, logger, ...FAST });
    await own.define("test.slow", { retryLimit: 0 });
    let finished = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    await own.work("test.slow", async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 800));
      finished = true;
      return undefined;
    });
    const id = await own.send("test.slow", {});
    await running;
    await own.stop(5000);
    expect(finished).toBe(true);
    expect(await queue.job("test.slow", id)).toMatchObject({ state: "completed" });
  });
});
