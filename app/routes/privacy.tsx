import { LegalPage } from "~/components/layout/legal-page";
import { privacyNotice } from "~/content/legal";
import { useLocale, useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.privacy.title");

export default function PrivacyPage() {
  const t = useT();
  return <LegalPage title={t("page.privacy.title")} document={privacyNotice[useLocale()]} />;
}
