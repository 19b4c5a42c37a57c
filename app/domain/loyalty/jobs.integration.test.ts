import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../../server/db/client";
import { pointLot } from "../../../server/db/schema";
import { type JobQueue, startJobQueue } from "../../../server/jobs/queue";
import { createTestDatabase, type TestDatabase } from "../../../server/testing/database";
import { waitFor } from "../../../server/testing/wait";
import { EVALUATE_TIERS_QUEUE, EXPIRE_POINTS_QUEUE, LOYALTY_SCHEDULES, registerLoyaltyJobs } from "./jobs.server";
import { adjustPoints } from "./points.server";
import { ledgerTotals, newMember } from "./testing.server";

let testDb: TestDatabase;
let database: DatabaseHandle;
let queue: JobQueue;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "loyalty_jobs" });
  database = await openDatabase(testDb.config);
  await database.migrate();
  queue = await startJobQueue({
    connection: database.connection,
    logger: pino({ level: "silent" }),
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 0.5,
  });
  await registerLoyaltyJobs(queue, database.db);
});

afterAll(async () => {
  await queue?.stop(2000);
  await database?.close();
  await testDb?.drop();
});

it("schedules the nightly jobs in Taipei time", async () => {
  for (const [name, cron] of LOYALTY_SCHEDULES) {
    const schedules = await queue.schedules(name);
    expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([[cron, "Asia/Taipei"]]);
  }
});

it("books the expiry of due lots once when the expiry job runs, and evaluates tiers", async () => {
  const m = await newMember(database.db);
  // Earned in 2024: expired at the end of 2025.
  await adjustPoints(
    database.db,
    { memberId: m.id, amount: 120, reason: "old", idempotencyKey: "old" },
    new Date("2024-05-01T04:00:00Z"),
  );
  const run = async () => {
    const id = await queue.send(EXPIRE_POINTS_QUEUE, {});
    return waitFor(
      () => queue.job(EXPIRE_POINTS_QUEUE, id),
      (j) => j?.state === "completed",
      15_000,
    );
  };
  expect((await run())?.output).toMatchObject({ entries: 1, points: 120 });
  expect((await run())?.output).toMatchObject({ entries: 0, points: 0 });
  expect(await ledgerTotals(database.db, m.id)).toEqual({ balance: 0, ledgerSum: 0, lotsRemaining: 0 });
  expect((await database.db.select().from(pointLot)).every((lot) => lot.remaining === 0)).toBe(true);

  const id = await queue.send(EVALUATE_TIERS_QUEUE, {});
  const job = await waitFor(
    () => queue.job(EVALUATE_TIERS_QUEUE, id),
    (j) => j?.state === "completed",
    15_000,
  );
  expect(job?.output).toMatchObject({ upgraded: 0, downgraded: 0 });
});
