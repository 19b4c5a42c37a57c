import type { Database } from "@platform/db/client";
import {
  auditLog,
  authUser,
  staffAccount,
  staffInvitation,
  staffRecoveryCode,
  staffSession,
  staffStore,
  staffTotp,
} from "@platform/db/schema";
import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, isNull, max, or, sql } from "drizzle-orm";
import type { Locale } from "~/lib/i18n";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { limitCount, resetLimit } from "../auth/rate-limits.server";
import { otherStaffMember, setStaffDisabled, updateStaffAccess } from "./accounts.server";
import type { StaffActor } from "./actor";
import { setStaffCode } from "./clerk.server";
import type { StaffIntent } from "./forms";
import { requirePermission } from "./guard.server";
import { isStaffRole, type StaffRole } from "./permissions";
import { endAllConsoleSessions, isSecondFactorLocked, secondFactorLimit, staffProfile } from "./sessions.server";
import { storeChoicesFor } from "./store-choices.server";

/**
 * The console's staff pages (admins, `staff.manage`): who is on the staff, open invitations, one
 * person's access and recent actions, and a second-factor reset. Writes go through the same permission
 * check and write their audit row in the same transaction (ADR 020).
 */

export type StaffStatusFilter = "active" | "disabled" | "all";

export type StaffListRow = {
  userId: string;
  displayName: string;
  role: StaffRole;
  email: string | null;
  phoneNumber: string | null;
  storeIds: string[];
  disabled: boolean;
  enrolled: boolean;
  lastSeenAt: Date | null;
  createdAt: Date;
};

