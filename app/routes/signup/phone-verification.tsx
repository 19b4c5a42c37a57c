import { data, redirect, useNavigation } from "react-router";
import { codeFailure, codePageAction, signupPhoneTarget } from "~/adapters/code-step.server";
import { authDeps, getApp } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import type { CaptchaChallenge } from "~/components/auth/captcha";
import { PhoneCodeSteps } from "~/components/auth/code-step";
import { SignupSteps } from "~/components/auth/steps";
import { Page } from "~/components/layout/page";
import { LineSignupButton } from "~/components/line/line-signup-button";
import { Alert } from "~/components/ui/alert";
import { Link } from "~/components/ui/link";
import { createCaptchaChallenge } from "~/domain/auth/captcha.server";
import { startSession } from "~/domain/auth/flows.server";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { completeVerification, requestVerification } from "~/domain/auth/verification.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { formValues, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/phone-verification";
import { recordSignupConsents, signupPhoneCookie } from "./signup-flow.server";

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
  const form = await readForm(request);
  const deps = authDeps(context);
  const app = getApp(context);
  const alreadyMember = (values: Record<string, string>) =>
    data({ ok: false as const, alreadyMember: true, errors: {}, values }, { status: 409 });

  return codePageAction({
    context,
    request,
    form,
    t,
    here: links.signupPhoneVerification(),
    cookie: signupPhoneCookie,
    ...signupPhoneTarget(t),
    send: (flow) =>
      requestVerification(deps, { flow: "signup", phoneNumber: flow.phone, ip: app.ip, locale: getLocale(request) }),
    refused: () => alreadyMember(formValues(form)),
    async verify(flow, code) {
      const verified = await completeVerification(deps, { flow: "signup", phoneNumber: flow.phone, code });
      if (!verified.ok) {
        return verified.reason === "already_member" ? alreadyMember({}) : codeFailure(form, verified.reason, t);
      }
      await recordSignupConsents(context, verified.userId);
      const headers = await startSession(deps, verified.userId, request.headers);
      headers.append("Set-Cookie", await signupPhoneCookie.clear(context));
      return redirect(links.signupPasswordSetting(), { headers });
    },
  });
}

export default function SignupPhoneVerificationPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const form = useFormState();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
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

      <PhoneCodeSteps {...loaderData} form={form} pending={pending}>
        <p className="text-center text-muted">
          {t("auth.signup.haveAccount")}{" "}
          <Link to={links["member-login"]()} className="font-semibold text-ink underline underline-offset-4">
            {t("auth.login.submit")}
          </Link>
        </p>
      </PhoneCodeSteps>
      {loaderData.sentTo ? null : <LineSignupButton />}
    </Page>
  );
}
