import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/edit-info";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.editInfo.title");

export default function EditInfoPage() {
  const t = useT();
  return (
    <Page title={t("page.editInfo.title")} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
