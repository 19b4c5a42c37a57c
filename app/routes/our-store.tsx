import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/our-store";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.stores.title");

export default function StoreListPage() {
  const t = useT();
  return (
    <Page title={t("page.stores.title")} lead={t("page.stores.lead")}>
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
