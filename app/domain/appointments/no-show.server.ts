import type { Database } from "@platform/db/client";
import type { JobQueue } from "@platform/jobs/queue";
import { markNoShows } from "./visits.server";

export const NO_SHOW_QUEUE = "appointments.no-show";
/** Every 10 minutes: a booking becomes a no-show within 40 minutes of its slot's end (30 min grace). */
export const NO_SHOW_CRON = "*/10 * * * *";

/**
 * The no-show job (issue 37, ADR 045): one statement marks every booking nobody checked in, 30 minutes after its
 * slot ended. Idempotent (the status decides), so a retried or doubled run marks nothing twice.
 */
export async function registerNoShowJob(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(NO_SHOW_QUEUE, { retryLimit: 3, retryDelay: 60, expireInSeconds: 5 * 60 });
  await jobs.work(NO_SHOW_QUEUE, async () => markNoShows(db, new Date()));
  await jobs.schedule(NO_SHOW_QUEUE, NO_SHOW_CRON);
}
