import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/email-verification";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.forgetEmail.title");

export default function ForgetPasswordEmailPage() {
  const t = useT();
  return (
    <Page title={t("page.forgetEmail.title")} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
