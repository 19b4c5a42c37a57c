import type { RouterContextProvider } from "react-router";
import { readCode } from "~/adapters/code-step.server";
import { authDeps, getApp } from "~/adapters/context.server";
import type { MemberSession } from "~/adapters/current-member.server";
import { hasPasswordLogin, proveIdentity } from "~/domain/auth/identity.server";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { requestVerification } from "~/domain/auth/verification.server";
import { maskTaiwanMobile } from "~/domain/members/taiwan";
import { codeFailureText, fieldFailure, tooManyRequestsText } from "~/lib/forms.server";
import type { Translate } from "~/lib/i18n";
import { getLocale } from "~/lib/i18n.server";

/**
 * The "confirm it's you" part of a form (confirm-identity and delete-account): intent
 * `send-code` texts a code to the member's own number; otherwise `method` is password or sms
 * and the proof is checked. The code always goes to the session member's phone, never to a
 * number from the request.
 */
export type IdentityStep =
  | { kind: "proven" }
  | { kind: "answer"; response: Response | ReturnType<typeof fieldFailure> | { ok: true; codeSent: string } };

export async function handleIdentityProof(
  context: Readonly<RouterContextProvider>,
  request: Request,
  form: FormData,
  session: MemberSession & { member: { phoneNumber: string } },
  t: Translate,
): Promise<IdentityStep> {
  const deps = authDeps(context);
  const phoneNumber = session.member.phoneNumber;
  if (form.get("intent") === "send-code") {
    const sent = await requestVerification(deps, {
      flow: "reauth",
      phoneNumber,
      ip: getApp(context).ip,
      locale: getLocale(request),
    });
    if (!sent.ok) {
      return {
        kind: "answer",
        response: fieldFailure(form, "code", tooManyRequestsText(sent.retryAfterSeconds, t), 429),
      };
    }
    return {
      kind: "answer",
      response: {
        ok: true as const,
        codeSent: t("account.identity.codeSent", {
          phone: maskTaiwanMobile(phoneNumber),
          minutes: CODE_POLICY.validMinutes,
        }),
      },
    };
  }
  const method = form.get("method") === "sms" ? "sms" : "password";
  let proof: { method: "password"; password: string } | { method: "sms"; code: string };
  if (method === "password") {
    const password = form.get("password");
    if (typeof password !== "string" || password.length === 0 || password.length > 128) {
      return { kind: "answer", response: fieldFailure(form, "password", t("form.required")) };
    }
    proof = { method: "password", password };
  } else {
    const code = readCode(form, t);
    if (!code.ok) return { kind: "answer", response: code.answer };
    proof = { method: "sms", code: code.code };
  }
  const result = await proveIdentity(deps, { userId: session.userId, phoneNumber, proof });
  if (result.ok) return { kind: "proven" };
  const field = method === "password" ? "password" : "code";
  const message =
    result.reason === "rate_limited"
      ? tooManyRequestsText(result.retryAfterSeconds, t)
      : result.reason === "no_password"
        ? t("account.identity.noPassword")
        : method === "password"
          ? t("account.identity.wrongPassword")
          : codeFailureText(result.reason, t);
  return { kind: "answer", response: fieldFailure(form, field, message, result.reason === "rate_limited" ? 429 : 400) };
}

/**
 * What the identity form shows: the password tab only for a member who has a password, the masked
 * phone the code goes to. `wantsSms` is the page's ?method=sms.
 */
export async function identityProofData(
  context: Readonly<RouterContextProvider>,
  session: MemberSession & { member: { phoneNumber: string } },
  wantsSms: boolean,
) {
  const hasPassword = await hasPasswordLogin(getApp(context).db, session.userId);
  return {
    hasPassword,
    method: !hasPassword || wantsSms ? ("sms" as const) : ("password" as const),
    maskedPhone: maskTaiwanMobile(session.member.phoneNumber),
  };
}
