import type { Database } from "@platform/db/client";
import { isUniqueViolation } from "@platform/db/errors";
import { authUser, member, staffAccount, staffStore } from "@platform/db/schema";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { data } from "react-router";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { LoyaltyError } from "../loyalty/errors";
import type { StaffActor } from "./actor";
import { StaffError } from "./errors";
import { requirePermission } from "./guard.server";
import { hasPermission } from "./permissions";
import { staffProfile } from "./sessions.server";

/**
 * The clerk on the sale (issue 36, ADR 042): the staff code a till sends with a purchase, and the member's
 * consultant (專屬顧問). One function decides each fact: `normalStaffCode` what a code is, `clerkOfStaffCode` whom a
 * till's code names at its store, `mayBindConsultant` who may bind a member to whom.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 4–6 capital letters or digits, after trimming and upper-casing (a till's keypad or a scanner sends either case). */
export const STAFF_CODE_PATTERN = /^[A-Z0-9]{4,6}$/;

/** The code as stored, or null when it is not one. */
export function normalStaffCode(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return STAFF_CODE_PATTERN.test(code) ? code : null;
}

/**
 * Sets (or, with an empty value, removes) a staff member's code: `staff.manage`, audited in the same transaction
 * (`staff.code_changed`). Another person's code is refused (`staff_code_taken`), by the unique constraint, so two
 * simultaneous saves of one code cannot both win.
 */
