import type { Database } from "@platform/db/client";
import { authUser, staffAccount, staffSession, staffStore, store } from "@platform/db/schema";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { type AuditContext, audited, auditedTx } from "../audit/audit.server";
import { anonymousAuditContext, securityAudited } from "../audit/security-events.server";
import { loginUserId } from "../auth/flows.server";
import { claimLimitsIn, type Limit, LimitRefusedError, limitCount, releaseLimit } from "../auth/rate-limits.server";
import type { StaffActor } from "./actor";
import { isStaffRole, type StaffRole } from "./permissions";
import { checkSecondFactor, hasConfirmedTotp, type StaffSecrets } from "./second-factor.server";
import { newToken, tokenHash } from "./secrets.server";

/**
 * Console sessions (ADR 020): their own cookie and table, apart from member sessions. A session starts
 * `pending` after the password, becomes active with the second factor, and ends after 30 idle minutes,
 * 12 hours in all, at logout, or at once when the staff member is disabled.
 */
export const CONSOLE_SESSION_POLICY = {
  idleMinutes: 30,
  absoluteHours: 12,
  /** Time to give the second factor (or enrol it) after the password. */
  pendingMinutes: 15,
  /** Wrong codes on one session before it ends (the password must be given again). */
  maxFailedCodes: 5,
  /**
   * Wrong codes per staff account per Taipei day, over all its sessions (ADR 018): past them the account's
   * second factor is locked — even the right code is refused — until an admin lifts the lock or the day ends.
   */
  accountFailedCodesPerDay: 10,
  /** A sensitive action asks for the code again when the last one is older than this. */
  recentSecondFactorMinutes: 5,
  /** lastSeenAt is written at most this often (a page view is not worth a write every time). */
  touchSeconds: 60,
} as const;

export const CONSOLE_COOKIE = "han_console";

export type StaffProfile = {
  userId: string;
  role: StaffRole;
  displayName: string;
  storeIds: string[];
  disabled: boolean;
};

/** The staff profile of a user: null for members and unknown users. Disabled profiles are returned (flagged). */
export async function staffProfile(db: Database, userId: string): Promise<StaffProfile | null> {
  const [row] = await db
    .select({ role: authUser.role, displayName: staffAccount.displayName, disabledAt: staffAccount.disabledAt })
    .from(staffAccount)
    .innerJoin(authUser, eq(authUser.id, staffAccount.userId))
    .where(eq(staffAccount.userId, userId));
  if (!row || !isStaffRole(row.role)) return null;
  const stores = await db.select({ storeId: staffStore.storeId }).from(staffStore).where(eq(staffStore.userId, userId));
  return {
    userId,
    role: row.role,
    displayName: row.displayName,
    storeIds: stores.map((s) => s.storeId).sort(),
    disabled: row.disabledAt !== null,
  };
}

export type ConsoleSessionStage = "enrol" | "second_factor" | "active";

export type LoadedConsoleSession = {
  sessionId: string;
  userId: string;
  stage: ConsoleSessionStage;
  profile: StaffProfile;
  /** Present once the second factor was given. */
  actor: StaffActor | null;
};

/**
 * Starts a console session for a user whose password was just checked: pending until the second
 * factor (or its enrolment). Returns the cookie's token (only its hash is stored).
 */
export async function startConsoleSession(
  db: Database,
  input: { userId: string; ip: string | null; userAgent: string | null },
  now = new Date(),
): Promise<{ token: string; sessionId: string }> {
  const token = newToken();
  const [row] = await db
    .insert(staffSession)
    .values({
      tokenHash: tokenHash(token),
      userId: input.userId,
      createdAt: now,
      lastSeenAt: now,
      ipAddress: input.ip,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    })
    .returning({ id: staffSession.id });
  if (!row) throw new Error("staff session insert returned nothing");
  return { token, sessionId: row.id };
}

function expired(row: typeof staffSession.$inferSelect, now: Date): boolean {
  const p = CONSOLE_SESSION_POLICY;
  const age = now.getTime() - row.createdAt.getTime();
  if (!row.secondFactorAt) return age > p.pendingMinutes * 60_000;
  return age > p.absoluteHours * 3_600_000 || now.getTime() - row.lastSeenAt.getTime() > p.idleMinutes * 60_000;
}

/**
 * The session behind a console cookie, or null (unknown, expired, ended, staff disabled or no longer
 * staff). An expired session is deleted. Counts as activity (idle timeout) unless `touch` is false.
 */
