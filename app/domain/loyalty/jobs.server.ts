import type { Database } from "@platform/db/client";
import type { JobQueue } from "@platform/jobs/queue";
import { expirePoints, grantBirthdayPoints } from "./points.server";
import { evaluateTiers } from "./tiers.server";

export const EXPIRE_POINTS_QUEUE = "loyalty.expire-points";
export const BIRTHDAY_POINTS_QUEUE = "loyalty.birthday-points";
export const EVALUATE_TIERS_QUEUE = "loyalty.evaluate-tiers";

/** Nightly schedules (Asia/Taipei cron; pg-boss creates one job per slot across all instances). */
export const LOYALTY_SCHEDULES = [
  [EXPIRE_POINTS_QUEUE, "5 0 * * *"],
  [BIRTHDAY_POINTS_QUEUE, "10 0 * * *"],
  [EVALUATE_TIERS_QUEUE, "20 0 * * *"],
] as const;

/**
 * Registers the nightly loyalty jobs. Every handler is idempotent (ledger keys and the account
 * lock), so a job that runs again after a crashed attempt books nothing twice.
 */
export async function registerLoyaltyJobs(jobs: JobQueue, db: Database): Promise<void> {
  const policy = { retryLimit: 3, retryDelay: 60, expireInSeconds: 30 * 60 };
  await jobs.define(EXPIRE_POINTS_QUEUE, policy);
  await jobs.define(BIRTHDAY_POINTS_QUEUE, policy);
  await jobs.define(EVALUATE_TIERS_QUEUE, policy);
  await jobs.work(EXPIRE_POINTS_QUEUE, async () => expirePoints(db, new Date()));
  await jobs.work(BIRTHDAY_POINTS_QUEUE, async () => grantBirthdayPoints(db, new Date()));
  await jobs.work(EVALUATE_TIERS_QUEUE, async () => evaluateTiers(db, new Date()));
  for (const [queue, cron] of LOYALTY_SCHEDULES) await jobs.schedule(queue, cron);
}
