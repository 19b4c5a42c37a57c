import type { Database } from "@platform/db/client";
import { apiKey, auditLog, staffAccount } from "@platform/db/schema";
import { and, desc, eq, gte, like, lt, type SQL } from "drizzle-orm";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";

/**
 * Reading the audit log in the console (admins, `audit.view`): filters by who, action, target, store and
 * Taipei dates, newest first with keyset pagination on `seq`. The page's status line reads the chain check
 * (chain-check.server.ts).
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
    filters.before ? lt(auditLog.pos, filters.before) : undefined,
  ];
  const rows = await db
    .select({
      // The order of appending across the global chain and the stores' chains (ADR 039): the page's order and cursor.
      pos: auditLog.pos,
      chain: auditLog.chain,
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
    .orderBy(desc(auditLog.pos))
    .limit(AUDIT_PAGE_SIZE + 1);
  const more = rows.length > AUDIT_PAGE_SIZE;
  const page = more ? rows.slice(0, AUDIT_PAGE_SIZE) : rows;
  return { rows: page, nextBefore: more ? (page.at(-1)?.pos ?? null) : null };
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
