import type { Database } from "@platform/db/client";
import { authAccount, authUser, staffAccount, staffInvitation, staffStore, store } from "@platform/db/schema";
import { generateId } from "better-auth";
import { and, eq, gt, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { type AuditContext, audited, auditedTx } from "../audit/audit.server";
import { anonymousAuditContext, securityAudited } from "../audit/security-events.server";
import { loginFailureKey, passwordTryLimits, placeholderEmail } from "../auth/flows.server";
import { checkPassword, type PasswordProblem } from "../auth/password-check.server";
import { checkAndUpgradePassword, hashPassword } from "../auth/passwords.server";
import { claimLimits, resetLimit } from "../auth/rate-limits.server";
import { normalizeTaiwanMobile } from "../members/taiwan";
import type { StaffActor } from "./actor";
import { StaffError } from "./errors";
import { requirePermission } from "./guard.server";
import { isStaffRole, type StaffRole } from "./permissions";
import { newToken, tokenHash } from "./secrets.server";
import { endAllConsoleSessions, type StaffProfile, staffProfile } from "./sessions.server";

/** Staff accounts: invitations, acceptance, access changes, disabling (ADR 020). */

export const INVITATION_HOURS = 72;
export const INVITATION_PATH = "/admin/invitation";

export type InvitationInput = {
  /** An e-mail address or a Taiwan mobile number (any format sign-up accepts). */
  contact: string;
  displayName: string;
  role: string;
  storeIds: string[];
};

export type Invitation = typeof staffInvitation.$inferSelect;

/** The invitation link (the token appears only here; the database keeps its hash). */
export function invitationUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, "")}${INVITATION_PATH}/${token}`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function parseContact(contact: string): { email: string | null; phoneNumber: string | null } {
  const value = contact.trim();
  if (!value) throw new StaffError("contact_required", "An e-mail address or mobile number is required", "contact");
  if (value.includes("@")) {
    if (!EMAIL.test(value) || value.length > 254 || value.endsWith(".invalid")) {
      throw new StaffError("invalid_email", "Not a valid e-mail address", "contact");
    }
    return { email: value.toLowerCase(), phoneNumber: null };
  }
  const phone = normalizeTaiwanMobile(value);
  if (!phone) throw new StaffError("invalid_phone", "Not a Taiwan mobile number", "contact");
  return { email: null, phoneNumber: phone };
}

async function validateAccess(
  db: Database,
  role: string,
  storeIds: string[],
): Promise<{ role: StaffRole; storeIds: string[] }> {
  if (!isStaffRole(role)) throw new StaffError("invalid_role", "Unknown role", "role");
  const unique = [...new Set(storeIds.map((s) => s.trim()).filter(Boolean))].sort();
  // An admin works at every store; the others need at least one.
  if (role === "admin") return { role, storeIds: [] };
  if (unique.length === 0) throw new StaffError("stores_required", "Choose at least one store", "storeIds");
  const known = await db.select({ id: store.id }).from(store).where(inArray(store.id, unique));
  if (known.length !== unique.length) throw new StaffError("unknown_store", "Unknown store", "storeIds");
  return { role, storeIds: unique };
}

function validateName(name: string): string {
  const value = name.trim();
  if (value.length < 1 || value.length > 50) throw new StaffError("invalid_name", "1–50 characters", "displayName");
  return value;
}

async function userByContact(db: Database, contact: { email: string | null; phoneNumber: string | null }) {
  const [user] = await db
    .select({ id: authUser.id, role: authUser.role })
    .from(authUser)
    .where(contact.email ? eq(authUser.email, contact.email) : eq(authUser.phoneNumber, contact.phoneNumber ?? ""));
  return user ?? null;
}

/**
 * An admin invites a staff member: a single-use link valid for 72 hours. `actor` is the inviting admin,
 * or "bootstrap" for the first admin (npm run staff:create-admin). The token is returned once.
 */
export async function inviteStaff(
  db: Database,
  actor: StaffActor | "bootstrap",
  input: InvitationInput,
  audit: AuditContext,
  now = new Date(),
): Promise<{ invitation: Invitation; token: string }> {
  if (actor !== "bootstrap") requirePermission(actor, "staff.manage");
  const contact = parseContact(input.contact);
  const displayName = validateName(input.displayName);
  const access = await validateAccess(db, input.role, input.storeIds);
  const existing = await userByContact(db, contact);
  if (existing && isStaffRole(existing.role) && (await staffProfile(db, existing.id))) {
    throw new StaffError("already_staff", "This person is already on the staff", "contact");
  }
  const token = newToken();
  return auditedTx(db, audit, now, async (tx, record) => {
    const [invitation] = await tx
      .insert(staffInvitation)
      .values({
        tokenHash: tokenHash(token),
        ...contact,
        displayName,
        role: access.role,
        storeIds: access.storeIds,
        invitedByUserId: actor === "bootstrap" ? null : actor.userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_HOURS * 3_600_000),
      })
      .returning();
    if (!invitation) throw new Error("invitation insert returned nothing");
    await record("staff.invited", ["staff_invitation", invitation.id], {
      after: {
        ...contact,
        displayName,
        role: access.role,
        storeIds: access.storeIds,
        expiresAt: invitation.expiresAt,
      },
    });
    return { invitation, token };
  });
}

export type InvitationState =
  | { ok: true; invitation: Invitation; existingAccount: boolean }
  | { ok: false; reason: "unknown" | "expired" | "used" | "revoked" };

/** What an invitation link leads to (the accept page shows it before asking for a password). */
export async function invitationState(db: Database, token: string, now = new Date()): Promise<InvitationState> {
  if (!token || token.length > 100) return { ok: false, reason: "unknown" };
  const [invitation] = await db
    .select()
    .from(staffInvitation)
    .where(eq(staffInvitation.tokenHash, tokenHash(token)));
  if (!invitation) return { ok: false, reason: "unknown" };
  if (invitation.acceptedAt) return { ok: false, reason: "used" };
  if (invitation.revokedAt) return { ok: false, reason: "revoked" };
  if (invitation.expiresAt <= now) return { ok: false, reason: "expired" };
  const existing = await userByContact(db, invitation);
  return { ok: true, invitation, existingAccount: Boolean(existing) };
}

export type AcceptResult =
  | { ok: true; userId: string }
  | { ok: false; reason: "unknown" | "expired" | "used" | "revoked" }
  | { ok: false; reason: "password"; problem: PasswordProblem }
  | { ok: false; reason: "wrong_password" | "no_password" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * Accepts an invitation. A new person sets a password; someone who already has a login (a member, say)
 * proves it with their current password instead — an invitation link alone never takes over an
 * existing account. That password try claims the login's own counters first (ADR 018: the account's
 * failures with their growing delay and the IP's budget, shared with the member and console logins), so
 * the link is no way around them; a wrong password is audited (rate-limited, security-events.server.ts),
 * the right one clears the account's failures as a login does. The invitation is spent by one conditional
 * update, in the same transaction as the staff account, its stores, the role and the audit row.
 */
export async function acceptInvitation(
  db: Database,
  input: { token: string; password: string },
  where: Omit<AuditContext, "actorType" | "userId" | "role" | "storeId" | "apiKeyId" | "label">,
  now = new Date(),
): Promise<AcceptResult> {
  const state = await invitationState(db, input.token, now);
  if (!state.ok) return state;
  const { invitation } = state;
  const existing = await userByContact(db, invitation);
  let passwordHash: string | null = null;
  if (existing) {
    const [account] = await db
      .select({ password: authAccount.password })
      .from(authAccount)
      .where(and(eq(authAccount.userId, existing.id), eq(authAccount.providerId, "credential")));
    if (!account?.password) return { ok: false, reason: "no_password" };
    const failKey = loginFailureKey(existing.id);
    const claimed = await claimLimits(db, passwordTryLimits(failKey, where.ip), now);
    if (!claimed.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: claimed.retryAfterSeconds };
    if (
      !(await checkAndUpgradePassword(db, { userId: existing.id, stored: account.password, password: input.password }))
    ) {
      await securityAudited(db, anonymousAuditContext(where), now)(
        "staff.invitation_login_failed",
        ["staff_invitation", invitation.id],
        { after: { reason: "wrong_password" } },
      );
      return { ok: false, reason: "wrong_password" };
    }
    await resetLimit(db, failKey);
  } else {
    const problem = await checkPassword(input.password, [
      invitation.email ?? "",
      invitation.phoneNumber ?? "",
      invitation.displayName,
    ]);
    if (problem) return { ok: false, reason: "password", problem };
    passwordHash = await hashPassword(input.password);
  }
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(staffInvitation)
      .set({ acceptedAt: now })
      .where(
        and(
          eq(staffInvitation.id, invitation.id),
          isNull(staffInvitation.acceptedAt),
          isNull(staffInvitation.revokedAt),
          gt(staffInvitation.expiresAt, now),
        ),
      )
      .returning({ id: staffInvitation.id });
    if (!spent) return { ok: false, reason: "used" } as const;
    let userId = existing?.id;
    if (!userId) {
      userId = generateId();
      await tx.insert(authUser).values({
        id: userId,
        name: invitation.displayName,
        email: invitation.email ?? placeholderEmail(invitation.phoneNumber ?? ""),
        phoneNumber: invitation.phoneNumber,
        // The invitation reached them at this address or number only if it was delivered there; a
        // login is not a verified contact until a code proves it.
        emailVerified: false,
        phoneNumberVerified: false,
        role: invitation.role,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(authAccount).values({
        id: generateId(),
        accountId: userId,
        providerId: "credential",
        userId,
        password: passwordHash,
        createdAt: now,
        updatedAt: now,
      });
    } else {
      await tx.update(authUser).set({ role: invitation.role, updatedAt: now }).where(eq(authUser.id, userId));
    }
    await tx
      .insert(staffAccount)
      .values({ userId, displayName: invitation.displayName, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: staffAccount.userId,
        set: { displayName: invitation.displayName, disabledAt: null, updatedAt: now },
      });
    await tx.delete(staffStore).where(eq(staffStore.userId, userId));
    if (invitation.storeIds.length > 0) {
      await tx.insert(staffStore).values(invitation.storeIds.map((storeId) => ({ userId, storeId })));
    }
    await tx.update(staffInvitation).set({ acceptedUserId: userId }).where(eq(staffInvitation.id, invitation.id));
    await audited(tx, { actorType: "staff", userId, role: invitation.role, storeId: null, ...where }, now)(
      "staff.invitation_accepted",
      ["staff", userId],
      {
        after: {
          role: invitation.role,
          storeIds: invitation.storeIds,
          invitationId: invitation.id,
          existingLogin: Boolean(existing),
        },
      },
    );
    return { ok: true, userId } as const;
  });
}

/** Revokes an unused invitation. */
export async function revokeInvitation(
  db: Database,
  actor: StaffActor,
  invitationId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<boolean> {
  requirePermission(actor, "staff.manage");
  // Not an invitation's id (a hand-made form): nothing to revoke.
  if (!/^[0-9a-f-]{36}$/i.test(invitationId)) return false;
  return auditedTx(db, audit, now, async (tx, record) => {
    const [revoked] = await tx
      .update(staffInvitation)
      .set({ revokedAt: now })
      .where(
        and(
          eq(staffInvitation.id, invitationId),
          isNull(staffInvitation.acceptedAt),
          isNull(staffInvitation.revokedAt),
        ),
      )
      .returning({ id: staffInvitation.id });
    if (!revoked) return false;
    await record("staff.invitation_revoked", ["staff_invitation", invitationId], {
      before: { revoked: false },
      after: { revoked: true },
    });
    return true;
  });
}

async function activeAdminCount(db: Database, exceptUserId?: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffAccount)
    .innerJoin(authUser, eq(authUser.id, staffAccount.userId))
    .where(
      and(
        eq(authUser.role, "admin"),
        isNull(staffAccount.disabledAt),
        exceptUserId ? ne(staffAccount.userId, exceptUserId) : undefined,
      ),
    );
  return row?.n ?? 0;
}

/**
 * Changes a staff member's role and stores. Nobody changes their own access, and the last active
 * admin cannot be demoted (the console would have no one left to manage it).
 */
export async function updateStaffAccess(
  db: Database,
  actor: StaffActor,
  userId: string,
  input: { role: string; storeIds: string[] },
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "staff.manage");
  if (userId === actor.userId) throw new StaffError("cannot_change_self", "You cannot change your own access", "role");
  if (!(await staffProfile(db, userId))) throw new StaffError("staff_not_found", "Unknown staff member");
  const access = await validateAccess(db, input.role, input.storeIds);
  await auditedTx(db, audit, now, async (tx, record) => {
    // Serialise access changes: two cannot each leave the other as the "last" admin, and the "before" read
    // under the lock is the state this change replaces (a repeated or simultaneous save audits once).
    await tx.execute(sql`select pg_advisory_xact_lock(7274019312)`);
    const before = await staffProfile(tx, userId);
    if (!before) throw new StaffError("staff_not_found", "Unknown staff member");
    if (before.role === access.role && before.storeIds.join() === access.storeIds.join()) return;
    if (before.role === "admin" && access.role !== "admin" && (await activeAdminCount(tx, userId)) === 0) {
      throw new StaffError("last_admin", "The last admin cannot be demoted", "role");
    }
    await tx.update(authUser).set({ role: access.role, updatedAt: now }).where(eq(authUser.id, userId));
    await tx.delete(staffStore).where(eq(staffStore.userId, userId));
    if (access.storeIds.length > 0) {
      await tx.insert(staffStore).values(access.storeIds.map((storeId) => ({ userId, storeId })));
    }
    await tx.update(staffAccount).set({ updatedAt: now }).where(eq(staffAccount.userId, userId));
    await record("staff.access_changed", ["staff", userId], {
      before: { role: before.role, storeIds: before.storeIds },
      after: access,
    });
  });
}

/**
 * The staff member an admin (`staff.manage`) is about to change: someone on the staff, and never oneself
 * (another admin does that). Throws StaffError otherwise.
 */
export async function otherStaffMember(
  db: Database,
  actor: StaffActor,
  userId: string,
  selfMessage: string,
): Promise<StaffProfile> {
  requirePermission(actor, "staff.manage");
  if (userId === actor.userId) throw new StaffError("cannot_change_self", selfMessage);
  const profile = await staffProfile(db, userId);
  if (!profile) throw new StaffError("staff_not_found", "Unknown staff member");
  return profile;
}

/**
 * Disables (or re-enables) a staff member; disabling ends their console sessions at once. The change is one
 * conditional update, so simultaneous requests change (and audit) it once.
 */
export async function setStaffDisabled(
  db: Database,
  actor: StaffActor,
  userId: string,
  disabled: boolean,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  const before = await otherStaffMember(db, actor, userId, "You cannot disable yourself");
  if (before.disabled === disabled) return;
  await auditedTx(db, audit, now, async (tx, record) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7274019312)`);
    if (disabled && before.role === "admin" && (await activeAdminCount(tx, userId)) === 0) {
      throw new StaffError("last_admin", "The last admin cannot be disabled");
    }
    const changed = await tx
      .update(staffAccount)
      .set({ disabledAt: disabled ? now : null, updatedAt: now })
      .where(
        and(
          eq(staffAccount.userId, userId),
          disabled ? isNull(staffAccount.disabledAt) : isNotNull(staffAccount.disabledAt),
        ),
      )
      .returning({ userId: staffAccount.userId });
    if (changed.length === 0) return;
    if (disabled) await endAllConsoleSessions(tx, userId);
    await record(disabled ? "staff.disabled" : "staff.enabled", ["staff", userId], {
      before: { disabled: !disabled },
      after: { disabled },
    });
  });
}

/** Whether the install has an admin who can log in (staff:create-admin refuses a second "first" admin). */
export async function hasActiveAdmin(db: Database): Promise<boolean> {
  return (await activeAdminCount(db)) > 0;
}

/**
 * `npm run staff:create-admin`: the first admin of a fresh install, as an invitation (never a default
 * password). Refused once an active admin exists: later admins are invited from the console.
 */
export async function createFirstAdmin(
  db: Database,
  input: { contact: string; displayName: string; baseUrl: string },
  now = new Date(),
): Promise<{ ok: true; url: string; expiresAt: Date } | { ok: false; reason: "admin_exists" }> {
  if (await hasActiveAdmin(db)) return { ok: false, reason: "admin_exists" };
  const { invitation, token } = await inviteStaff(
    db,
    "bootstrap",
    { contact: input.contact, displayName: input.displayName, role: "admin", storeIds: [] },
    { actorType: "system", label: "staff:create-admin", ip: null, userAgent: null, requestId: null },
    now,
  );
  return { ok: true, url: invitationUrl(input.baseUrl, token), expiresAt: invitation.expiresAt };
}
