import { and, eq } from "drizzle-orm";
import type { Database } from "../../../server/db/client";
import { authAccount, authSession } from "../../../server/db/schema";
import { RECENT_LOGIN_MINUTES } from "./auth.server";
import { type AuthDeps, type Locale, startSession } from "./flows.server";
import { CODE_POLICY, type IssueResult, issueCode, verifyCode } from "./one-time-codes.server";
import { burnPasswordVerification, verifyPassword } from "./passwords.server";
import { hitLimits, readCounter, resetLimit } from "./rate-limits.server";

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

const reauthSms = {
  "zh-TW": (code: string) =>
    `您的身分確認驗證碼為 ${code}，${CODE_POLICY.validMinutes} 分鐘內有效。若非本人操作，請勿提供給任何人。`,
  en: (code: string) =>
    `Your confirmation code is ${code}, valid for ${CODE_POLICY.validMinutes} minutes. Never share it.`,
} as const;

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

/** Sends a confirmation code by SMS to the member's own number (never to a number from the request). */
export async function sendIdentityCode(
  deps: AuthDeps,
  input: { phoneNumber: string; ip: string | null; locale: Locale },
): Promise<IssueResult> {
  const issued = await issueCode(deps.db, {
    purpose: "reauth",
    target: input.phoneNumber,
    ip: input.ip,
    secret: deps.secret,
  });
  if (issued.ok) await deps.messaging.sendSms({ to: input.phoneNumber, text: reauthSms[input.locale](issued.code) });
  return issued;
}

/** Checks the member's password or SMS code. Failures count per member; success clears them. */
export async function proveIdentity(
  deps: Pick<AuthDeps, "db" | "secret">,
  input: { userId: string; phoneNumber: string; proof: IdentityProof },
  now = new Date(),
): Promise<IdentityResult> {
  const failKey = `identity:fail:${input.userId}`;
  const failures = await readCounter(deps.db, failKey, "hour", now);
  if (failures.count >= IDENTITY_POLICY.failuresPerHour) {
    const nextHour = Math.ceil(now.getTime() / 3_600_000) * 3_600_000;
    return { ok: false, reason: "rate_limited", retryAfterSeconds: Math.ceil((nextHour - now.getTime()) / 1000) };
  }
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
    const valid = await verifyPassword({ hash: row.password, password: input.proof.password });
    result = valid ? { ok: true } : { ok: false, reason: "invalid" };
  } else {
    result = await verifyCode(
      deps.db,
      { purpose: "reauth", target: input.phoneNumber, code: input.proof.code, secret: deps.secret },
      now,
    );
  }
  if (result.ok) await resetLimit(deps.db, failKey);
  else await hitLimits(deps.db, [{ key: failKey, window: "hour", max: Number.MAX_SAFE_INTEGER }], now);
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
