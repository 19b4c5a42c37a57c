import { and, eq, lt, notExists } from "drizzle-orm";
import type { Database } from "../../../server/db/client";
import { authAccount, authUser, member } from "../../../server/db/schema";
import { findMemberByEmail, findMemberByPhone, findMemberByUserId, recordLogin } from "../members/members.server";
import type { Messaging } from "../messaging/types";
import type { Auth } from "./auth.server";
import { CODE_POLICY, type IssueResult, issueCode, type VerifyResult, verifyCode } from "./one-time-codes.server";
import { checkPassword, type PasswordProblem } from "./password-check.server";
import { burnPasswordVerification, hashPassword, verifyPassword } from "./passwords.server";
import { hitLimits, readCounter, resetLimit } from "./rate-limits.server";

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

const smsText = {
  signup: {
    "zh-TW": (code: string) =>
      `您的會員註冊驗證碼為 ${code}，${CODE_POLICY.validMinutes} 分鐘內有效。請勿將驗證碼告訴任何人。`,
    en: (code: string) =>
      `Your sign-up code is ${code}, valid for ${CODE_POLICY.validMinutes} minutes. Never share it.`,
  },
  "reset-password": {
    "zh-TW": (code: string) =>
      `您的密碼重設驗證碼為 ${code}，${CODE_POLICY.validMinutes} 分鐘內有效。若非本人操作，請忽略本簡訊。`,
    en: (code: string) =>
      `Your password reset code is ${code}, valid for ${CODE_POLICY.validMinutes} minutes. Ignore this if it was not you.`,
  },
} as const;

// ─── Sign-up step 1: phone verification ──────────────────────────────────────────────────────

export type SignupCodeResult = IssueResult | { ok: false; reason: "already_member" };

/** Sends a sign-up code to a Taiwan mobile number, unless the number already belongs to a member. */
export async function requestSignupCode(
  deps: AuthDeps,
  input: { phoneNumber: string; ip: string | null; locale: Locale },
): Promise<SignupCodeResult> {
  if (await findMemberByPhone(deps.db, input.phoneNumber)) return { ok: false, reason: "already_member" };
  const issued = await issueCode(deps.db, {
    purpose: "signup",
    target: input.phoneNumber,
    ip: input.ip,
    secret: deps.secret,
  });
  if (issued.ok) {
    await deps.messaging.sendSms({ to: input.phoneNumber, text: smsText.signup[input.locale](issued.code) });
  }
  return issued;
}

export type SignupVerifyResult =
  | { ok: true; userId: string }
  | Exclude<VerifyResult, { ok: true }>
  | { ok: false; reason: "already_member" };

/**
 * Verifies the sign-up code and returns the user to sign in: a new user with the verified phone,
 * or the user of an abandoned sign-up for that number (resumable). No member row yet: step 3
 * creates it.
 */
