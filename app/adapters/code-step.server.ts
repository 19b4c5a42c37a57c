import { type data, type RouterContextProvider, redirect } from "react-router";
import { codeSchema, signupSendSchema } from "~/domain/auth/auth-schemas.server";
import { verifyCaptcha } from "~/domain/auth/captcha.server";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import {
  captchaFailure,
  codeFailureText,
  fieldFailure,
  formFailure,
  parseForm,
  rateLimitedFailure,
  tooManyRequestsText,
} from "~/lib/forms.server";
import type { Translate } from "~/lib/i18n";
import { getLocale } from "~/lib/i18n.server";
import { getApp } from "./context.server";
import type { FlowCookie } from "./flow-cookie.server";

/**
 * The HTTP side of a page that sends a code and takes it back (sign-up by phone, the phone step of a
 * LINE sign-up, forgot password): the same four intents everywhere, around the domain's verification
 * flow (app/domain/auth/verification.server.ts).
 *
 *   change   forget the target (back to the first form)
 *   send     read the target, check the captcha, send the code, remember the target and resend time
 *   resend   the same for the remembered target
 *   verify   check the typed code for the remembered target, then the page's own next step
 *
 * Anything the page answers itself (a refused send other than a limit, a verified code) goes
 * through its callbacks.
 */
type Answer = Response | ReturnType<typeof data<unknown>>;
type Refusal = { ok: false; reason: string; retryAfterSeconds?: number };

export type CodePage<F extends { resendAt: number }> = {
  context: Readonly<RouterContextProvider>;
  request: Request;
  form: FormData;
  t: Translate;
  /** The page itself (every intent comes back here). */
  here: string;
  cookie: FlowCookie<F>;
  /** What a resend keeps of the remembered flow (default: all of it). */
  keepOnResend?: (flow: F) => Omit<F, "resendAt">;
  /** Whether a remembered flow belongs to this page (e.g. the forgot-password channel). */
  belongs?: (flow: F) => boolean;
  /** The field the target is typed in (where a limit's message goes on "send"). */
  targetField: string;
  /** On "send": the flow to remember from the form, or the page's answer for a bad field. */
  readTarget: (form: FormData) => { ok: true; flow: Omit<F, "resendAt"> } | { ok: false; answer: Answer };
  /** The domain's send for the flow's target. */
  send: (flow: Omit<F, "resendAt">) => Promise<{ ok: true } | Refusal>;
  /** A refused send that is not a limit (e.g. "already a member"). */
  refused?: (refusal: Refusal) => Answer;
  /** The domain's check of a typed code for the remembered flow, and the page's next step. */
  verify: (flow: F, code: string) => Promise<Answer>;
  /** The code format (a field failure when it is not 6 digits). */
  parseCode: (value: FormDataEntryValue | null) => { success: true; data: string } | { success: false };
};

export async function codePageAction<F extends { resendAt: number }>(page: CodePage<F>): Promise<Answer> {
  const { context, request, form, t, here, cookie } = page;
  const intent = form.get("intent");
  const remembered = async () => {
    const flow = await cookie.read(context, request);
    return flow && (page.belongs?.(flow) ?? true) ? flow : null;
  };

  if (intent === "change") {
    return redirect(here, { headers: { "Set-Cookie": await cookie.clear(context) } });
  }

  if (intent === "send" || intent === "resend") {
    let flow: Omit<F, "resendAt">;
    if (intent === "resend") {
      const current = await remembered();
      if (!current) return redirect(here);
      const { resendAt: _, ...rest } = current;
      flow = page.keepOnResend?.(current) ?? rest;
    } else {
      const read = page.readTarget(form);
      if (!read.ok) return read.answer;
      flow = read.flow;
    }
    const app = getApp(context);
    if (!(await verifyCaptcha(app.db, form.get("altcha"), app.config.secrets.session))) {
      return captchaFailure(form, t);
    }
    const sent = await page.send(flow);
    if (!sent.ok) {
      if (sent.retryAfterSeconds === undefined && page.refused) return page.refused(sent);
      const field = intent === "resend" ? "code" : page.targetField;
      return rateLimitedFailure(form, field, sent.retryAfterSeconds ?? CODE_POLICY.resendCooldownSeconds, t);
    }
    const resendAt = Date.now() + CODE_POLICY.resendCooldownSeconds * 1000;
    return redirect(here, {
      headers: { "Set-Cookie": await cookie.write(context, { ...flow, resendAt } as F) },
    });
  }

  if (intent === "verify") {
    const flow = await remembered();
    if (!flow) return redirect(here);
    const code = page.parseCode(form.get("code"));
    if (!code.success) return fieldFailure(form, "code", t("auth.code.format"));
    return page.verify(flow, code.data);
  }
  return formFailure({ errors: {}, values: {} });
}

