import type { Database } from "@platform/db/client";
import { apiKey, auditLog, consoleSetting, staffAccount } from "@platform/db/schema";
import type { JobQueue } from "@platform/jobs/queue";
import { and, desc, eq, gte, like, lt, type SQL } from "drizzle-orm";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import {
  type AuditAlertLogger,
  type AuditAnchorConfig,
  type AuditLogVerification,
  signAuditHead,
  verifyAuditLog,
} from "./anchor.server";

/**
 * Reading the audit log in the console (admins, `audit.view`): filters by who, action, target, store and
 * Taipei dates, newest first with keyset pagination on `seq`; and the chain check of `npm run audit:verify`,
 * run hourly by the job queue (walking the whole chain on every page view would grow with the log), against
 * the signed head the job queue moves forward every minute (anchor.server.ts).
 */

export const AUDIT_PAGE_SIZE = 50;
/** The longest date range a search may span (a wider one is refused, not silently cut). */
export const AUDIT_MAX_RANGE_DAYS = 366 * 5;

export type AuditFilters = {
  actorUserId?: string | null;
  /** An action or an action prefix ending in a dot: `staff.` finds every staff action. */
  action?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  storeId?: string | null;
  /** Inclusive start and exclusive end instants (the route turns Taipei dates into these). */
  from?: Date | null;
  to?: Date | null;
  /** Rows with seq below this (the next page). */
  before?: number | null;
};

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One page of the log, newest first, with who acted (a staff member's name, or a POS key's name). */
export async function searchAuditLog(db: Database, actor: StaffActor, filters: AuditFilters) {
  requirePermission(actor, "audit.view");
  const where: (SQL | undefined)[] = [
    filters.actorUserId ? eq(auditLog.actorUserId, filters.actorUserId) : undefined,
    filters.action
      ? filters.action.endsWith(".")
        ? like(auditLog.action, `${escapeLike(filters.action)}%`)
        : eq(auditLog.action, filters.action)
      : undefined,
    filters.targetType ? eq(auditLog.targetType, filters.targetType) : undefined,
    filters.targetId ? eq(auditLog.targetId, filters.targetId) : undefined,
    filters.storeId ? eq(auditLog.storeId, filters.storeId) : undefined,
    filters.from ? gte(auditLog.occurredAt, filters.from) : undefined,
    filters.to ? lt(auditLog.occurredAt, filters.to) : undefined,
    filters.before ? lt(auditLog.seq, filters.before) : undefined,
  ];
  const rows = await db
    .select({
      seq: auditLog.seq,
      occurredAt: auditLog.occurredAt,
      actorType: auditLog.actorType,
      actorUserId: auditLog.actorUserId,
      actorRole: auditLog.actorRole,
      actorName: staffAccount.displayName,
      apiKeyName: apiKey.name,
      storeId: auditLog.storeId,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      changes: auditLog.changes,
      ip: auditLog.ip,
      requestId: auditLog.requestId,
    })
    .from(auditLog)
    .leftJoin(staffAccount, eq(staffAccount.userId, auditLog.actorUserId))
    .leftJoin(apiKey, eq(apiKey.id, auditLog.apiKeyId))
    .where(and(...where))
    .orderBy(desc(auditLog.seq))
    .limit(AUDIT_PAGE_SIZE + 1);
  const more = rows.length > AUDIT_PAGE_SIZE;
  const page = more ? rows.slice(0, AUDIT_PAGE_SIZE) : rows;
  return { rows: page, nextBefore: more ? (page.at(-1)?.seq ?? null) : null };
}

/** The actions that appear in the log (for the filter's list), most recent kinds first. */
export async function auditActions(db: Database, actor: StaffActor): Promise<string[]> {
  requirePermission(actor, "audit.view");
  const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action).limit(200);
  return rows.map((r) => r.action);
}

/** Everyone who can appear as the "who" of a console row (the staff, disabled ones too), by name. */
export async function auditStaff(db: Database, actor: StaffActor) {
  requirePermission(actor, "audit.view");
  return db
    .select({ userId: staffAccount.userId, displayName: staffAccount.displayName })
    .from(staffAccount)
    .orderBy(staffAccount.displayName)
    .limit(500);
}

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
