import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/phone-verification";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.forgetPhone.title");

export default function ForgetPasswordPhonePage() {
  const t = useT();
  return (
    <Page title={t("page.forgetPhone.title")} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
