import type { Database } from "@platform/db/client";
import { consoleSetting } from "@platform/db/schema";
import type { JobQueue } from "@platform/jobs/queue";
import { eq } from "drizzle-orm";
import {
  type AuditAlertLogger,
  type AuditAnchorConfig,
  type AuditLogVerification,
  signAuditHead,
  verifyAuditLog,
} from "./anchor.server";

/**
 * The chain check of `npm run audit:verify`, run hourly by the job queue (walking the whole chain on every page
 * view would grow with the log), against the signed head the job queue moves forward every minute
 * (anchor.server.ts). The console's audit page shows the last result and can run one now.
 */

export const AUDIT_CHECK_KEY = "audit.lastVerification";
export const AUDIT_CHECK_QUEUE = "audit.verify-chain";
/** Hourly, at 23 minutes past (one run across all instances). */
export const AUDIT_CHECK_CRON = "23 * * * *";
/** Every minute: the rows appended since the signed head are checked and the new end signed (anchor.server.ts). */
export const AUDIT_SIGN_QUEUE = "audit.sign-head";
export const AUDIT_SIGN_CRON = "* * * * *";

export type StoredAuditCheck = AuditLogVerification & { checkedAt: string };

/** What a check needs: the database, the signed head's key and file, and where to say that it failed. */
export type AuditCheckDeps = { db: Database; anchor: AuditAnchorConfig; logger?: AuditAlertLogger };

async function storeAuditCheck(db: Database, result: AuditLogVerification, now: Date): Promise<StoredAuditCheck> {
  const stored: StoredAuditCheck = { ...result, checkedAt: now.toISOString() };
  await db
    .insert(consoleSetting)
    .values({ key: AUDIT_CHECK_KEY, value: stored, updatedAt: now })
    .onConflictDoUpdate({ target: consoleSetting.key, set: { value: stored, updatedAt: now } });
  return stored;
}

/** Walks the chain, holds it against the signed head, and keeps the result for the console's status line. */
export async function runAuditCheck(deps: AuditCheckDeps, now = new Date()): Promise<StoredAuditCheck> {
  const result = await verifyAuditLog(deps.db, deps.anchor, { logger: deps.logger, now });
  return storeAuditCheck(deps.db, result, now);
}

/** The minute's step: signs the new end; a failure (a cut, a rewrite) goes to the console's status line at once. */
export async function runAuditSign(deps: AuditCheckDeps, now = new Date()): Promise<AuditLogVerification> {
  const result = await signAuditHead(deps.db, deps.anchor, { logger: deps.logger, now });
  if (!result.ok) await storeAuditCheck(deps.db, result, now);
  return result;
}

/** The last chain check (null before the first). */
export async function lastAuditCheck(db: Database): Promise<StoredAuditCheck | null> {
  const [row] = await db
    .select({ value: consoleSetting.value })
    .from(consoleSetting)
    .where(eq(consoleSetting.key, AUDIT_CHECK_KEY));
  const value = row?.value as StoredAuditCheck | undefined;
  return value && typeof value.ok === "boolean" && typeof value.checkedAt === "string" ? value : null;
}

/** The hourly chain check and the minute's signing of the head, on the job queue. */
export async function registerAuditCheck(jobs: JobQueue, deps: AuditCheckDeps): Promise<void> {
  await jobs.define(AUDIT_CHECK_QUEUE, { retryLimit: 2, retryDelay: 300, expireInSeconds: 30 * 60 });
  await jobs.work(AUDIT_CHECK_QUEUE, async () => {
    const result = await runAuditCheck(deps);
    return { ok: result.ok, rows: result.rows };
  });
  await jobs.schedule(AUDIT_CHECK_QUEUE, AUDIT_CHECK_CRON);
  await jobs.define(AUDIT_SIGN_QUEUE, { retryLimit: 0, expireInSeconds: 5 * 60, deleteAfterSeconds: 60 * 60 });
  await jobs.work(AUDIT_SIGN_QUEUE, async () => {
    const result = await runAuditSign(deps);
    return result.ok ? { ok: true, lastSeq: result.lastSeq } : { ok: false, reason: result.reason, seq: result.seq };
  });
  await jobs.schedule(AUDIT_SIGN_QUEUE, AUDIT_SIGN_CRON);
}
