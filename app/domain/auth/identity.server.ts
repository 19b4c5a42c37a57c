import type { Database } from "@platform/db/client";
import { authAccount, authSession } from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { RECENT_LOGIN_MINUTES } from "./auth.server";
import { type AuthDeps, startSession } from "./flows.server";
import { burnPasswordVerification, checkAndUpgradePassword } from "./passwords.server";
import { claimLimits, resetLimit } from "./rate-limits.server";
import { checkCode } from "./verification.server";

/**
 * "Is it really you?" for sensitive changes: the current password or a code sent by SMS to the
 * member's phone. Used before changing the e-mail or phone (when the login is older than
 * RECENT_LOGIN_MINUTES), and always before deleting the account.
 */
export const IDENTITY_POLICY = {
  /** Wrong passwords or codes per member per hour before the check locks for the rest of the hour. */
  failuresPerHour: 10,
} as const;

export type IdentityProof = { method: "password"; password: string } | { method: "sms"; code: string };
export type IdentityResult =
  | { ok: true }
  | { ok: false; reason: "invalid" | "expired" | "too_many_attempts" | "no_password" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/** Whether the session was started (logged in or re-confirmed) within the last 15 minutes. */
export async function isRecentLogin(db: Database, sessionId: string, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ createdAt: authSession.createdAt })
    .from(authSession)
    .where(eq(authSession.id, sessionId))
    .limit(1);
  return Boolean(row && now.getTime() - row.createdAt.getTime() < RECENT_LOGIN_MINUTES * 60_000);
}

export async function hasPasswordLogin(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ password: authAccount.password })
    .from(authAccount)
    .where(and(eq(authAccount.userId, userId), eq(authAccount.providerId, "credential")))
    .limit(1);
  return Boolean(row?.password);
}

/**
 * Checks the member's password or SMS code. Each check first claims a place in the member's
 * hourly budget of failures (one atomic statement, see claimLimits), so simultaneous checks cannot
 * exceed it; a success clears the counter.
 */
export async function proveIdentity(
  deps: Pick<AuthDeps, "db" | "secret">,
  input: { userId: string; phoneNumber: string; proof: IdentityProof },
  now = new Date(),
): Promise<IdentityResult> {
  const failKey = `identity:fail:${input.userId}`;
  const claimed = await claimLimits(
    deps.db,
    [{ key: failKey, window: "hour", max: IDENTITY_POLICY.failuresPerHour }],
    now,
  );
  if (!claimed.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: claimed.retryAfterSeconds };
  let result: IdentityResult;
  if (input.proof.method === "password") {
    const [row] = await deps.db
      .select({ password: authAccount.password })
      .from(authAccount)
      .where(and(eq(authAccount.userId, input.userId), eq(authAccount.providerId, "credential")))
      .limit(1);
    if (!row?.password) {
      await burnPasswordVerification(input.proof.password);
      return { ok: false, reason: "no_password" };
    }
    const valid = await checkAndUpgradePassword(deps.db, {
      userId: input.userId,
      stored: row.password,
      password: input.proof.password,
    });
    result = valid ? { ok: true } : { ok: false, reason: "invalid" };
  } else {
    result = await checkCode(deps, { purpose: "reauth", target: input.phoneNumber, code: input.proof.code }, now);
  }
  if (result.ok) await resetLimit(deps.db, failKey);
  return result;
}

/**
 * After a successful identity check: a new session (new token, counts as a fresh login) replaces
 * the current one. Returns the Set-Cookie headers for the response.
 */
export async function renewSession(
  deps: Pick<AuthDeps, "db" | "auth">,
  input: { userId: string; sessionId: string; requestHeaders: Headers },
): Promise<Headers> {
  const headers = await startSession(deps, input.userId, input.requestHeaders);
  await deps.db
    .delete(authSession)
    .where(and(eq(authSession.id, input.sessionId), eq(authSession.userId, input.userId)));
  return headers;
}
