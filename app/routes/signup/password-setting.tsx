import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/password-setting";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.signupPassword.title");

export default function SignupPasswordSettingPage() {
  const t = useT();
  return (
    <Page title={t("page.signupPassword.title")} eyebrow={t("page.signup.step", { step: 2 })} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
