import { confirmMemberEmail, findMemberByUserId, isEmailTaken } from "../members/members.server";
import type { AuthDeps, Locale } from "./flows.server";
import { CODE_POLICY, type IssueResult, issueCode, type VerifyResult, verifyCode } from "./one-time-codes.server";

/**
 * A pending address is either a member's first e-mail (sign-up, "verify-email") or a change of a
 * verified one (edit-info, "change-email"): the wording of the e-mail differs, the flow does not.
 * Both sides derive the purpose from the member row, so a code only works for what it was sent for.
 */
export function emailCodePurpose(current: { email: string | null }): "verify-email" | "change-email" {
  return current.email ? "change-email" : "verify-email";
}

/** Sends a code to a member's new (pending) e-mail address. */
export async function sendEmailVerification(
  deps: AuthDeps,
  input: { email: string; ip: string | null; locale: Locale; purpose?: "verify-email" | "change-email" },
): Promise<IssueResult> {
  const purpose = input.purpose ?? "verify-email";
  const issued = await issueCode(deps.db, { purpose, target: input.email, ip: input.ip, secret: deps.secret });
  if (issued.ok) {
    await deps.messaging.sendEmail({
      to: input.email,
      locale: input.locale,
      template: "one-time-code",
      data: { code: issued.code, purpose, minutes: CODE_POLICY.validMinutes },
    });
  }
  return issued;
}

/**
 * Checks the code for the member's pending e-mail; on success it becomes their e-mail and a login.
 * When it replaces a verified address, the old address is told (a hijacked account is noticed).
 */
export async function confirmEmailVerification(
  deps: AuthDeps,
  input: { userId: string; code: string; locale?: Locale },
): Promise<VerifyResult | { ok: false; reason: "no_pending" | "taken" }> {
  const found = await findMemberByUserId(deps.db, input.userId);
  const email = found?.pendingEmail;
  if (!found || !email) return { ok: false, reason: "no_pending" };
  const verified = await verifyCode(deps.db, {
    purpose: emailCodePurpose(found),
    target: email,
    code: input.code,
    secret: deps.secret,
  });
  if (!verified.ok) return verified;
  if (await isEmailTaken(deps.db, email, input.userId)) return { ok: false, reason: "taken" };
  await confirmMemberEmail(deps.db, input.userId, email);
  if (found.email && found.email !== email) {
    await deps.messaging.sendEmail({
      to: found.email,
      locale: input.locale ?? "zh-TW",
      template: "email-changed",
      data: { newEmail: email },
    });
  }
  return { ok: true };
}
