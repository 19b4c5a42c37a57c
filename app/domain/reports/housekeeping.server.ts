import type { Database } from "@platform/db/client";
import type { JobQueue } from "@platform/jobs/queue";
import { sql } from "drizzle-orm";
import { taipeiIsoDate } from "~/lib/time";
import { addIsoDays } from "./filters";

export const REPORTS_COMPACT_QUEUE = "reports.compact";
export const REPORTS_COMPACT_CRON = "20 3 * * *";

/**
 * Folds the summary rows of the days before yesterday (Taipei) into one shard per day and store (ADR 025,
 * `report_compact`): the shards only spare today's writers from waiting on each other; a year of history then
 * reads days × stores rows.
 */
export async function compactReports(db: Database, now = new Date()): Promise<void> {
  // The summary triggers' lock (migrations 0024, 0054): a late receipt's commit never crosses the compaction.
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REPORTS_LOCK})`);
    await tx.execute(sql`select report_compact(${addIsoDays(taipeiIsoDate(now), -1)}::date)`);
  });
}

/** The advisory lock every commit's summary updates take first (taken by the report_* trigger functions since drizzle/0054). */
const REPORTS_LOCK = 2025112501;

/** Nightly at 03:20 Taipei (one run across all instances, ADR 005). */
export async function registerReportsHousekeeping(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(REPORTS_COMPACT_QUEUE, { retryLimit: 3, retryDelay: 300, expireInSeconds: 30 * 60 });
  await jobs.work(REPORTS_COMPACT_QUEUE, async () => {
    await compactReports(db);
    return { compacted: true };
  });
  await jobs.schedule(REPORTS_COMPACT_QUEUE, REPORTS_COMPACT_CRON);
}