export async function verifySignupCode(
  deps: AuthDeps,
  input: { phoneNumber: string; code: string },
): Promise<SignupVerifyResult> {
  const verified = await verifyCode(deps.db, {
    purpose: "signup",
    target: input.phoneNumber,
    code: input.code,
    secret: deps.secret,
  });
  if (!verified.ok) return verified;
  if (await findMemberByPhone(deps.db, input.phoneNumber)) return { ok: false, reason: "already_member" };
  const [existing] = await deps.db
    .select({ id: authUser.id })
    .from(authUser)
    .where(eq(authUser.phoneNumber, input.phoneNumber))
    .limit(1);
  if (existing) return { ok: true, userId: existing.id };
  const ctx = await deps.auth.$context;
  const user = await ctx.internalAdapter.createUser(
    {
      name: "",
      email: placeholderEmail(input.phoneNumber),
      emailVerified: false,
      phoneNumber: input.phoneNumber,
      phoneNumberVerified: true,
    },
    { method: "phone-number" },
  );
  return { ok: true, userId: user.id };
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
  const problem = checkPassword(password, userInputs);
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

/** Checks phone-or-e-mail + password. One answer for an unknown account and a wrong password. */
export async function verifyLogin(
  deps: Pick<AuthDeps, "db" | "auth">,
  input: { kind: "phone" | "email"; identifier: string; password: string; ip: string | null },
  now = new Date(),
): Promise<LoginResult> {
  const accountKey = `login:fail:${input.kind}:${input.identifier}`;
  const ipLimit = input.ip
    ? await hitLimits(deps.db, [{ key: `login:ip:${input.ip}`, window: "hour", max: LOGIN_POLICY.perIpHour }], now)
    : ({ allowed: true } as const);
  if (!ipLimit.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: ipLimit.retryAfterSeconds };

  const failures = await readCounter(deps.db, accountKey, "hour", now);
  if (failures.count >= LOGIN_POLICY.perAccountHour) {
    const nextHour = Math.ceil(now.getTime() / 3_600_000) * 3_600_000;
    return { ok: false, reason: "rate_limited", retryAfterSeconds: Math.ceil((nextHour - now.getTime()) / 1000) };
  }
  if (failures.count >= LOGIN_POLICY.freeFailures && failures.lastHitAt) {
    const delay = Math.min(LOGIN_POLICY.maxDelaySeconds, 2 ** (failures.count - LOGIN_POLICY.freeFailures + 1));
    const waited = (now.getTime() - failures.lastHitAt.getTime()) / 1000;
    if (waited < delay) return { ok: false, reason: "rate_limited", retryAfterSeconds: Math.ceil(delay - waited) };
  }

  const [user] = await deps.db
    .select({ id: authUser.id })
    .from(authUser)
    .where(input.kind === "phone" ? eq(authUser.phoneNumber, input.identifier) : eq(authUser.email, input.identifier))
    .limit(1);
  const [account] = user
    ? await deps.db
        .select({ password: authAccount.password })
        .from(authAccount)
        .where(and(eq(authAccount.userId, user.id), eq(authAccount.providerId, "credential")))
        .limit(1)
    : [];
  let valid = false;
  if (account?.password) valid = await verifyPassword({ hash: account.password, password: input.password });
  else await burnPasswordVerification(input.password);

  if (!valid || !user) {
    await hitLimits(deps.db, [{ key: accountKey, window: "hour", max: Number.MAX_SAFE_INTEGER }], now);
    return { ok: false, reason: "invalid" };
  }
  const found = await findMemberByUserId(deps.db, user.id);
  // Only the owner of the password learns that the account is disabled.
  if (found?.disabled) return { ok: false, reason: "disabled" };
  await resetLimit(deps.db, accountKey);
  return { ok: true, userId: user.id };
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

// ─── Forgot password ─────────────────────────────────────────────────────────────────────────

export type ResetChannel = "phone" | "email";

/**
 * Sends a reset code when the phone number or e-mail belongs to a member; for anything else the
 * same limits apply and the same answer comes back, but nothing is sent.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  input: { channel: ResetChannel; target: string; ip: string | null; locale: Locale },
): Promise<IssueResult> {
  const found =
    input.channel === "phone"
      ? await findMemberByPhone(deps.db, input.target)
      : await findMemberByEmail(deps.db, input.target);
  const issued = await issueCode(deps.db, {
    purpose: "reset-password",
    target: input.target,
    ip: input.ip,
    secret: deps.secret,
    deliver: Boolean(found),
  });
  if (issued.ok && found) {
    if (input.channel === "phone") {
      await deps.messaging.sendSms({ to: input.target, text: smsText["reset-password"][input.locale](issued.code) });
    } else {
      await deps.messaging.sendEmail({
        to: input.target,
        locale: input.locale,
        template: "one-time-code",
        data: { code: issued.code, purpose: "reset-password", minutes: CODE_POLICY.validMinutes },
      });
    }
  }
  return issued.ok ? { ok: true, code: "", expiresAt: issued.expiresAt } : issued;
}

export type ResetVerifyResult = { ok: true; userId: string } | Exclude<VerifyResult, { ok: true }>;

export async function verifyPasswordReset(
  deps: AuthDeps,
  input: { channel: ResetChannel; target: string; code: string },
): Promise<ResetVerifyResult> {
  const verified = await verifyCode(deps.db, {
    purpose: "reset-password",
    target: input.target,
    code: input.code,
    secret: deps.secret,
  });
  if (!verified.ok) return verified;
  const found =
    input.channel === "phone"
      ? await findMemberByPhone(deps.db, input.target)
      : await findMemberByEmail(deps.db, input.target);
  return found ? { ok: true, userId: found.userId } : { ok: false, reason: "invalid" };
}

/** Sets the new password and ends every session of that user. */
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
