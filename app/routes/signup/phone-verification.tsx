import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/phone-verification";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.signupPhone.title");

export default function SignupPhoneVerificationPage() {
  const t = useT();
  return (
    <Page title={t("page.signupPhone.title")} eyebrow={t("page.signup.step", { step: 1 })} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
