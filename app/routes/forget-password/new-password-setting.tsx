import { Form, useNavigation } from "react-router";
import { getApp, toastSettings } from "~/adapters/context.server";
import { NewPasswordFields } from "~/components/auth/fields";
import { Page } from "~/components/layout/page";
import { Button } from "~/components/ui/button";
import { newPasswordSchema } from "~/domain/auth/auth-schemas.server";
import { completePasswordReset } from "~/domain/auth/flows.server";
import { passwordProblemMessage } from "~/domain/auth/password-messages";
import { fieldFailure, formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/new-password-setting";
import { resetTicketCookie } from "./reset-flow.server";
import { isWelcome, withWelcome } from "./welcome";

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(matches, isWelcome(location.search) ? "page.welcomeNew.title" : "page.forgetNew.title");

/** A valid ticket: issued by a verified code, and the password not changed since. */
async function requireTicket(context: Route.LoaderArgs["context"], request: Request) {
  const ticket = await resetTicketCookie.read(context, request);
  const { auth } = getApp(context);
  const account = ticket ? await (await auth.$context).internalAdapter.findCredentialAccount(ticket.userId) : null;
  if (!ticket || (account && account.updatedAt.getTime() > ticket.issuedAt)) {
    const welcome = isWelcome(new URL(request.url));
    throw await redirectWithToast(toastSettings(context), withWelcome(links.forgetPassword(), welcome), {
      type: "error",
      message: welcome ? "auth.welcome.expired" : "auth.forget.expired",
    });
  }
  return ticket;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireTicket(context, request);
  return { welcome: isWelcome(new URL(request.url)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const ticket = await requireTicket(context, request);
  const t = serverT(request);
  const form = await readForm(request);
  const parsed = parseForm(newPasswordSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const app = getApp(context);
  const result = await completePasswordReset({ db: app.db, auth: app.auth }, ticket.userId, parsed.data.password, []);
  if (!result.ok) return fieldFailure(form, "password", t(passwordProblemMessage(result.problem)));
  const response = await redirectWithToast(toastSettings(context), links["member-login"](), {
    type: "success",
    message: isWelcome(new URL(request.url)) ? "notice.passwordSet" : "notice.passwordReset",
  });
  response.headers.append("Set-Cookie", await resetTicketCookie.clear(context));
  return response;
}

export default function ForgetPasswordNewPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { welcome } = loaderData;
  return (
    <Page
      title={t(welcome ? "page.welcomeNew.title" : "page.forgetNew.title")}
      lead={welcome ? t("auth.welcome.newLead") : undefined}
      width="narrow"
    >
      <Form method="post" className="space-y-6" noValidate>
        <NewPasswordFields errors={form.errors("password")} confirmErrors={form.errors("confirmPassword")} />
        <Button type="submit" block size="lg" pending={pending}>
          {t(welcome ? "auth.welcome.setPassword" : "auth.forget.setNew")}
        </Button>
      </Form>
    </Page>
  );
}
