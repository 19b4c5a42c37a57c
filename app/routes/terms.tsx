import { LegalPage } from "~/components/layout/legal-page";
import { membershipTerms } from "~/content/legal";
import { useLocale, useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.terms.title");

export default function TermsPage() {
  const t = useT();
  return <LegalPage title={t("page.terms.title")} document={membershipTerms[useLocale()]} />;
}
