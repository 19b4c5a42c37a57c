import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.admin.title");

export default function AdminPage() {
  const t = useT();
  return (
    <Page title={t("page.admin.title")} lead={t("page.admin.lead")}>
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
