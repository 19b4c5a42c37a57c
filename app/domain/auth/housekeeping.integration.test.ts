import { authUser, rateLimitCounter } from "@platform/db/schema";
import { jobQueueTestRig } from "@platform/testing/job-queue";
import { waitFor } from "@platform/testing/wait";
import { expect, it } from "vitest";
import { ACCOUNT_HOUSEKEEPING_QUEUE, registerAccountHousekeeping } from "./housekeeping.server";

const rig = jobQueueTestRig("housekeeping", registerAccountHousekeeping);

it("is scheduled hourly in Taipei time and removes abandoned sign-ups and ended limit windows", async () => {
  const schedules = await rig.queue.schedules(ACCOUNT_HOUSEKEEPING_QUEUE);
  expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([["17 * * * *", "Asia/Taipei"]]);

  const old = new Date(Date.now() - 25 * 3_600_000);
  await rig.database.db
    .insert(authUser)
    .values({ id: "abandoned-1", name: "", email: "x@phone.invalid", createdAt: old, updatedAt: old });
  await rig.database.db
    .insert(rateLimitCounter)
    .values({ key: "otp:test:hour", windowStart: old, count: 3, expiresAt: old });

  const id = await rig.queue.send(ACCOUNT_HOUSEKEEPING_QUEUE, {});
  const job = await waitFor(
    () => rig.queue.job(ACCOUNT_HOUSEKEEPING_QUEUE, id),
    (j) => j?.state === "completed",
    15_000,
  );
  expect(job?.output).toMatchObject({ abandonedSignups: 1, expiredLimitWindows: 1 });
  expect(await rig.database.db.select().from(authUser)).toHaveLength(0);
});
