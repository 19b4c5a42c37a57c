import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/member-login";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.login.title");

export default function MemberLoginPage() {
  const t = useT();
  return (
    <Page title={t("page.login.title")} lead={t("page.login.lead")} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
