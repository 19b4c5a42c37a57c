import { type Database, rowsOf } from "@platform/db/client";
import type { JobQueue } from "@platform/jobs/queue";
import { sql } from "drizzle-orm";

export const WEBHOOK_HOUSEKEEPING_QUEUE = "webhooks.purge-log";
export const WEBHOOK_HOUSEKEEPING_CRON = "50 3 * * *";

/**
 * How long a finished delivery (delivered, or given up after three days of retries) and its attempts stay in the
 * delivery log (ADR 054 "Later (2026-12-07, the outbox's per-event cost)"). A receiver that lost an event asks
 * within days; 30 days leaves a month for a manual redelivery and keeps the outbox from growing without end. Open
 * rows (pending, being sent) are never purged, however old: an event of a disabled endpoint waits until it is
 * enabled.
 */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;
const PURGE_BATCH = 5000;

/**
 * Deletes finished deliveries whose last attempt (`due_at`, set when a row is recorded delivered or failed) is older
 * than the retention, their attempt rows with them (the foreign key's cascade), in batches of 5,000 per endpoint in
 * `seq` order from webhook_delivery_done_idx, so a batch is a short transaction and the oldest go first.
 */
export async function purgeWebhookLog(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_LOG_RETENTION_DAYS * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with old as (
        select x.id from webhook_endpoint e
          cross join lateral (
            select d.id from webhook_delivery d
             where d.endpoint_id = e.id and d.status in ('delivered', 'failed') and d.due_at < ${cutoff}::timestamptz
             order by d.seq
             limit ${PURGE_BATCH}) x),
      gone as (delete from webhook_delivery d using old where d.id = old.id returning d.id)
      select count(*)::int as n from gone`);
    const n = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
    total += n;
    if (n === 0) return total;
  }
}

/** Nightly at 03:50 Taipei (one run across all instances, ADR 005). */
export async function registerWebhookHousekeeping(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(WEBHOOK_HOUSEKEEPING_QUEUE, { retryLimit: 3, retryDelay: 300, expireInSeconds: 30 * 60 });
  await jobs.work(WEBHOOK_HOUSEKEEPING_QUEUE, async () => ({ deliveries: await purgeWebhookLog(db) }));
  await jobs.schedule(WEBHOOK_HOUSEKEEPING_QUEUE, WEBHOOK_HOUSEKEEPING_CRON);
}
