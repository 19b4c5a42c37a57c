import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/materials";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.materials.title");

export default function MaterialsPage() {
  const t = useT();
  return (
    <Page title={t("page.materials.title")} lead={t("page.materials.lead")}>
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
