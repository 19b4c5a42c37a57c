import { appointment } from "@platform/db/schema";
import { jobQueueTestRig } from "@platform/testing/job-queue";
import { insertTestStores } from "@platform/testing/stores";
import { waitFor } from "@platform/testing/wait";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { NO_SHOW_CRON, NO_SHOW_QUEUE, registerNoShowJob } from "./no-show.server";
import { bookTestAppointment } from "./testing.server";

/** The no-show job (issue 37, ADR 045) as registered: its schedule, and one run through the queue. */
const rig = jobQueueTestRig("appointments_no_show", registerNoShowJob);

it("is scheduled every 10 minutes in Taipei time", async () => {
  const schedules = await rig.queue.schedules(NO_SHOW_QUEUE);
  expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([[NO_SHOW_CRON, "Asia/Taipei"]]);
});

it("marks a booking whose slot ended over 30 minutes ago, and not one that ends later, when the job runs", async () => {
  const { db } = rig.database;
  await insertTestStores(db, ["no-show-store"]);
  const now = Date.now();
  const missed = await bookTestAppointment(db, {
    storeId: "no-show-store",
    startsAt: new Date(now - 2 * 3_600_000),
  });
  const later = await bookTestAppointment(db, { storeId: "no-show-store", startsAt: new Date(now - 10 * 60_000) });
  const id = await rig.queue.send(NO_SHOW_QUEUE, {});
  const job = await waitFor(
    () => rig.queue.job(NO_SHOW_QUEUE, id),
    (j) => j?.state === "completed",
    15_000,
  );
  expect(job?.output).toEqual({ marked: 1 });
  const status = async (appointmentId: string) =>
    (await db.select().from(appointment).where(eq(appointment.id, appointmentId)))[0]?.status;
  expect(await status(missed.id)).toBe("no_show");
  expect(await status(later.id)).toBe("booked");
});
