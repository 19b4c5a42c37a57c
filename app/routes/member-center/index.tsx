import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.memberCenter.title");

export default function MemberCenterPage() {
  const t = useT();
  return (
    <Page title={t("page.memberCenter.title")} lead={t("page.memberCenter.lead")}>
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
