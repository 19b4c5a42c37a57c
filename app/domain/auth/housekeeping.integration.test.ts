import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../../server/db/client";
import { authUser, rateLimitCounter } from "../../../server/db/schema";
import { type JobQueue, startJobQueue } from "../../../server/jobs/queue";
import { createTestDatabase, type TestDatabase } from "../../../server/testing/database";
import { waitFor } from "../../../server/testing/wait";
import { ACCOUNT_HOUSEKEEPING_QUEUE, registerAccountHousekeeping } from "./housekeeping.server";

let testDb: TestDatabase;
let database: DatabaseHandle;
let queue: JobQueue;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "housekeeping" });
  database = await openDatabase(testDb.config);
  await database.migrate();
  queue = await startJobQueue({
    connection: database.connection,
    logger: pino({ level: "silent" }),
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 0.5,
  });
  await registerAccountHousekeeping(queue, database.db);
});

afterAll(async () => {
  await queue?.stop(2000);
  await database?.close();
  await testDb?.drop();
});

it("is scheduled hourly in Taipei time and removes abandoned sign-ups and ended limit windows", async () => {
  const schedules = await queue.schedules(ACCOUNT_HOUSEKEEPING_QUEUE);
  expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([["17 * * * *", "Asia/Taipei"]]);

  const old = new Date(Date.now() - 25 * 3_600_000);
  await database.db
    .insert(authUser)
    .values({ id: "abandoned-1", name: "", email: "x@phone.invalid", createdAt: old, updatedAt: old });
  await database.db
    .insert(rateLimitCounter)
    .values({ key: "otp:test:hour", windowStart: old, count: 3, expiresAt: old });

  const id = await queue.send(ACCOUNT_HOUSEKEEPING_QUEUE, {});
  const job = await waitFor(
    () => queue.job(ACCOUNT_HOUSEKEEPING_QUEUE, id),
    (j) => j?.state === "completed",
    15_000,
  );
  expect(job?.output).toMatchObject({ abandonedSignups: 1, expiredLimitWindows: 1 });
  expect(await database.db.select().from(authUser)).toHaveLength(0);
});
