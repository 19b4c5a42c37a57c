import { data, type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { createCaptchaChallenge, verifyCaptcha } from "~/domain/auth/captcha.server";
import { type ResetChannel, requestPasswordReset, verifyPasswordReset } from "~/domain/auth/flows.server";
import { codeSchema, emailSchema, phoneSchema } from "~/domain/auth/forms.server";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { authDeps, getApp } from "~/lib/context.server";
import { flowCookie } from "~/lib/flow-cookie.server";
import { captchaFailure, codeFailureText, fieldFailure, rateLimitedFailure } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";

/** Where the code went (between "send" and "verify"). */
export const resetTargetCookie = flowCookie(
  "reset_target",
  z.object({ channel: z.enum(["phone", "email"]), target: z.string(), resendAt: z.number() }),
  15 * 60,
);

/** Proof that the code was verified: allows setting a new password for 10 minutes, once. */
export const resetTicketCookie = flowCookie(
  "reset_ticket",
  z.object({ userId: z.string(), issuedAt: z.number() }),
  10 * 60,
);

const pagePath = (channel: ResetChannel) =>
  channel === "phone" ? links.forgetPasswordPhone() : links.forgetPasswordEmail();

export async function resetCodeLoader(
  context: Readonly<RouterContextProvider>,
  request: Request,
  channel: ResetChannel,
) {
  const flow = await resetTargetCookie.read(context, request);
  const current = flow?.channel === channel ? flow : null;
  return {
    channel,
    challenge: await createCaptchaChallenge(getApp(context).config.secrets.session),
    sentTo: current ? (channel === "phone" ? formatTaiwanMobile(current.target) : current.target) : null,
    resendAt: current?.resendAt ?? null,
    minutes: CODE_POLICY.validMinutes,
  };
}

export async function resetCodeAction(
  context: Readonly<RouterContextProvider>,
  request: Request,
  channel: ResetChannel,
) {
  const t = serverT(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const app = getApp(context);
  const deps = authDeps(context);

  if (intent === "change") {
    return redirect(pagePath(channel), { headers: { "Set-Cookie": await resetTargetCookie.clear(context) } });
  }
  if (intent === "send" || intent === "resend") {
    const flow = intent === "resend" ? await resetTargetCookie.read(context, request) : null;
    let target: string;
    if (flow && flow.channel === channel) {
      target = flow.target;
    } else {
      const field = channel === "phone" ? "phone" : "email";
      const parsed = (channel === "phone" ? phoneSchema(t) : emailSchema(t)).safeParse(form.get(field));
      if (!parsed.success) return fieldFailure(form, field, parsed.error.issues[0]?.message ?? t("form.required"));
      target = parsed.data;
    }
    if (!(await verifyCaptcha(app.db, form.get("altcha"), app.config.secrets.session))) {
      return captchaFailure(form, t);
    }
    const result = await requestPasswordReset(deps, { channel, target, ip: app.ip, locale: getLocale(request) });
    if (!result.ok) {
      const field = intent === "resend" ? "code" : channel === "phone" ? "phone" : "email";
      return rateLimitedFailure(form, field, result.retryAfterSeconds, t);
    }
    const resendAt = Date.now() + CODE_POLICY.resendCooldownSeconds * 1000;
    return redirect(pagePath(channel), {
      headers: { "Set-Cookie": await resetTargetCookie.write(context, { channel, target, resendAt }) },
    });
  }
  if (intent === "verify") {
    const flow = await resetTargetCookie.read(context, request);
    if (!flow || flow.channel !== channel) return redirect(pagePath(channel));
    const code = codeSchema(t).safeParse(form.get("code"));
    if (!code.success) return fieldFailure(form, "code", t("auth.code.format"));
    const verified = await verifyPasswordReset(deps, { channel, target: flow.target, code: code.data });
    if (!verified.ok) {
      return fieldFailure(form, "code", codeFailureText(verified.reason, t));
    }
    const headers = new Headers();
    headers.append("Set-Cookie", await resetTargetCookie.clear(context));
    headers.append(
      "Set-Cookie",
      await resetTicketCookie.write(context, { userId: verified.userId, issuedAt: Date.now() }),
    );
    return redirect(links.forgetPasswordNew(), { headers });
  }
  return data({ ok: false as const, errors: {}, values: {} }, { status: 400 });
}
