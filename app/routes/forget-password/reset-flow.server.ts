import { type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { codeFailure, codePageAction } from "~/adapters/code-step.server";
import { authDeps, getApp } from "~/adapters/context.server";
import { flowCookie } from "~/adapters/flow-cookie.server";
import { codeSchema, emailSchema, phoneSchema } from "~/domain/auth/auth-schemas.server";
import { createCaptchaChallenge } from "~/domain/auth/captcha.server";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { completeVerification, type ResetChannel, requestVerification } from "~/domain/auth/verification.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { fieldFailure, readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { isWelcome, withWelcome } from "./welcome";

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
    welcome: isWelcome(new URL(request.url)),
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
  const form = await readForm(request);
  const app = getApp(context);
  const deps = authDeps(context);
  const field = channel === "phone" ? "phone" : "email";
  // The welcome variant keeps its flag from step to step; the domain answers exactly as for a reset.
  const welcome = isWelcome(new URL(request.url));

  return codePageAction({
    context,
    request,
    form,
    t,
    here: withWelcome(pagePath(channel), welcome),
    cookie: resetTargetCookie,
    belongs: (flow) => flow.channel === channel,
    targetField: field,
    parseCode: (value) => codeSchema(t).safeParse(value),
    readTarget(form) {
      const parsed = (channel === "phone" ? phoneSchema(t) : emailSchema(t)).safeParse(form.get(field));
      if (!parsed.success) {
        return { ok: false, answer: fieldFailure(form, field, parsed.error.issues[0]?.message ?? t("form.required")) };
      }
      return { ok: true, flow: { channel, target: parsed.data } };
    },
    send: (flow) =>
      requestVerification(deps, {
        flow: "reset-password",
        channel,
        target: flow.target,
        ip: app.ip,
        locale: getLocale(request),
        welcome,
      }),
    async verify(flow, code) {
      const verified = await completeVerification(deps, { flow: "reset-password", channel, target: flow.target, code });
      if (!verified.ok) return codeFailure(form, verified.reason, t);
      const headers = new Headers();
      headers.append("Set-Cookie", await resetTargetCookie.clear(context));
      headers.append(
        "Set-Cookie",
        await resetTicketCookie.write(context, { userId: verified.userId, issuedAt: Date.now() }),
      );
      return redirect(withWelcome(links.forgetPasswordNew(), welcome), { headers });
    },
  });
}
