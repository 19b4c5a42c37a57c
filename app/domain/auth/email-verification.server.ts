import { confirmMemberEmail, findMemberByUserId, isEmailTaken } from "../members/members.server";
import type { AuthDeps, Locale } from "./flows.server";
import { CODE_POLICY, type IssueResult, issueCode, type VerifyResult, verifyCode } from "./one-time-codes.server";

/** Sends a code to a member's new (pending) e-mail address. */
export async function sendEmailVerification(
  deps: AuthDeps,
  input: { email: string; ip: string | null; locale: Locale },
): Promise<IssueResult> {
  const issued = await issueCode(deps.db, {
    purpose: "verify-email",
    target: input.email,
    ip: input.ip,
    secret: deps.secret,
  });
  if (issued.ok) {
    await deps.messaging.sendEmail({
      to: input.email,
      locale: input.locale,
      template: "one-time-code",
      data: { code: issued.code, purpose: "verify-email", minutes: CODE_POLICY.validMinutes },
    });
  }
  return issued;
}

/** Checks the code for the member's pending e-mail; on success it becomes their e-mail and a login. */
export async function confirmEmailVerification(
  deps: AuthDeps,
  input: { userId: string; code: string },
): Promise<VerifyResult | { ok: false; reason: "no_pending" | "taken" }> {
  const found = await findMemberByUserId(deps.db, input.userId);
  const email = found?.pendingEmail;
  if (!email) return { ok: false, reason: "no_pending" };
  const verified = await verifyCode(deps.db, {
    purpose: "verify-email",
    target: email,
    code: input.code,
    secret: deps.secret,
  });
  if (!verified.ok) return verified;
  if (await isEmailTaken(deps.db, email, input.userId)) return { ok: false, reason: "taken" };
  await confirmMemberEmail(deps.db, input.userId, email);
  return { ok: true };
}
