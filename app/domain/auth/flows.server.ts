import type { Database } from "@platform/db/client";
import { authAccount, authUser, member } from "@platform/db/schema";
import { and, eq, lt, notExists } from "drizzle-orm";
import { revokeCardDevices } from "../loyalty/card-devices.server";
import { findMemberByUserId, recordLogin } from "../members/members.server";
import type { Messaging } from "../messaging/types";
import type { Auth } from "./auth.server";
import { checkPassword, type PasswordProblem } from "./password-check.server";
import { burnPasswordVerification, checkAndUpgradePassword, hashPassword } from "./passwords.server";
import { claimLimits, type Limit, resetLimit } from "./rate-limits.server";

/** What every auth flow needs: the database, better-auth, outgoing messages, the code secret. */
export type AuthDeps = { db: Database; auth: Auth; messaging: Messaging; secret: string };
export type Locale = "zh-TW" | "en";

/** Placeholder e-mail for users who joined by phone (better-auth needs one; .invalid never resolves). */
export function placeholderEmail(phoneNumber: string): string {
  return `${phoneNumber.replace("+", "")}@phone.invalid`;
}

export function isPlaceholderEmail(email: string): boolean {
  return email.endsWith("@phone.invalid");
}

// ─── Sign-up step 2 and password changes ─────────────────────────────────────────────────────

export async function hasPassword(deps: Pick<AuthDeps, "auth">, userId: string): Promise<boolean> {
  const ctx = await deps.auth.$context;
  return Boolean((await ctx.internalAdapter.findCredentialAccount(userId))?.password);
}

/** Sets (or replaces) the user's password after the policy check. */
export async function setPassword(
  deps: Pick<AuthDeps, "auth">,
  userId: string,
  password: string,
  userInputs: string[] = [],
): Promise<{ ok: true } | { ok: false; problem: PasswordProblem }> {
  const problem = await checkPassword(password, userInputs);
  if (problem) return { ok: false, problem };
  const ctx = await deps.auth.$context;
  const hashed = await hashPassword(password);
  const account = await ctx.internalAdapter.findCredentialAccount(userId);
  if (account) await ctx.internalAdapter.updatePassword(userId, hashed);
  else await ctx.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hashed });
  return { ok: true };
}

// ─── Login ───────────────────────────────────────────────────────────────────────────────────

export const LOGIN_POLICY = {
  /** Failed logins per account per hour (PRODUCT.md / issue: ≤ 100/h with growing delays). */
  perAccountHour: 100,
  /** After this many failures in the hour, each further try waits 2^(n - free) seconds (max 5 min). */
  freeFailures: 5,
  maxDelaySeconds: 300,
  perIpHour: 300,
} as const;

