import { data, Link, redirect, useNavigation } from "react-router";
import { type CaptchaChallenge, useCaptcha } from "~/components/auth/captcha";
import { CodeStep, PhoneConsentForm } from "~/components/auth/code-step";
import { useCountdown } from "~/components/auth/fields";
import { SignupSteps } from "~/components/auth/steps";
import { Page } from "~/components/layout/page";
import { LineSignupButton } from "~/components/line/line-signup-button";
import { Alert } from "~/components/ui/alert";
import { PRIVACY_VERSION, TERMS_VERSION } from "~/content/legal";
import { createCaptchaChallenge, verifyCaptcha } from "~/domain/auth/captcha.server";
import { requestSignupCode, startSession, verifySignupCode } from "~/domain/auth/flows.server";
import { codeSchema, signupSendSchema } from "~/domain/auth/forms.server";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { recordConsents } from "~/domain/members/members.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { authDeps, getApp } from "~/lib/context.server";
import {
  captchaFailure,
  codeFailureText,
  fieldFailure,
  formFailure,
  formValues,
  parseForm,
  rateLimitedFailure,
} from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { getMemberSession } from "~/lib/member-session.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/phone-verification";
import { signupPhoneCookie } from "./signup-flow.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.signupPhone.title");

export async function loader({ request, context }: Route.LoaderArgs) {
  if (getMemberSession(context)?.member) throw redirect(links["member-center"]());
  const flow = await signupPhoneCookie.read(context, request);
  const challenge = await createCaptchaChallenge(getApp(context).config.secrets.session);
  return {
    challenge: challenge as CaptchaChallenge,
    sentTo: flow ? formatTaiwanMobile(flow.phone) : null,
    resendAt: flow?.resendAt ?? null,
    minutes: CODE_POLICY.validMinutes,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const t = serverT(request);
  const form = await request.formData();
  const intent = form.get("intent");
  const deps = authDeps(context);
  const app = getApp(context);

  if (intent === "change") {
    return redirect(links.signupPhoneVerification(), {
      headers: { "Set-Cookie": await signupPhoneCookie.clear(context) },
    });
  }

  if (intent === "send" || intent === "resend") {
    const flow = intent === "resend" ? await signupPhoneCookie.read(context, request) : null;
    if (intent === "resend" && !flow) return redirect(links.signupPhoneVerification());
    let phone: string;
    let consentAt: string;
    if (flow) {
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
    const result = await requestSignupCode(deps, { phoneNumber: phone, ip: app.ip, locale: getLocale(request) });
    if (!result.ok) {
      if (result.reason === "already_member") {
        return data({ ok: false as const, alreadyMember: true, errors: {}, values: formValues(form) }, { status: 409 });
      }
      const field = intent === "resend" ? "code" : "phone";
      return rateLimitedFailure(form, field, result.retryAfterSeconds, t);
    }
    const resendAt = Date.now() + CODE_POLICY.resendCooldownSeconds * 1000;
    return redirect(links.signupPhoneVerification(), {
      headers: { "Set-Cookie": await signupPhoneCookie.write(context, { phone, consentAt, resendAt }) },
    });
  }

  if (intent === "verify") {
    const flow = await signupPhoneCookie.read(context, request);
    if (!flow) return redirect(links.signupPhoneVerification());
    const code = codeSchema(t).safeParse(form.get("code"));
    if (!code.success) return fieldFailure(form, "code", t("auth.code.format"));
    const verified = await verifySignupCode(deps, { phoneNumber: flow.phone, code: code.data });
    if (!verified.ok) {
      if (verified.reason === "already_member") {
        return data({ ok: false as const, alreadyMember: true, errors: {}, values: {} }, { status: 409 });
      }
      return fieldFailure(form, "code", codeFailureText(verified.reason, t));
    }
    await recordConsents(
      app.db,
      verified.userId,
      [
        { kind: "terms", version: TERMS_VERSION, granted: true },
        { kind: "privacy", version: PRIVACY_VERSION, granted: true },
      ],
      app.ip,
    );
    const headers = await startSession(deps, verified.userId, request.headers);
    headers.append("Set-Cookie", await signupPhoneCookie.clear(context));
    return redirect(links.signupPasswordSetting(), { headers });
  }
  return data({ ok: false as const, errors: {}, values: {} }, { status: 400 });
}

export default function SignupPhoneVerificationPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const form = useFormState();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const captcha = useCaptcha(loaderData.challenge);
  const secondsLeft = useCountdown(loaderData.resendAt);
  const alreadyMember = (form.state as { alreadyMember?: boolean } | undefined)?.alreadyMember;

  return (
    <Page title={t("page.signupPhone.title")} width="narrow">
      <SignupSteps current={1} />
      {alreadyMember ? (
        <Alert tone="error" title={t("notice.alreadyMember")} className="mb-6">
          <p>{t("auth.alreadyMember.body")}</p>
          <p className="mt-3 flex flex-wrap gap-4">
            <Link to={links["member-login"]()} className="font-semibold underline underline-offset-4">
              {t("auth.login.submit")}
            </Link>
            <Link to={links.forgetPasswordPhone()} className="font-semibold underline underline-offset-4">
              {t("auth.login.forgot")}
            </Link>
          </p>
        </Alert>
      ) : null}
      {form.formError ? (
        <Alert tone="error" className="mb-6">
          {form.formError}
        </Alert>
      ) : null}

      {loaderData.sentTo ? (
        <CodeStep
          sentNotice={t("auth.code.sentSms", { target: loaderData.sentTo, minutes: loaderData.minutes })}
          codeErrors={form.errors("code")}
          pending={pending}
          captcha={captcha}
          secondsLeft={secondsLeft}
        />
      ) : (
        <PhoneConsentForm form={form} captcha={captcha} pending={pending}>
          <p className="text-center text-muted">
            {t("auth.signup.haveAccount")}{" "}
            <Link to={links["member-login"]()} className="font-semibold text-ink underline underline-offset-4">
              {t("auth.login.submit")}
            </Link>
          </p>
        </PhoneConsentForm>
      )}
      {loaderData.sentTo ? null : <LineSignupButton />}
    </Page>
  );
}
