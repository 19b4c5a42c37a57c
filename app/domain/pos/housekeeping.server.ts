import type { Database } from "@platform/db/client";
import { apiIdempotency, apiRateCounter, consoleIdempotency } from "@platform/db/schema";
import type { JobQueue } from "@platform/jobs/queue";
import { lt } from "drizzle-orm";

export const POS_HOUSEKEEPING_QUEUE = "pos.purge-idempotency";
export const POS_HOUSEKEEPING_CRON = "40 3 * * *";

/**
 * How long the first answer to an Idempotency-Key is kept for replay. A till retries within seconds
 * or, after a network outage, within hours; a week covers a store that was offline over a weekend.
 * After that, a retried purchase is still one purchase (the receipt number is unique per store) and a
 * retried refund still books once (its ledger key), but the answer is computed afresh.
 */
export const IDEMPOTENCY_RETENTION_DAYS = 7;

/**
 * Deletes the stored answers older than the retention (a stuck in-progress row included): the POS
 * API's and the console forms' (ADR 022), which are kept as long.
 */
export async function purgeIdempotencyRecords(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_DAYS * 86_400_000);
  const deleted = await db
    .delete(apiIdempotency)
    .where(lt(apiIdempotency.createdAt, cutoff))
    .returning({ key: apiIdempotency.key });
  const forms = await db
    .delete(consoleIdempotency)
    .where(lt(consoleIdempotency.createdAt, cutoff))
    .returning({ key: consoleIdempotency.key });
  // The per-key counters of windows that ended (kept one hour for a look after an incident).
  await db.delete(apiRateCounter).where(lt(apiRateCounter.windowStart, new Date(now.getTime() - 3_600_000)));
  return deleted.length + forms.length;
}

/** Nightly at 03:40 Taipei (one run across all instances, ADR 005). */
export async function registerPosHousekeeping(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(POS_HOUSEKEEPING_QUEUE, { retryLimit: 3, retryDelay: 300, expireInSeconds: 30 * 60 });
  await jobs.work(POS_HOUSEKEEPING_QUEUE, async () => ({ idempotencyRecords: await purgeIdempotencyRecords(db) }));
  await jobs.schedule(POS_HOUSEKEEPING_QUEUE, POS_HOUSEKEEPING_CRON);
}
