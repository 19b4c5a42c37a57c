import { NotYetOpen, Page } from "~/components/layout/page";
import { useT } from "~/lib/i18n";
import { requireMember } from "~/lib/member-session.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/edit-info";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.editInfo.title");

/** Members only (the editing form arrives with the member-center issue). */
export function loader({ request, context }: Route.LoaderArgs) {
  requireMember(context, request);
  return null;
}

export default function EditInfoPage() {
  const t = useT();
  return (
    <Page title={t("page.editInfo.title")} width="narrow">
      <NotYetOpen>{t("page.frame.comingNext")}</NotYetOpen>
    </Page>
  );
}
