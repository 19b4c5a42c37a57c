import type { Database } from "@platform/db/client";
import type { JobQueue } from "@platform/jobs/queue";
import { purgeUsedIdTokens } from "../line/line.server";
import { purgeWebhookEvents } from "../line/webhook.server";
import { deleteAbandonedSignups } from "./flows.server";
import { purgeExpiredLimits } from "./rate-limits.server";

export const ACCOUNT_HOUSEKEEPING_QUEUE = "accounts.housekeeping";

/**
 * Hourly (Asia/Taipei cron, one run across all instances): deletes sign-ups abandoned for 24 hours
 * rate-limit windows that have ended, and the hashes of
 * LINE ID tokens that have expired, and LINE webhook event ids older than a week.
 */
export async function registerAccountHousekeeping(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(ACCOUNT_HOUSEKEEPING_QUEUE);
  await jobs.work(ACCOUNT_HOUSEKEEPING_QUEUE, async () => {
    const abandonedSignups = await deleteAbandonedSignups(db);
    const expiredLimitWindows = await purgeExpiredLimits(db);
    const expiredLineTokens = await purgeUsedIdTokens(db);
    const oldLineWebhookEvents = await purgeWebhookEvents(db);
    return { abandonedSignups, expiredLimitWindows, expiredLineTokens, oldLineWebhookEvents };
  });
  await jobs.schedule(ACCOUNT_HOUSEKEEPING_QUEUE, "17 * * * *");
}