/** A search term as typed: trimmed, at most 100 characters, LIKE's own characters taken literally. */
function likePattern(q: string): string | null {
  const value = q.trim().slice(0, 100);
  if (!value) return null;
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function contactOf(email: string | null): string | null {
  // Phone-only logins carry a placeholder address (flows.server placeholderEmail): not a contact.
  return email && !email.endsWith(".invalid") ? email : null;
}

/**
 * Every staff member (a staff list is short: tens of people), filtered by a search over name, e-mail and
 * phone and by status, sorted by name. Admins first, then managers, then clerks.
 */
export async function listStaff(
  db: Database,
  actor: StaffActor,
  options: { q?: string; status?: StaffStatusFilter } = {},
): Promise<StaffListRow[]> {
  requirePermission(actor, "staff.manage");
  const pattern = likePattern(options.q ?? "");
  const digits = (options.q ?? "").replace(/\D/g, "");
  const status = options.status ?? "active";
  const rows = await db
    .select({
      userId: staffAccount.userId,
      displayName: staffAccount.displayName,
      role: authUser.role,
      email: authUser.email,
      phoneNumber: authUser.phoneNumber,
      disabledAt: staffAccount.disabledAt,
      createdAt: staffAccount.createdAt,
      enrolledAt: staffTotp.confirmedAt,
      lastSeenAt: sql<Date | null>`(select ${max(staffSession.lastSeenAt)} from ${staffSession} where ${staffSession.userId} = ${staffAccount.userId})`,
    })
    .from(staffAccount)
    .innerJoin(authUser, eq(authUser.id, staffAccount.userId))
    .leftJoin(staffTotp, eq(staffTotp.userId, staffAccount.userId))
    .where(
      and(
        status === "active"
          ? isNull(staffAccount.disabledAt)
          : status === "disabled"
            ? isNotNull(staffAccount.disabledAt)
            : undefined,
        pattern
          ? or(
              ilike(staffAccount.displayName, pattern),
              ilike(authUser.email, pattern),
              digits.length >= 3 ? ilike(authUser.phoneNumber, `%${digits.replace(/^0/, "")}%`) : undefined,
            )
          : undefined,
      ),
    )
    .orderBy(
      sql`case ${authUser.role} when 'admin' then 0 when 'manager' then 1 else 2 end`,
      asc(staffAccount.displayName),
      asc(staffAccount.userId),
    );
  const staff = rows.filter((r) => isStaffRole(r.role));
  const ids = staff.map((r) => r.userId);
  const stores = ids.length
    ? await db
        .select({ userId: staffStore.userId, storeId: staffStore.storeId })
        .from(staffStore)
        .where(inArray(staffStore.userId, ids))
    : [];
  return staff.map((r) => ({
    userId: r.userId,
    displayName: r.displayName,
    role: r.role as StaffRole,
    email: contactOf(r.email),
    phoneNumber: r.phoneNumber,
    storeIds: stores
      .filter((s) => s.userId === r.userId)
      .map((s) => s.storeId)
      .sort(),
    disabled: r.disabledAt !== null,
    enrolled: r.enrolledAt !== null,
    lastSeenAt: r.lastSeenAt ? new Date(r.lastSeenAt) : null,
    createdAt: r.createdAt,
  }));
}

/** Invitations that can still be accepted (not used, not revoked, not expired), newest first. */
export async function openInvitations(db: Database, actor: StaffActor, now = new Date()) {
  requirePermission(actor, "staff.manage");
  return db
    .select({
      id: staffInvitation.id,
      email: staffInvitation.email,
      phoneNumber: staffInvitation.phoneNumber,
      displayName: staffInvitation.displayName,
      role: staffInvitation.role,
      storeIds: staffInvitation.storeIds,
      createdAt: staffInvitation.createdAt,
      expiresAt: staffInvitation.expiresAt,
      invitedBy: staffAccount.displayName,
    })
    .from(staffInvitation)
    .leftJoin(staffAccount, eq(staffAccount.userId, staffInvitation.invitedByUserId))
    .where(
      and(isNull(staffInvitation.acceptedAt), isNull(staffInvitation.revokedAt), gt(staffInvitation.expiresAt, now)),
    )
    .orderBy(desc(staffInvitation.createdAt))
    .limit(100);
}

/**
 * The staff list page (`listStaff` and `openInvitations`) shaped for the page: each person's and each invitation's
 * contact, and their stores by name (null for an admin, who works at every store).
 */
export async function staffListPage(
  db: Database,
  actor: StaffActor,
  query: { q: string; status: StaffStatusFilter },
  now: Date,
  locale: Locale,
) {
  const [staff, invitations, stores] = await Promise.all([
    listStaff(db, actor, query),
    openInvitations(db, actor, now),
    storeChoicesFor(db, actor, locale),
  ]);
  const storeName = new Map(stores.map((s) => [s.id, s.name]));
  const names = (role: string, ids: readonly string[]) =>
    role === "admin" ? null : ids.map((id) => storeName.get(id) ?? id);
  return {
    staff: staff.map((s) => ({
      userId: s.userId,
      displayName: s.displayName,
      role: s.role,
      contact: s.email ?? s.phoneNumber ?? "",
      stores: names(s.role, s.storeIds),
      disabled: s.disabled,
      enrolled: s.enrolled,
      lastSeenAt: s.lastSeenAt?.toISOString() ?? null,
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      displayName: i.displayName,
      contact: i.email ?? i.phoneNumber ?? "",
      role: i.role,
      stores: names(i.role, i.storeIds),
      invitedBy: i.invitedBy,
      expiresAt: i.expiresAt.toISOString(),
    })),
  };
}

export type StaffDetail = StaffListRow & {
  recoveryCodesLeft: number;
  sessions: number;
  /** Too many wrong second-factor codes today: the second factor is locked (liftSecondFactorLock). */
  secondFactorLocked: boolean;
  /** The till's staff code (ADR 042), null until an admin sets one. */
  staffCode: string | null;
};

/** One staff member, for their page; null when the user is not on the staff. */
export async function staffDetail(
  db: Database,
  actor: StaffActor,
  userId: string,
  now = new Date(),
): Promise<StaffDetail | null> {
  requirePermission(actor, "staff.manage");
  const profile = await staffProfile(db, userId);
  if (!profile) return null;
  const [row] = await db
    .select({
      email: authUser.email,
      phoneNumber: authUser.phoneNumber,
      createdAt: staffAccount.createdAt,
      enrolledAt: staffTotp.confirmedAt,
      staffCode: staffAccount.staffCode,
    })
    .from(staffAccount)
    .innerJoin(authUser, eq(authUser.id, staffAccount.userId))
    .leftJoin(staffTotp, eq(staffTotp.userId, staffAccount.userId))
    .where(eq(staffAccount.userId, userId));
  const [sessions] = await db
    .select({ n: sql<number>`count(*)::int`, lastSeenAt: max(staffSession.lastSeenAt) })
    .from(staffSession)
    .where(and(eq(staffSession.userId, userId), isNotNull(staffSession.secondFactorAt)));
  const [codes] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffRecoveryCode)
    .where(and(eq(staffRecoveryCode.userId, userId), isNull(staffRecoveryCode.usedAt)));
  return {
    userId,
    displayName: profile.displayName,
    role: profile.role,
    email: contactOf(row?.email ?? null),
    phoneNumber: row?.phoneNumber ?? null,
    storeIds: profile.storeIds,
    disabled: profile.disabled,
    enrolled: Boolean(row?.enrolledAt),
    lastSeenAt: sessions?.lastSeenAt ? new Date(sessions.lastSeenAt) : null,
    createdAt: row?.createdAt ?? new Date(0),
    recoveryCodesLeft: codes?.n ?? 0,
    sessions: sessions?.n ?? 0,
    staffCode: row?.staffCode ?? null,
    secondFactorLocked: await isSecondFactorLocked(db, userId, now),
  };
}