export async function loadConsoleSession(
  db: Database,
  token: string | null | undefined,
  now = new Date(),
  options: { touch?: boolean } = {},
): Promise<LoadedConsoleSession | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select()
    .from(staffSession)
    .where(eq(staffSession.tokenHash, tokenHash(token)));
  if (!row) return null;
  const profile = await staffProfile(db, row.userId);
  if (expired(row, now) || !profile || profile.disabled) {
    await db.delete(staffSession).where(eq(staffSession.id, row.id));
    return null;
  }
  if (!row.secondFactorAt) {
    const stage = (await hasConfirmedTotp(db, row.userId)) ? "second_factor" : "enrol";
    return { sessionId: row.id, userId: row.userId, stage, profile, actor: null };
  }
  if (
    options.touch !== false &&
    now.getTime() - row.lastSeenAt.getTime() > CONSOLE_SESSION_POLICY.touchSeconds * 1000
  ) {
    await db.update(staffSession).set({ lastSeenAt: now }).where(eq(staffSession.id, row.id));
  }
  // An admin works everywhere; others at their assigned stores (a store removed from them is dropped).
  const currentStoreId =
    row.currentStoreId && (profile.role === "admin" || profile.storeIds.includes(row.currentStoreId))
      ? row.currentStoreId
      : (profile.storeIds[0] ?? null);
  return {
    sessionId: row.id,
    userId: row.userId,
    stage: "active",
    profile,
    actor: {
      userId: row.userId,
      role: profile.role,
      displayName: profile.displayName,
      storeIds: profile.storeIds,
      currentStoreId,
      sessionId: row.id,
      secondFactorAt: row.secondFactorAt,
    },
  };
}

export type SecondFactorResult =
  | { ok: true; method: "totp" | "recovery" }
  | { ok: false; reason: "invalid_code" | "session_ended" }
  | { ok: false; reason: "locked"; retryAfterSeconds: number };

/** The counter of a staff account's wrong second-factor codes (all its sessions, one Taipei day). */
export function secondFactorLimit(userId: string): Limit {
  return {
    key: `staff:2fa:fail:${userId}`,
    window: "day",
    max: CONSOLE_SESSION_POLICY.accountFailedCodesPerDay,
  };
}

/** Whether the account's second factor is locked now (its wrong codes have used the day's allowance). */
export async function isSecondFactorLocked(db: Database, userId: string, now = new Date()): Promise<boolean> {
  const limit = secondFactorLimit(userId);
  return (await limitCount(db, limit, now)) >= limit.max;
}

/** Ends a session whose wrong codes used its allowance; the ending is audited (rate-limited, item 7). */
async function endSessionForWrongCodes(db: Database, sessionId: string, audit: AuditContext, now: Date) {
  const removed = await db
    .delete(staffSession)
    .where(eq(staffSession.id, sessionId))
    .returning({ id: staffSession.id });
  if (removed.length === 0) return;
  await securityAudited(db, audit, now)("staff.session_ended", ["staff_session", sessionId], {
    after: { reason: "wrong_codes" },
  });
}

/**
 * Takes a second-factor code on a console session: the login's second step, or the step-up before a
 * sensitive action. Like every limit (ADR 018), a try is claimed **before** the code is compared, in one
 * transaction: a try of the session (`maxFailedCodes`; the last wrong one ends the session) and a try of
 * the staff account (`accountFailedCodesPerDay`, over every session, so logging in again gives no new
 * guesses). Simultaneous guesses on any number of app instances compare at most the account's allowance;
 * the wrong code that uses it up locks the account (audited) until an admin lifts it
 * (liftSecondFactorLock) or the Taipei day ends, and a locked account's codes are not compared at all.
 * The right code gives its account try back (it was no guess) and clears the session's count.
 */
