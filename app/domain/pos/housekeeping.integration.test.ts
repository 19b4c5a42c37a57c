import { apiIdempotency } from "@platform/db/schema";
import { jobQueueTestRig } from "@platform/testing/job-queue";
import { insertTestStores } from "@platform/testing/stores";
import { waitFor } from "@platform/testing/wait";
import { expect, it } from "vitest";
import { createApiKey } from "./api-keys.server";
import {
  IDEMPOTENCY_RETENTION_DAYS,
  POS_HOUSEKEEPING_CRON,
  POS_HOUSEKEEPING_QUEUE,
  purgeIdempotencyRecords,
  registerPosHousekeeping,
} from "./housekeeping.server";

const rig = jobQueueTestRig("pos_housekeeping", registerPosHousekeeping);

const DAY = 86_400_000;

it("schedules the purge nightly in Taipei time", async () => {
  const schedules = await rig.queue.schedules(POS_HOUSEKEEPING_QUEUE);
  expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([[POS_HOUSEKEEPING_CRON, "Asia/Taipei"]]);
});

it("deletes stored answers older than the retention, and only those, when the job runs", async () => {
  const { db } = rig.database;
  await insertTestStores(db, ["TPE01"]);
  const { key } = await createApiKey(db, { storeId: "TPE01", name: "till" });
  const now = Date.now();
  const row = (name: string, ageDays: number, status: number | null = 201) => ({
    apiKeyId: key.id,
    key: name,
    requestHash: "h",
    status,
    response: status ? { ok: true } : null,
    createdAt: new Date(now - ageDays * DAY),
  });
  await db
    .insert(apiIdempotency)
    .values([
      row("fresh", 0),
      row("six-days", IDEMPOTENCY_RETENTION_DAYS - 1),
      row("old", IDEMPOTENCY_RETENTION_DAYS + 1),
      row("stuck", 30, null),
    ]);
  const id = await rig.queue.send(POS_HOUSEKEEPING_QUEUE, {});
  const job = await waitFor(
    () => rig.queue.job(POS_HOUSEKEEPING_QUEUE, id),
    (j) => j?.state === "completed",
    15_000,
  );
  expect(job?.output).toEqual({ idempotencyRecords: 2 });
  const left = await db.select({ key: apiIdempotency.key }).from(apiIdempotency);
  expect(left.map((r) => r.key).sort()).toEqual(["fresh", "six-days"]);
  // A second run finds nothing more.
  expect(await purgeIdempotencyRecords(db)).toBe(0);
});