/** The 6-digit code of a code form, or the answer beside its field when it is not one. */
export function readCode(
  form: FormData,
  t: Translate,
): { ok: true; code: string } | { ok: false; answer: ReturnType<typeof fieldFailure> } {
  const code = codeSchema(t).safeParse(form.get("code"));
  if (!code.success) return { ok: false, answer: fieldFailure(form, "code", t("auth.code.format")) };
  return { ok: true, code: code.data };
}

/**
 * A code form's last step: the typed code, checked by `verify` (the domain's completeVerification for the
 * flow), or the answer beside the code field (not a code, expired, wrong, or `taken` meanwhile).
 */
export async function checkFormCode<R extends { ok: true } | { ok: false; reason: string }>(
  form: FormData,
  t: Translate,
  taken: string,
  verify: (code: string) => Promise<R>,
): Promise<{ ok: true; result: Extract<R, { ok: true }> } | { ok: false; answer: ReturnType<typeof fieldFailure> }> {
  const code = readCode(form, t);
  if (!code.ok) return code;
  const result = await verify(code.code);
  if (!result.ok) return { ok: false, answer: codeFailure(form, result.reason, t, taken) };
  return { ok: true, result: result as Extract<R, { ok: true }> };
}

/** Where a verification request comes from (the client address and the page's language). */
export function requestOrigin(context: Readonly<RouterContextProvider>, request: Request) {
  return { ip: getApp(context).ip, locale: getLocale(request) };
}

/**
 * The answer for a refused code, beside the code field: expired, tried too often, or wrong — or, for
 * a contact change, `taken` when somebody took the number or address in the meantime.
 */
export function codeFailure(form: FormData, reason: string, t: Translate, taken?: string) {
  return fieldFailure(form, "code", reason === "taken" && taken ? taken : codeFailureText(reason, t));
}

/**
 * The answer for a refused send of a new phone number or e-mail address, beside its field: taken
 * (409), the member's own (400), or a limit (429).
 */
export function contactSendFailure(
  form: FormData,
  field: string,
  refusal: Refusal,
  t: Translate,
  words: { taken: string; unchanged: string },
) {
  if (refusal.reason === "taken") return fieldFailure(form, field, words.taken, 409);
  if (refusal.reason === "unchanged") return fieldFailure(form, field, words.unchanged, 400);
  return fieldFailure(form, field, tooManyRequestsText(refusal.retryAfterSeconds ?? 60, t), 429);
}

/**
 * What a sign-up phone step asks for (sign-up and LINE sign-up alike): a Taiwan mobile number with the
 * consent, then its 6-digit code. The flow keeps the number and when the consent was given.
 */
export function signupPhoneTarget(t: Translate) {
  return {
    targetField: "phone",
    parseCode: (value: FormDataEntryValue | null) => codeSchema(t).safeParse(value),
    readTarget(form: FormData) {
      const parsed = parseForm(signupSendSchema(t), form);
      if (!parsed.ok) return { ok: false as const, answer: formFailure(parsed.failure) };
      return { ok: true as const, flow: { phone: parsed.data.phone, consentAt: new Date().toISOString() } };
    },
  };
}
