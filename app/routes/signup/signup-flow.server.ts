import { type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { getApp, toastSettings } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { flowCookie } from "~/adapters/flow-cookie.server";
import { PRIVACY_VERSION, TERMS_VERSION } from "~/content/legal";
import { hasPassword } from "~/domain/auth/flows.server";
import { hasLineLogin } from "~/domain/line/line.server";
import { recordConsents } from "~/domain/members/members.server";
import { links } from "~/lib/links";
import { redirectWithToast } from "~/lib/toast.server";

/** Between "send code" and "verify": the number the code went to and when the terms were accepted. */
export const signupPhoneCookie = flowCookie(
  "signup_phone",
  z.object({ phone: z.string(), consentAt: z.string(), resendAt: z.number() }),
  15 * 60,
);

/**
 * Sign-up steps must be taken in order. Step 2 needs a verified phone (a session without a member);
 * step 3 also needs the password. Anything else goes back to step 1 (a member goes to the center).
 */
export async function requireSignupStep(context: Readonly<RouterContextProvider>, step: 2 | 3) {
  const session = getMemberSession(context);
  if (session?.member) throw redirect(links["member-center"]());
  if (!session) {
    throw await redirectWithToast(toastSettings(context), links.signupPhoneVerification(), {
      type: "error",
      message: "notice.signupRestart",
    });
  }
  // A LINE sign-up has no password step: its LINE login is the way in (PRODUCT.md §3 "LINE").
  if (
    step === 3 &&
    !(await hasPassword({ auth: getApp(context).auth }, session.userId)) &&
    !(await hasLineLogin(getApp(context).db, session.userId))
  ) {
    throw redirect(links.signupPasswordSetting());
  }
  return session;
}

/** The terms and privacy notice accepted on step 1 (phone) or step 3 (LINE), once the phone is verified. */
export async function recordSignupConsents(context: Readonly<RouterContextProvider>, userId: string) {
  const app = getApp(context);
  await recordConsents(
    app.db,
    userId,
    [
      { kind: "terms", version: TERMS_VERSION, granted: true },
      { kind: "privacy", version: PRIVACY_VERSION, granted: true },
    ],
    app.ip,
  );
}
