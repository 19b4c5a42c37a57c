import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/create-member-info";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.signupInfo.title");

export default function SignupCreateMemberInfoPage() {
  const t = useT();
  return (
    <Page title={t("page.signupInfo.title")} eyebrow={t("page.signup.step", { step: 3 })} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