export async function giveSecondFactor(
  deps: StaffSecrets,
  session: { sessionId: string; userId: string },
  code: string,
  audit: AuditContext,
  now = new Date(),
): Promise<SecondFactorResult> {
  const max = CONSOLE_SESSION_POLICY.maxFailedCodes;
  const account = secondFactorLimit(session.userId);
  let claimed: { failedCodes: number; accountCount: number } | null;
  try {
    claimed = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(staffSession)
        .set({ failedCodes: sql`${staffSession.failedCodes} + 1` })
        .where(and(eq(staffSession.id, session.sessionId), lt(staffSession.failedCodes, max)))
        .returning({ failedCodes: staffSession.failedCodes });
      if (!row) return null;
      // Refused: throws, and the session's try is rolled back with it.
      await claimLimitsIn(tx, [account], now);
      return { failedCodes: row.failedCodes, accountCount: await limitCount(tx, account, now) };
    });
  } catch (error) {
    if (error instanceof LimitRefusedError) {
      return { ok: false, reason: "locked", retryAfterSeconds: error.retryAfterSeconds };
    }
    throw error;
  }
  if (!claimed) {
    await endSessionForWrongCodes(deps.db, session.sessionId, audit, now);
    return { ok: false, reason: "session_ended" };
  }
  const method = await checkSecondFactor(deps, session.userId, code, now);
  if (!method) {
    // Exactly one wrong code takes the account's last try: that one records the lock.
    if (claimed.accountCount >= account.max) {
      await audited(deps.db, audit, now)("staff.second_factor_locked", ["staff", session.userId], {
        after: { locked: true, wrongCodes: claimed.accountCount },
      });
    }
    if (claimed.failedCodes >= max) {
      await endSessionForWrongCodes(deps.db, session.sessionId, audit, now);
      return { ok: false, reason: "session_ended" };
    }
    return { ok: false, reason: "invalid_code" };
  }
  await releaseLimit(deps.db, account, now);
  const ok = await auditedTx(deps.db, audit, now, async (tx, record) => {
    const [row] = await tx
      .update(staffSession)
      .set({ secondFactorAt: now, lastSeenAt: now, failedCodes: 0 })
      .where(eq(staffSession.id, session.sessionId))
      .returning({ wasActive: sql<boolean>`true` });
    if (!row) return false;
    await record("staff.second_factor_given", ["staff_session", session.sessionId], { after: { method } });
    return true;
  });
  return ok ? { ok: true, method } : { ok: false, reason: "session_ended" };
}

/**
 * Audits a wrong password at the console login (rate-limited, item 7): against the staff account when the
 * identifier is one, else against no one (the identifier typed is personal data and is not kept).
 */
export async function auditFailedConsoleLogin(
  db: Database,
  input: { kind: "phone" | "email"; identifier: string },
  where: Pick<AuditContext, "ip" | "userAgent" | "requestId">,
  now = new Date(),
): Promise<void> {
  const userId = await loginUserId(db, input.kind, input.identifier);
  const staff = userId ? await staffProfile(db, userId) : null;
  await securityAudited(db, anonymousAuditContext(where), now)(
    "staff.login_failed",
    [staff ? "staff" : "console_login", staff?.userId ?? null],
    { after: { reason: "wrong_password" } },
  );
}

/** Marks a freshly enrolled session as having given the second factor (the enrolment code was one). */
export async function activateEnrolledSession(db: Database, sessionId: string, now = new Date()): Promise<void> {
  await db
    .update(staffSession)
    .set({ secondFactorAt: now, lastSeenAt: now, failedCodes: 0 })
    .where(and(eq(staffSession.id, sessionId), isNull(staffSession.secondFactorAt)));
}

/** Logout: ends this console session. */
export async function endConsoleSession(db: Database, token: string | null | undefined): Promise<void> {
  if (!token) return;
  await db.delete(staffSession).where(eq(staffSession.tokenHash, tokenHash(token)));
}

/** Ends every console session of a staff member (disabling, role change to member). */
export async function endAllConsoleSessions(db: Database, userId: string): Promise<number> {
  const rows = await db.delete(staffSession).where(eq(staffSession.userId, userId)).returning({ id: staffSession.id });
  return rows.length;
}

/** Chooses the store the staff member works at on this session (one of theirs; any for an admin). */
export async function switchCurrentStore(db: Database, actor: StaffActor, storeId: string): Promise<boolean> {
  if (actor.role !== "admin" && !actor.storeIds.includes(storeId)) return false;
  const [known] = await db.select({ id: store.id }).from(store).where(eq(store.id, storeId));
  if (!known) return false;
  const rows = await db
    .update(staffSession)
    .set({ currentStoreId: storeId })
    .where(eq(staffSession.id, actor.sessionId))
    .returning({ id: staffSession.id });
  return rows.length === 1;
}

/** Housekeeping: deletes sessions past their idle or absolute limit. */
export async function purgeExpiredConsoleSessions(db: Database, now = new Date()): Promise<number> {
  const p = CONSOLE_SESSION_POLICY;
  const rows = await db
    .delete(staffSession)
    .where(
      or(
        lt(staffSession.createdAt, new Date(now.getTime() - p.absoluteHours * 3_600_000)),
        lt(staffSession.lastSeenAt, new Date(now.getTime() - p.idleMinutes * 60_000)),
        and(
          isNull(staffSession.secondFactorAt),
          lt(staffSession.createdAt, new Date(now.getTime() - p.pendingMinutes * 60_000)),
        ),
      ),
    )
    .returning({ id: staffSession.id });
  return rows.length;
}
