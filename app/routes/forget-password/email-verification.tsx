import { ResetCodePage } from "~/components/auth/reset-code-page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/email-verification";
import { resetCodeAction, resetCodeLoader } from "./reset-flow.server";
import { isWelcome } from "./welcome";

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(matches, isWelcome(location.search) ? "page.welcomeEmail.title" : "page.forgetEmail.title");

export const loader = ({ request, context }: Route.LoaderArgs) => resetCodeLoader(context, request, "email");
export const action = ({ request, context }: Route.ActionArgs) => resetCodeAction(context, request, "email");

export default function ForgetPasswordEmailPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return loaderData.welcome ? (
    <ResetCodePage data={loaderData} title={t("page.welcomeEmail.title")} lead={t("auth.welcome.emailLead")} />
  ) : (
    <ResetCodePage data={loaderData} title={t("page.forgetEmail.title")} />
  );
}
