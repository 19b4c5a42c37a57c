import { data, type RouterContextProvider, redirect } from "react-router";
import type { CaptchaChallenge } from "~/components/auth/captcha";
import { PRIVACY_VERSION, TERMS_VERSION } from "~/content/legal";
import { createCaptchaChallenge, verifyCaptcha } from "~/domain/auth/captcha.server";
import { startSession } from "~/domain/auth/flows.server";
import { codeSchema, signupSendSchema } from "~/domain/auth/forms.server";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { recordConsents } from "~/domain/members/members.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { authDeps, getApp, toastSettings } from "~/lib/context.server";
import {
  captchaFailure,
  codeFailureText,
  fieldFailure,
  formFailure,
  parseForm,
  rateLimitedFailure,
} from "~/lib/forms.server";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { redirectWithToast } from "~/lib/toast.server";
import { linePhoneCookie, linkLineToExistingMember, sendLinePhoneCode, verifyLinePhoneCode } from "./line-phone.server";

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

/** The intents of the LINE phone step: send, resend, change, verify, link to the existing member. */
export async function linePhoneAction(
  context: Readonly<RouterContextProvider>,
  request: Request,
  form: FormData,
  userId: string,
) {
  const t = serverT(request);
  const app = getApp(context);
  const intent = form.get("intent");
  const here = links["signup-create-member-info"]();
  const flow = await linePhoneCookie.read(context, request);

  if (intent === "change") {
    return redirect(here, { headers: { "Set-Cookie": await linePhoneCookie.clear(context) } });
  }

  if (intent === "send" || intent === "resend") {
    if (intent === "resend" && !flow) return redirect(here);
    let phone: string;
    let consentAt: string;
    if (intent === "resend" && flow) {
      phone = flow.phone;
      consentAt = flow.consentAt;
    } else {
      const parsed = parseForm(signupSendSchema(t), form);
      if (!parsed.ok) return formFailure(parsed.failure);
      phone = parsed.data.phone;
      consentAt = new Date().toISOString();
    }
    if (!(await verifyCaptcha(app.db, form.get("altcha"), app.config.secrets.session))) {
      return captchaFailure(form, t);
    }
    const issued = await sendLinePhoneCode(context, { phone, t });
    if (!issued.ok) {
      const field = intent === "resend" ? "code" : "phone";
      return rateLimitedFailure(form, field, issued.retryAfterSeconds, t);
    }
    const resendAt = Date.now() + CODE_POLICY.resendCooldownSeconds * 1000;
    return redirect(here, {
      headers: { "Set-Cookie": await linePhoneCookie.write(context, { phone, consentAt, resendAt }) },
    });
  }

  if (intent === "verify") {
    if (!flow) return redirect(here);
    const code = codeSchema(t).safeParse(form.get("code"));
    if (!code.success) return fieldFailure(form, "code", t("auth.code.format"));
    const verified = await verifyLinePhoneCode(context, { userId, phone: flow.phone, code: code.data });
    if (!verified.ok) {
      return fieldFailure(form, "code", codeFailureText(verified.reason, t));
    }
    if (verified.existingMemberUserId) {
      const cookie = await linePhoneCookie.write(context, {
        ...flow,
        verifiedMemberUserId: verified.existingMemberUserId,
      });
      return redirect(here, { headers: { "Set-Cookie": cookie } });
    }
    await recordConsents(
      app.db,
      userId,
      [
        { kind: "terms", version: TERMS_VERSION, granted: true },
        { kind: "privacy", version: PRIVACY_VERSION, granted: true },
      ],
      app.ip,
    );
    return redirect(here, { headers: { "Set-Cookie": await linePhoneCookie.clear(context) } });
  }

  if (intent === "link") {
    if (!flow?.verifiedMemberUserId) return redirect(here);
    const moved = await linkLineToExistingMember(context, { fromUserId: userId, toUserId: flow.verifiedMemberUserId });
    if (!moved) return redirect(links.signupPhoneVerification());
    const headers = await startSession(authDeps(context), flow.verifiedMemberUserId, request.headers);
    headers.append("Set-Cookie", await linePhoneCookie.clear(context));
    return redirectWithToast(
      toastSettings(context),
      links["member-center"](),
      { type: "success", message: "notice.lineLinked" },
      { headers },
    );
  }
  return data({ ok: false as const, errors: {}, values: {} }, { status: 400 });
}
