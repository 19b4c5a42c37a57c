import { and, eq, ne } from "drizzle-orm";
import type { Database } from "../../../server/db/client";
import { authUser, member } from "../../../server/db/schema";
import { emailCodePurpose, sendEmailVerification } from "../auth/email-verification.server";
import { type AuthDeps, isPlaceholderEmail, type Locale, placeholderEmail } from "../auth/flows.server";
import { CODE_POLICY, type IssueResult, issueCode, type VerifyResult, verifyCode } from "../auth/one-time-codes.server";
import { findMemberByUserId, isEmailTaken } from "./members.server";

/**
 * Changing how a member is reached. The new e-mail or phone only replaces the old one once a code
 * sent to it is typed back; until then the old one stays the login. Always for the session's own
 * user: callers pass the session's user id, never one from the request.
 */

export type EmailChangeResult = IssueResult | { ok: false; reason: "taken" | "unchanged" };

/** Parks the new address as pending and sends it a code (/member-center/verify-email finishes). */
export async function requestEmailChange(
  deps: AuthDeps,
  input: { userId: string; email: string; ip: string | null; locale: Locale },
): Promise<EmailChangeResult> {
  const email = input.email.toLowerCase();
  const current = await findMemberByUserId(deps.db, input.userId);
  if (!current) throw new Error("requestEmailChange: no member for the session's user");
  if (current.email === email) return { ok: false, reason: "unchanged" };
  if (await isEmailTaken(deps.db, email, input.userId)) return { ok: false, reason: "taken" };
  const sent = await sendEmailVerification(deps, {
    email,
    ip: input.ip,
    locale: input.locale,
    purpose: emailCodePurpose(current),
  });
  if (sent.ok) {
    await deps.db.update(member).set({ pendingEmail: email, updatedAt: new Date() }).where(eq(member.id, current.id));
  }
  return sent;
}

const changePhoneSms = {
  "zh-TW": (code: string) =>
    `您變更會員手機號碼的驗證碼為 ${code}，${CODE_POLICY.validMinutes} 分鐘內有效。若非本人操作，請忽略本簡訊。`,
  en: (code: string) =>
    `Your code to change your member phone number is ${code}, valid for ${CODE_POLICY.validMinutes} minutes.`,
} as const;

/** A phone number is taken when another member or another login already has it. */
export async function isPhoneTaken(deps: Pick<AuthDeps, "db">, phoneNumber: string, exceptUserId: string) {
  const [m] = await deps.db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.phoneNumber, phoneNumber), ne(member.userId, exceptUserId)))
    .limit(1);
  if (m) return true;
  const [u] = await deps.db
    .select({ id: authUser.id })
    .from(authUser)
    .where(and(eq(authUser.phoneNumber, phoneNumber), ne(authUser.id, exceptUserId)))
    .limit(1);
  return Boolean(u);
}

export type PhoneChangeResult = IssueResult | { ok: false; reason: "taken" | "unchanged" };

/** Sends a code by SMS to the new number (the change happens in confirmPhoneChange). */
export async function requestPhoneChange(
  deps: AuthDeps,
  input: { userId: string; phoneNumber: string; ip: string | null; locale: Locale },
): Promise<PhoneChangeResult> {
  const current = await findMemberByUserId(deps.db, input.userId);
  if (!current) throw new Error("requestPhoneChange: no member for the session's user");
  if (current.phoneNumber === input.phoneNumber) return { ok: false, reason: "unchanged" };
  if (await isPhoneTaken(deps, input.phoneNumber, input.userId)) return { ok: false, reason: "taken" };
  const issued = await issueCode(deps.db, {
    purpose: "change-phone",
    target: input.phoneNumber,
    ip: input.ip,
    secret: deps.secret,
  });
  if (issued.ok) {
    await deps.messaging.sendSms({ to: input.phoneNumber, text: changePhoneSms[input.locale](issued.code) });
  }
  return issued;
}

/** Checks the code sent to the new number; on success it is the member's phone and phone login. */
export async function confirmPhoneChange(
  deps: Pick<AuthDeps, "db" | "secret">,
  input: { userId: string; phoneNumber: string; code: string },
): Promise<VerifyResult | { ok: false; reason: "taken" }> {
  const verified = await verifyCode(deps.db, {
    purpose: "change-phone",
    target: input.phoneNumber,
    code: input.code,
    secret: deps.secret,
  });
  if (!verified.ok) return verified;
  if (await isPhoneTaken(deps, input.phoneNumber, input.userId)) return { ok: false, reason: "taken" };
  const now = new Date();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(member)
      .set({ phoneNumber: input.phoneNumber, updatedAt: now })
      .where(eq(member.userId, input.userId));
    const [user] = await tx.select({ email: authUser.email }).from(authUser).where(eq(authUser.id, input.userId));
    await tx
      .update(authUser)
      .set({
        phoneNumber: input.phoneNumber,
        phoneNumberVerified: true,
        // The phone-only placeholder follows the number, so the old number can sign up again.
        ...(user && isPlaceholderEmail(user.email) ? { email: placeholderEmail(input.phoneNumber) } : {}),
        updatedAt: now,
      })
      .where(eq(authUser.id, input.userId));
  });
  return { ok: true };
}

/** Withdraws an e-mail that was given but never verified (the member emptied the field). */
export async function clearPendingEmail(db: Database, userId: string): Promise<void> {
  await db.update(member).set({ pendingEmail: null, updatedAt: new Date() }).where(eq(member.userId, userId));
}
