import { Form, redirect, useNavigation } from "react-router";
import { getApp } from "~/adapters/context.server";
import { NewPasswordFields } from "~/components/auth/fields";
import { SignupSteps } from "~/components/auth/steps";
import { Page } from "~/components/layout/page";
import { Button } from "~/components/ui/button";
import { newPasswordSchema } from "~/domain/auth/auth-schemas.server";
import { setPassword } from "~/domain/auth/flows.server";
import { passwordProblemMessage } from "~/domain/auth/password-messages";
import { fieldFailure, formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/password-setting";
import { requireSignupStep } from "./signup-flow.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.signupPassword.title");

export async function loader({ context }: Route.LoaderArgs) {
  await requireSignupStep(context, 2);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireSignupStep(context, 2);
  const t = serverT(request);
  const form = await readForm(request);
  const parsed = parseForm(newPasswordSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const phoneDigits = session.phoneNumber ? [session.phoneNumber, `0${session.phoneNumber.slice(4)}`] : [];
  const result = await setPassword({ auth: getApp(context).auth }, session.userId, parsed.data.password, phoneDigits);
  if (!result.ok) return fieldFailure(form, "password", t(passwordProblemMessage(result.problem)));
  return redirect(links["signup-create-member-info"]());
}

export default function SignupPasswordSettingPage() {
  const t = useT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  return (
    <Page title={t("page.signupPassword.title")} width="narrow">
      <SignupSteps current={2} />
      <Form method="post" className="space-y-6" noValidate>
        <NewPasswordFields errors={form.errors("password")} confirmErrors={form.errors("confirmPassword")} />
        <Button type="submit" block size="lg" pending={pending}>
          {t("auth.next")}
        </Button>
      </Form>
    </Page>
  );
}
