import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/new-password-setting";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.forgetNew.title");

export default function ForgetPasswordNewPage() {
  const t = useT();
  return (
    <Page title={t("page.forgetNew.title")} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
