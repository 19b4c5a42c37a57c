import { pointLot } from "@platform/db/schema";
import { jobQueueTestRig } from "@platform/testing/job-queue";
import { waitFor } from "@platform/testing/wait";
import { expect, it } from "vitest";
import { EVALUATE_TIERS_QUEUE, EXPIRE_POINTS_QUEUE, LOYALTY_SCHEDULES, registerLoyaltyJobs } from "./jobs.server";
import { adjustPoints } from "./points.server";
import { ledgerTotals, newMember } from "./testing.server";

const rig = jobQueueTestRig("loyalty_jobs", registerLoyaltyJobs);

it("schedules the nightly jobs in Taipei time", async () => {
  for (const [name, cron] of LOYALTY_SCHEDULES) {
    const schedules = await rig.queue.schedules(name);
    expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([[cron, "Asia/Taipei"]]);
  }
});

it("books the expiry of due lots once when the expiry job runs, and evaluates tiers", async () => {
  const m = await newMember(rig.database.db);
  // Earned in 2024: expired at the end of 2025.
  await adjustPoints(
    rig.database.db,
    { memberId: m.id, amount: 120, reason: "old", idempotencyKey: "old" },
    new Date("2024-05-01T04:00:00Z"),
  );
  const run = async () => {
    const id = await rig.queue.send(EXPIRE_POINTS_QUEUE, {});
    return waitFor(
      () => rig.queue.job(EXPIRE_POINTS_QUEUE, id),
      (j) => j?.state === "completed",
      15_000,
    );
  };
  expect((await run())?.output).toMatchObject({ entries: 1, points: 120 });
  expect((await run())?.output).toMatchObject({ entries: 0, points: 0 });
  expect(await ledgerTotals(rig.database.db, m.id)).toEqual({ balance: 0, ledgerSum: 0, lotsRemaining: 0 });
  expect((await rig.database.db.select().from(pointLot)).every((lot) => lot.remaining === 0)).toBe(true);

  const id = await rig.queue.send(EVALUATE_TIERS_QUEUE, {});
  const job = await waitFor(
    () => rig.queue.job(EVALUATE_TIERS_QUEUE, id),
    (j) => j?.state === "completed",
    15_000,
  );
  expect(job?.output).toMatchObject({ upgraded: 0, downgraded: 0 });
});
