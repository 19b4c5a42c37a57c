import { countLoginFailure } from "@platform/metrics";
import { Form, redirect, useNavigation } from "react-router";
import { authDeps, getApp, toastSettings } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { CurrentPasswordField } from "~/components/auth/current-password-field";
import { EmailField } from "~/components/auth/email-field";
import { PhoneField } from "~/components/auth/fields";
import { PasskeyLoginButton } from "~/components/auth/passkey-login-button";
import { Page } from "~/components/layout/page";
import { LineLoginButton } from "~/components/line/line-login-button";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { TabLinks } from "~/components/ui/tab-links";
import { loginSchema } from "~/domain/auth/auth-schemas.server";
import { startSession, verifyLogin } from "~/domain/auth/flows.server";
import { formFailure, formValues, parseForm, readForm, tooManyRequestsText } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { links, safeRedirectPath } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/member-login";
import { withWelcome } from "./forget-password/welcome";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.login.title");

function readTarget(url: URL) {
  return {
    method: url.searchParams.get("method") === "email" ? ("email" as const) : ("phone" as const),
    redirectTo: safeRedirectPath(url.searchParams.get("redirectTo"), links["member-center"]()),
    /** After 會員登入失敗 (LINE sign-in without a member): offer sign-up with LINE. */
    lineSignupOffer: url.searchParams.get("line") === "signup-offer",
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const target = readTarget(new URL(request.url));
  if (getMemberSession(context)?.member) throw redirect(target.redirectTo);
  return target;
}

export async function action({ request, context }: Route.ActionArgs) {
  const t = serverT(request);
  const form = await readForm(request);
  const redirectTo = safeRedirectPath(form.get("redirectTo"), links["member-center"]());
  const parsed = parseForm(loginSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const input = parsed.data;
  const deps = authDeps(context);
  const result = await verifyLogin(deps, {
    kind: input.method,
    identifier: input.method === "phone" ? input.phone : input.email,
    password: input.password,
    ip: getApp(context).ip,
  });
  if (!result.ok) {
    countLoginFailure(result.reason);
    const message =
      result.reason === "disabled"
        ? t("auth.login.disabled")
        : result.reason === "rate_limited"
          ? tooManyRequestsText(result.retryAfterSeconds, t)
          : t("auth.login.failed");
    const status = result.reason === "rate_limited" ? 429 : result.reason === "disabled" ? 403 : 401;
    return formFailure({ errors: {}, values: formValues(form), formError: message }, status);
  }
  const headers = await startSession(deps, result.userId, request.headers);
  const response = await redirectWithToast(toastSettings(context), redirectTo, {
    type: "success",
    message: "notice.loggedIn",
  });
  for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  return response;
}

export default function MemberLoginPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { method, redirectTo } = loaderData;
  // The member center is where a login goes anyway: the tabs leave it out of their addresses.
  const back = redirectTo === links["member-center"]() ? undefined : redirectTo;
  const tab = (m: "phone" | "email") => links["member-login"](back, m);
  return (
    <Page title={t("page.login.title")} lead={t("page.login.lead")} width="narrow">
      <TabLinks
        label={t("page.login.title")}
        className="mb-6"
        current={method}
        items={[
          { value: "phone", to: tab("phone"), label: t("auth.login.byPhone") },
          { value: "email", to: tab("email"), label: t("auth.login.byEmail") },
        ]}
      />
      {form.formError ? (
        <Alert tone="error" className="mb-6">
          {form.formError}
        </Alert>
      ) : null}
      <Form method="post" className="space-y-5" noValidate>
        <input type="hidden" name="method" value={method} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {method === "phone" ? (
          <PhoneField defaultValue={form.value("phone")} errors={form.errors("phone")} />
        ) : (
          <EmailField defaultValue={form.value("email")} errors={form.errors("email")} />
        )}
        <CurrentPasswordField errors={form.errors("password")} />
        <div className="flex justify-end">
          <Link to={links.forgetPassword()} className="text-sm underline underline-offset-4">
            {t("auth.login.forgot")}
          </Link>
        </div>
        <Button type="submit" block size="lg" pending={pending}>
          {t("auth.login.submit")}
        </Button>
      </Form>
      <LineLoginButton redirectTo={redirectTo} offerSignup={loaderData.lineSignupOffer} />
      <div className="mt-4">
        <PasskeyLoginButton redirectTo={redirectTo} />
      </div>
      <p className="mt-8 text-center text-muted">
        {t("auth.login.noAccount")}{" "}
        <Link to={links.signupPhoneVerification()} className="font-semibold text-ink underline underline-offset-4">
          {t("auth.login.signup")}
        </Link>
      </p>
      <p className="mt-3 text-center text-sm">
        {/* Members moved in from another system without a password (issue 35): the reset flow, as a welcome. */}
        <Link to={withWelcome(links.forgetPasswordPhone(), true)} className="underline underline-offset-4">
          {t("auth.login.welcome")}
        </Link>
      </p>
    </Page>
  );
}
