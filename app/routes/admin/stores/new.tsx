import { redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StoreEditorForm } from "~/components/console/stores/store-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { requirePermission } from "~/domain/staff/guard.server";
import { createStore } from "~/domain/stores/console.server";
import { withLists } from "~/domain/stores/editor";
import { districtChoices } from "~/domain/stores/editor-view.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/new";
import { parseStoreForm } from "./stores.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.stores.new.title");

/** A new store (admins): created unpublished, then edited, previewed and published from its editor. */
export function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  return { districts: districtChoices(getLocale(request), serverT(request)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "catalog.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const parsed = parseStoreForm(form, t, now, { requireId: true });
  if (!parsed.ok) return parsed.answer;
  try {
    await createStore(app.db, actor, parsed.data.id, parsed.data.content, consoleAudit(context, request), now);
  } catch (error) {
    return consoleFailure(error, withLists(form), t);
  }
  return redirect(`/admin/stores/${parsed.data.id}?done=created`);
}

export default function NewStore({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/stores", label: t("console.stores.back") }}
      title={t("console.stores.new.title")}
      lead={t("console.stores.new.lead")}
    >
      <StoreEditorForm districts={loaderData.districts} submitLabel={t("console.stores.new.submit")} showError />
    </ConsolePage>
  );
}
