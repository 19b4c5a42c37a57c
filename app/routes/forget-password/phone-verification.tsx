import { ResetCodePage } from "~/components/auth/reset-code-page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/phone-verification";
import { resetCodeAction, resetCodeLoader } from "./reset-flow.server";
import { isWelcome } from "./welcome";

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(matches, isWelcome(location.search) ? "page.welcomePhone.title" : "page.forgetPhone.title");

export const loader = ({ request, context }: Route.LoaderArgs) => resetCodeLoader(context, request, "phone");
export const action = ({ request, context }: Route.ActionArgs) => resetCodeAction(context, request, "phone");

export default function ForgetPasswordPhonePage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  return loaderData.welcome ? (
    <ResetCodePage data={loaderData} title={t("page.welcomePhone.title")} lead={t("auth.welcome.phoneLead")} />
  ) : (
    <ResetCodePage data={loaderData} title={t("page.forgetPhone.title")} />
  );
}
