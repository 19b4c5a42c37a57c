import { Form, redirect, useNavigation } from "react-router";
import { checkFormCode, requestOrigin } from "~/adapters/code-step.server";
import { authDeps, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { CodeForm } from "~/components/auth/fields";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { CODE_POLICY } from "~/domain/auth/one-time-codes.server";
import { completeVerification, emailCodePurpose, requestVerification } from "~/domain/auth/verification.server";
import { rateLimitedFailure, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/verify-email";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "verifyEmail.title");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  if (!member.pendingEmail) throw redirect(links["member-center"]());
  return { email: member.pendingEmail, minutes: CODE_POLICY.validMinutes };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  const t = serverT(request);
  const form = await readForm(request);
  const deps = authDeps(context);
  if (form.get("intent") === "resend") {
    if (!session.member.pendingEmail) return redirect(links["member-center"]());
    const sent = await requestVerification(deps, {
      flow: "email",
      email: session.member.pendingEmail,
      ...requestOrigin(context, request),
      purpose: emailCodePurpose(session.member),
      memberUserId: session.userId,
    });
    if (!sent.ok) return rateLimitedFailure(form, "code", sent.retryAfterSeconds, t);
    return { ok: true as const, resent: true };
  }
  const locale = getLocale(request);
  const checked = await checkFormCode(form, t, t("auth.email.taken"), (code) =>
    completeVerification(deps, { flow: "email", userId: session.userId, code, locale }),
  );
  if (!checked.ok) return checked.answer;
  return redirectWithToast(toastSettings(context), links["member-center"](), {
    type: "success",
    message: "notice.emailVerified",
  });
}

export default function VerifyEmailPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const resent = (form.state as { resent?: boolean } | undefined)?.resent;
  return (
    <Page title={t("verifyEmail.title")} lead={t("verifyEmail.lead", { email: loaderData.email })} width="narrow">
      {resent ? (
        <Alert tone="success" className="mb-6">
          {t("auth.code.sentEmail", { target: loaderData.email, minutes: loaderData.minutes })}
        </Alert>
      ) : null}
      <CodeForm errors={form.errors("code")} intent="verify" submitLabel={t("auth.verify")} pending={pending} />
      <div className="mt-4 flex flex-col items-center gap-3">
        <Form method="post">
          <Button type="submit" name="intent" value="resend" variant="ghost">
            {t("auth.code.resend")}
          </Button>
        </Form>
        <Link to={links["member-center"]()} className="text-muted underline underline-offset-4">
          {t("verifyEmail.skip")}
        </Link>
      </div>
    </Page>
  );
}