export async function setStaffCode(
  db: Database,
  actor: StaffActor,
  userId: string,
  raw: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "staff.manage");
  const code = raw.trim() === "" ? null : normalStaffCode(raw);
  if (code === null && raw.trim() !== "") {
    throw new StaffError("invalid_staff_code", "4–6 letters or digits", "staffCode");
  }
  if (!(await staffProfile(db, userId))) throw new StaffError("staff_not_found", "Unknown staff member");
  try {
    await auditedTx(db, audit, now, async (tx, record) => {
      const [before] = await tx
        .select({ staffCode: staffAccount.staffCode })
        .from(staffAccount)
        .where(eq(staffAccount.userId, userId))
        .for("update");
      if (!before || before.staffCode === code) return;
      await tx.update(staffAccount).set({ staffCode: code, updatedAt: now }).where(eq(staffAccount.userId, userId));
      await record("staff.code_changed", ["staff", userId], {
        before: { staffCode: before.staffCode },
        after: { staffCode: code },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, "staff_account_staff_code_unique")) {
      throw new StaffError("staff_code_taken", "Another staff member has this code", "staffCode");
    }
    throw error;
  }
}

/**
 * The staff member a till's code names at the till's store: an enabled staff member with that code who works there
 * (an admin works at every store). Anything else — no such code, a disabled person, another store's clerk, a
 * malformed code — is the one refusal `staff_code_unknown` (422), so a till cannot tell them apart by probing.
 */
export async function clerkOfStaffCode(db: Database, raw: string, storeId: string): Promise<string> {
  const code = normalStaffCode(raw);
  if (code) {
    const [row] = await db
      .select({ userId: staffAccount.userId })
      .from(staffAccount)
      .innerJoin(authUser, eq(authUser.id, staffAccount.userId))
      .where(
        and(
          eq(staffAccount.staffCode, code),
          isNull(staffAccount.disabledAt),
          sql`(${authUser.role} = 'admin' or (${authUser.role} in ('staff', 'manager') and exists (
            select 1 from ${staffStore} s where s.user_id = ${staffAccount.userId} and s.store_id = ${storeId})))`,
        ),
      );
    if (row) return row.userId;
  }
  throw new LoyaltyError("staff_code_unknown", "No enabled staff member with this code works at this store");
}

/**
 * Whether the actor may bind a member to this consultant (or remove the binding, `consultant` null, from `current`):
 * `member.consultant` at a store where the consultant works (an admin: anywhere), and for a removal at a store
 * where the current consultant works. A disabled or unknown person is never a consultant.
 */
export function mayBindConsultant(
  actor: StaffActor,
  consultant: { storeIds: readonly string[]; role: string; disabled: boolean } | null,
  current: { storeIds: readonly string[]; role: string } | null,
): boolean {
  const atOneOf = (stores: readonly string[]) =>
    stores.some((storeId) => hasPermission(actor, "member.consultant", { storeId }));
  if (!hasPermission(actor, "member.consultant")) return false;
  if (actor.role === "admin") return consultant ? !consultant.disabled : true;
  if (consultant) return !consultant.disabled && atOneOf(consultant.storeIds);
  return current ? atOneOf(current.storeIds) : true;
}

/**
 * Binds a member to a consultant (a staff member's user id) or removes the binding (null): permission-checked by
 * `mayBindConsultant`, one conditional update, audited in the same transaction (`member.consultant_changed`).
 * A refusal is a 403 (the console audits refusals); an unknown member a 404.
 */
export async function bindConsultant(
  db: Database,
  actor: StaffActor,
  memberId: string,
  consultantUserId: string | null,
  audit: AuditContext,
  now = new Date(),
): Promise<{ changed: boolean }> {
  requirePermission(actor, "member.consultant");
  if (!UUID.test(memberId)) throw new LoyaltyError("member_not_found", "Unknown member");
  const [found] = await db
    .select({ consultantUserId: member.consultantUserId, deletedAt: member.deletedAt })
    .from(member)
    .where(eq(member.id, memberId));
  if (!found || found.deletedAt) throw new LoyaltyError("member_not_found", "Unknown member");
  const [consultant, current] = await Promise.all([
    consultantUserId ? staffProfile(db, consultantUserId) : null,
    found.consultantUserId ? staffProfile(db, found.consultantUserId) : null,
  ]);
  if (consultantUserId && (!consultant || consultant.disabled)) {
    throw new StaffError("staff_not_found", "Unknown staff member", "consultant");
  }
  if (!mayBindConsultant(actor, consultant, current)) {
    // The console's 403 (its middleware audits the refusal), as requirePermission answers it.
    const storeId = consultant?.storeIds[0] ?? current?.storeIds[0] ?? null;
    throw data({ permission: "member.consultant", storeId }, { status: 403, statusText: "Forbidden" });
  }
  return auditedTx(db, audit, now, async (tx, record) => {
    const [before] = await tx
      .select({ consultantUserId: member.consultantUserId })
      .from(member)
      .where(eq(member.id, memberId))
      .for("update");
    if (!before || before.consultantUserId === consultantUserId) return { changed: false };
    await tx.update(member).set({ consultantUserId, updatedAt: now }).where(eq(member.id, memberId));
    await record("member.consultant_changed", ["member", memberId], {
      before: { consultantUserId: before.consultantUserId },
      after: { consultantUserId },
    });
    return { changed: true };
  });
}

/** The consultant's name, for the member's pages (null when there is none or the person is gone). */
export async function consultantOf(
  db: Database,
  consultantUserId: string | null,
): Promise<{ userId: string; displayName: string } | null> {
  if (!consultantUserId) return null;
  const [row] = await db
    .select({ userId: staffAccount.userId, displayName: staffAccount.displayName })
    .from(staffAccount)
    .where(eq(staffAccount.userId, consultantUserId));
  return row ?? null;
}

/**
 * Whom the actor may offer as a member's consultant: at the counter the enabled staff of the store being worked at;
 * in the console the enabled staff of the actor's stores (an admin: every enabled staff member). The actor first.
 */
export async function consultantChoices(
  db: Database,
  actor: StaffActor,
  storeId: string | null,
): Promise<{ userId: string; displayName: string }[]> {
  const stores = storeId ? [storeId] : actor.role === "admin" ? "all" : actor.storeIds;
  if (stores !== "all" && stores.length === 0) return [];
  const enabledStaff = db
    .selectDistinct({ userId: staffAccount.userId, displayName: staffAccount.displayName })
    .from(staffAccount)
    .innerJoin(authUser, eq(authUser.id, staffAccount.userId))
    .leftJoin(staffStore, eq(staffStore.userId, staffAccount.userId));
  const rows = await enabledStaff.where(
    and(
      isNull(staffAccount.disabledAt),
      stores === "all"
        ? sql`${authUser.role} in ('staff', 'manager', 'admin')`
        : or(inArray(staffStore.storeId, [...stores]), eq(staffAccount.userId, actor.userId)),
    ),
  );
  return actorFirstByName(rows, actor);
}

/** A staff picker's order: the person choosing first, then by name (zh-TW collation), then by id. */
export function actorFirstByName<Row extends { userId: string; displayName: string }>(
  rows: Row[],
  actor: Pick<StaffActor, "userId">,
): Row[] {
  return rows.sort((a, b) =>
    a.userId === actor.userId
      ? -1
      : b.userId === actor.userId
        ? 1
        : a.displayName.localeCompare(b.displayName, "zh-TW") || a.userId.localeCompare(b.userId),
  );
}

/** A member's consultant by the member's id (the console's member page), null when none. */
export async function consultantOfMember(
  db: Database,
  memberId: string,
): Promise<{ userId: string; displayName: string } | null> {
  if (!UUID.test(memberId)) return null;
  const [row] = await db
    .select({ userId: staffAccount.userId, displayName: staffAccount.displayName })
    .from(member)
    .innerJoin(staffAccount, eq(staffAccount.userId, member.consultantUserId))
    .where(eq(member.id, memberId));
  return row ?? null;
}