/** What a staff member did lately (their rows of the audit log, newest first). */
export async function staffRecentActions(db: Database, actor: StaffActor, userId: string, limit = 20) {
  requirePermission(actor, "staff.manage");
  return db
    .select({
      seq: auditLog.seq,
      occurredAt: auditLog.occurredAt,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      storeId: auditLog.storeId,
      changes: auditLog.changes,
    })
    .from(auditLog)
    .where(eq(auditLog.actorUserId, userId))
    .orderBy(desc(auditLog.seq))
    .limit(Math.min(Math.max(limit, 1), 100));
}

/**
 * Resets a staff member's second factor (a lost phone with the recovery codes gone): the authenticator and
 * the recovery codes are removed and every console session ends, so the next login must enrol again
 * before the console opens. Nobody resets their own.
 */
export async function resetSecondFactor(
  db: Database,
  actor: StaffActor,
  userId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  await otherStaffMember(db, actor, userId, "You cannot reset your own second factor");
  await auditedTx(db, audit, now, async (tx, record) => {
    const removed = await tx
      .delete(staffTotp)
      .where(eq(staffTotp.userId, userId))
      .returning({ confirmedAt: staffTotp.confirmedAt });
    const codes = await tx
      .delete(staffRecoveryCode)
      .where(eq(staffRecoveryCode.userId, userId))
      .returning({ id: staffRecoveryCode.id });
    const sessions = await endAllConsoleSessions(tx, userId);
    // Nothing to reset (a simultaneous reset did it): nothing to audit either.
    if (removed.length === 0 && codes.length === 0 && sessions === 0) return;
    await record("staff.second_factor_reset", ["staff", userId], {
      before: { enrolled: Boolean(removed[0]?.confirmedAt) },
      after: { enrolled: false },
    });
  });
}

/**
 * Lifts the lock of a staff member's second factor (too many wrong codes, ADR 018): their wrong codes are
 * forgotten, so the right code works again. Nobody lifts their own. Audited once, in the same transaction;
 * with nothing counted (a simultaneous lift did it) nothing is written.
 */
export async function liftSecondFactorLock(
  db: Database,
  actor: StaffActor,
  userId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  await otherStaffMember(db, actor, userId, "You cannot lift your own lock");
  await auditedTx(db, audit, now, async (tx, record) => {
    const limit = secondFactorLimit(userId);
    const wrongCodes = await limitCount(tx, limit, now);
    const removed = await resetLimit(tx, limit.key);
    if (removed === 0) return;
    await record("staff.second_factor_unlocked", ["staff", userId], {
      before: { locked: wrongCodes >= limit.max, wrongCodes },
      after: { locked: false, wrongCodes: 0 },
    });
  });
}

/** One staff member's page: who they are (their contact, their second factor) and what they did lately. */
export async function staffMemberPage(db: Database, actor: StaffActor, userId: string, now: Date) {
  const person = await staffDetail(db, actor, userId, now);
  if (!person) return null;
  const actions = await staffRecentActions(db, actor, userId);
  return {
    person: {
      ...person,
      contact: [person.email, person.phoneNumber].filter(Boolean).join(" · "),
      lastSeenAt: person.lastSeenAt?.toISOString() ?? null,
      createdAt: person.createdAt.toISOString(),
    },
    self: person.userId === actor.userId,
    actions: actions.map((a) => ({
      seq: a.seq,
      occurredAt: a.occurredAt.toISOString(),
      action: a.action,
      targetType: a.targetType,
      targetId: a.targetId,
      fields: Object.keys(a.changes ?? {}).sort(),
    })),
  };
}

/** What each change on a staff member's page did, for the page's notice after its redirect. */
export const STAFF_CHANGE_DONE = {
  access: "access",
  disable: "disabled",
  enable: "enabled",
  reset: "reset",
  unlock: "unlocked",
  code: "code",
} as const satisfies Record<StaffIntent, string>;

/** A change on a staff member's page (the second factor given): access, disable or enable, reset, unlock. */
export async function changeStaffMember(
  db: Database,
  actor: StaffActor,
  userId: string,
  change: { intent: StaffIntent; role: string; storeIds: string[]; staffCode?: string },
  audit: AuditContext,
  now: Date,
): Promise<void> {
  if (change.intent === "code") return setStaffCode(db, actor, userId, change.staffCode ?? "", audit, now);
  if (change.intent === "access") return updateStaffAccess(db, actor, userId, change, audit, now);
  if (change.intent === "reset") return resetSecondFactor(db, actor, userId, audit, now);
  if (change.intent === "unlock") return liftSecondFactorLock(db, actor, userId, audit, now);
  return setStaffDisabled(db, actor, userId, change.intent === "disable", audit, now);
}
