import { type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { codeFailure, codePageAction, signupPhoneTarget } from "~/adapters/code-step.server";
import { authDeps, getApp, toastSettings } from "~/adapters/context.server";
import { flowCookie } from "~/adapters/flow-cookie.server";
import type { CaptchaChallenge } from "~/components/auth/captcha";
import { createCaptchaChallenge } from "~/domain/auth/captcha.server";
import { startSession } from "~/domain/auth/flows.server";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { completeVerification, requestVerification } from "~/domain/auth/verification.server";
import { moveLineLoginToMember } from "~/domain/line/line.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { redirectWithToast } from "~/lib/toast.server";
import { recordSignupConsents } from "./signup-flow.server";

/**
 * Step 3 of a LINE sign-up also verifies a phone number (members are found at the counter by
 * phone). The number the code went to travels in this cookie; once verified and already a
 * member's, `verifiedMemberUserId` holds the member the LINE login may move to (the SMS code was the
 * proof).
 */
export const linePhoneCookie = flowCookie(
  "signup_line_phone",
  z.object({
    phone: z.string(),
    consentAt: z.string(),
    resendAt: z.number(),
    verifiedMemberUserId: z.string().optional(),
  }),
  15 * 60,
);

export async function linePhoneStepData(context: Readonly<RouterContextProvider>, request: Request) {
  const flow = await linePhoneCookie.read(context, request);
  const challenge = await createCaptchaChallenge(getApp(context).config.secrets.session);
  return {
    messages: routeMessages(getLocale(request), "lineSignup."),
    challenge: challenge as CaptchaChallenge,
    sentTo: flow ? formatTaiwanMobile(flow.phone) : null,
    resendAt: flow?.resendAt ?? null,
    minutes: CODE_POLICY.validMinutes,
    existingMember: Boolean(flow?.verifiedMemberUserId),
  };
}

/**
 * The intents of the LINE phone step: send, resend, change, verify (the shared code page), and link
 * to the existing member whose number was verified.
 */
export async function linePhoneAction(
  context: Readonly<RouterContextProvider>,
  request: Request,
  form: FormData,
  userId: string,
) {
  const t = serverT(request);
  const app = getApp(context);
  const deps = authDeps(context);
  const here = links["signup-create-member-info"]();

  if (form.get("intent") === "link") {
    const flow = await linePhoneCookie.read(context, request);
    if (!flow?.verifiedMemberUserId) return redirect(here);
    const moved = await moveLineLoginToMember(app.db, { fromUserId: userId, toUserId: flow.verifiedMemberUserId });
    if (!moved) return redirect(links.signupPhoneVerification());
    const headers = await startSession(deps, flow.verifiedMemberUserId, request.headers);
    headers.append("Set-Cookie", await linePhoneCookie.clear(context));
    return redirectWithToast(
      toastSettings(context),
      links["member-center"](),
      { type: "success", message: "notice.lineLinked" },
      { headers },
    );
  }

  return codePageAction({
    context,
    request,
    form,
    t,
    here,
    cookie: linePhoneCookie,
    ...signupPhoneTarget(t),
    // A resend keeps only the number and the consent (a verified member is not carried over).
    keepOnResend: ({ phone, consentAt }) => ({ phone, consentAt }),
    send: ({ phone }) =>
      requestVerification(deps, { flow: "line-signup", phoneNumber: phone, ip: app.ip, locale: getLocale(request) }),
    async verify(flow, code) {
      const verified = await completeVerification(deps, { flow: "line-signup", userId, phoneNumber: flow.phone, code });
      if (!verified.ok) return codeFailure(form, verified.reason, t);
      if (verified.existingMemberUserId) {
        const cookie = await linePhoneCookie.write(context, {
          ...flow,
          verifiedMemberUserId: verified.existingMemberUserId,
        });
        return redirect(here, { headers: { "Set-Cookie": cookie } });
      }
      await recordSignupConsents(context, userId);
      return redirect(here, { headers: { "Set-Cookie": await linePhoneCookie.clear(context) } });
    },
  });
}