export type LoginResult =
  | { ok: true; userId: string }
  | { ok: false; reason: "invalid" | "disabled" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * Checks phone-or-e-mail + password. One answer for an unknown account and a wrong password.
 *
 * Each try first claims its place in the limits, in one atomic statement (claimLimits): the
 * client IP's hourly budget and the account's failure counter with its growing delay. Only a
 * claimed try checks the password, so simultaneous tries on any number of app instances cannot
 * slip past the delay or the hourly cap. A wrong password keeps its hit; the right one clears the
 * counter. There is one counter per member whichever identifier (phone or e-mail) was typed; an
 * identifier that belongs to nobody counts per identifier and IP, so its answers follow the same
 * pattern as a real account's.
 */
export async function verifyLogin(
  deps: Pick<AuthDeps, "db" | "auth">,
  input: { kind: "phone" | "email"; identifier: string; password: string; ip: string | null },
  now = new Date(),
): Promise<LoginResult> {
  const userId = await loginUserId(deps.db, input.kind, input.identifier);
  const failKey = userId
    ? loginFailureKey(userId)
    : `login:fail:unknown:${input.kind}:${input.identifier}:${input.ip ?? "-"}`;
  const limits = passwordTryLimits(failKey, input.ip);
  const claimed = await claimLimits(deps.db, limits, now);
  if (!claimed.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: claimed.retryAfterSeconds };

  const [account] = userId
    ? await deps.db
        .select({ password: authAccount.password })
        .from(authAccount)
        .where(and(eq(authAccount.userId, userId), eq(authAccount.providerId, "credential")))
        .limit(1)
    : [];
  let valid = false;
  if (userId && account?.password) {
    valid = await checkAndUpgradePassword(deps.db, { userId, stored: account.password, password: input.password });
  } else await burnPasswordVerification(input.password);

  if (!valid || !userId) return { ok: false, reason: "invalid" };
  const found = await findMemberByUserId(deps.db, userId);
  // Only the owner of the password learns that the account is disabled.
  if (found?.disabled) return { ok: false, reason: "disabled" };
  await resetLimit(deps.db, failKey);
  return { ok: true, userId };
}

/** The user a login identifier (a normalised phone number or e-mail address) belongs to, or null. */
export async function loginUserId(db: Database, kind: "phone" | "email", identifier: string): Promise<string | null> {
  const [user] = await db
    .select({ id: authUser.id })
    .from(authUser)
    .where(kind === "phone" ? eq(authUser.phoneNumber, identifier) : eq(authUser.email, identifier))
    .limit(1);
  return user?.id ?? null;
}

/**
 * What one password try claims before the password is checked (ADR 018): the account's failure counter
 * (its growing delay and hourly cap) and the IP's hourly budget. The member and console logins and the
 * invitation of an existing login all claim these, so they share one allowance per account.
 */
export function passwordTryLimits(failKey: string, ip: string | null): Limit[] {
  const limits: Limit[] = [
    {
      key: failKey,
      window: "hour",
      max: LOGIN_POLICY.perAccountHour,
      backoff: { free: LOGIN_POLICY.freeFailures, maxDelaySeconds: LOGIN_POLICY.maxDelaySeconds },
    },
  ];
  if (ip) limits.push({ key: `login:ip:${ip}`, window: "hour", max: LOGIN_POLICY.perIpHour });
  return limits;
}

/** The failure counter of one member's logins (phone and e-mail share it). */
export function loginFailureKey(userId: string): string {
  return `login:fail:user:${userId}`;
}

/** Turns a proven user into a session (new token, cookie headers) and records the login. */
export async function startSession(
  deps: Pick<AuthDeps, "db" | "auth">,
  userId: string,
  requestHeaders: Headers,
): Promise<Headers> {
  const { headers } = await deps.auth.api.startMemberSession({
    body: { userId },
    headers: requestHeaders,
    returnHeaders: true,
  });
  await recordLogin(deps.db, userId);
  return headers;
}

// ─── Forgot password (the code step is in verification.server.ts) ──────────────────────────────

/** Sets the new password, ends every session of that user and revokes their offline cards. */
export async function completePasswordReset(
  deps: Pick<AuthDeps, "db" | "auth">,
  userId: string,
  password: string,
  userInputs: string[],
): Promise<{ ok: true } | { ok: false; problem: PasswordProblem }> {
  const result = await setPassword(deps, userId, password, userInputs);
  if (!result.ok) return result;
  const ctx = await deps.auth.$context;
  await ctx.internalAdapter.deleteUserSessions(userId);
  // The offline cards of those logins stop working too (ADR 043): whoever reset the password owns the account now.
  await revokeCardDevices(deps.db, { user: userId });
  return { ok: true };
}

// ─── Housekeeping ────────────────────────────────────────────────────────────────────────────

/** Deletes sign-ups abandoned for 24 hours (a user with no member row). Returns how many. */
export async function deleteAbandonedSignups(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 24 * 3_600_000);
  const rows = await db
    .delete(authUser)
    .where(
      and(
        lt(authUser.createdAt, cutoff),
        eq(authUser.role, "member"),
        notExists(db.select({ id: member.id }).from(member).where(eq(member.userId, authUser.id))),
      ),
    )
    .returning({ id: authUser.id });
  return rows.length;
}
