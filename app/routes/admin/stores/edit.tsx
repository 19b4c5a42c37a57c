import { data, redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StorePhotosField } from "~/components/console/store-photos-field";
import { StoreCalendar } from "~/components/console/stores/store-calendar";
import { StoreEditorForm } from "~/components/console/stores/store-form";
import { StoreHistory, StoreStatusPanel } from "~/components/console/stores/store-status";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { isRefusal, isVersionConflict } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { loadStoreEditor, publishStore, saveStoreDraft, unpublishStore } from "~/domain/stores/console.server";
import { withLists } from "~/domain/stores/editor";
import { storeEditorView } from "~/domain/stores/editor-view.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/edit";
import { notFoundIfRefused, parseStoreForm } from "./stores.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.stores.title");

/** The store of the URL, for an actor who may edit it: a manager's foreign store id is a 403 before any read. */
function editing({ params, request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const id = parseParam(slugId, params.storeId, request);
  const app = getApp(context);
  const actor = requirePermission(context, "store.edit", { storeId: id });
  return { id, app, actor, now: requestNow(request, app.config) };
}

/**
 * One store's editor (ADR 027): the draft (or the published content) in the form, saved as a draft
 * with the version it started from; preview, publish (one action) and unpublish; the next 8 weeks as
 * "open now" will compute them; the published versions.
 */
export async function loader(args: Route.LoaderArgs) {
  const { id, app, actor, now } = editing(args);
  const { request } = args;
  const view = await storeEditorView(app.db, actor, id, now, getLocale(request), serverT(request)).catch(
    notFoundIfRefused(request),
  );
  return { ...view, done: new URL(request.url).searchParams.get("done") };
}

export async function action(args: Route.ActionArgs) {
  const { id, app, actor, now } = editing(args);
  const { request, context } = args;
  const form = await readForm(request);
  const t = serverT(request);
  const audit = consoleAudit(context, request);
  const intent = String(form.get("intent") ?? "save");
  const version = Number(form.get("version") ?? "-1");
  if (!Number.isInteger(version) || version < 0) throw data(null, { status: 400, statusText: "Bad Request" });

  if (intent === "publish") {
    try {
      await publishStore(app.db, actor, id, version, audit, now);
    } catch (error) {
      if (isRefusal(error, "stores") && error.code === "not_found") notFound(request);
      // The draft changed since the page was opened: reload, preview, publish (nothing typed to keep).
      return consoleFailure(error, null, t, {
        wording: { version_conflict: "console.stores.error.publishConflict" },
        answer: { conflict: undefined },
      });
    }
    // This instance's render cache at once; publishStore moved the catalogue version, which every other
    // instance follows within seconds.
    app.publicPages.clearLocal();
    return redirect(`/admin/stores/${id}?done=published`);
  }
  if (intent === "unpublish") {
    requirePermission(context, "catalog.edit");
    await unpublishStore(app.db, actor, id, audit, now);
    app.publicPages.clearLocal();
    return redirect(`/admin/stores/${id}?done=unpublished`);
  }

  const parsed = parseStoreForm(form, t, now);
  if (!parsed.ok) return parsed.answer;
  try {
    await saveStoreDraft(app.db, actor, id, version, parsed.data.content, audit, now, parsed.data.photos);
  } catch (error) {
    // Told, nothing lost: the typed values come back, after a conflict with the version now current, so saving
    // again is a deliberate choice to replace the other person's changes.
    const latest = isVersionConflict(error) ? (await loadStoreEditor(app.db, actor, id, now)).draft.version : null;
    return consoleFailure(error, withLists(form), t, { values: latest === null ? {} : { version: `${latest}` } });
  }
  return redirect(`/admin/stores/${id}?done=saved`);
}

export default function EditStore({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/stores", label: t("console.stores.back") }}
      title={loaderData.name}
      lead={<span className="font-mono">{t("console.stores.edit.lead", { id: loaderData.id })}</span>}
      action={
        // The store's appointment kinds, lengths, start times and places (issue 37).
        <Link
          to={`/admin/stores/${loaderData.id}/appointments`}
          className={buttonVariants({ variant: "secondary", size: "sm" })}
        >
          {t("console.appointments.link")}
        </Link>
      }
    >
      <StoreStatusPanel {...loaderData} />
      <StoreCalendar weeks={loaderData.calendar} />
      <StoreEditorForm
        saved={loaderData.saved}
        districts={loaderData.districts}
        version={loaderData.version}
        submitLabel={t("console.stores.save")}
        photos={
          <StorePhotosField
            initial={loaderData.photos}
            errors={form.errors("photos")}
            canUpload={loaderData.canUpload}
          />
        }
      />
      <StoreHistory revisions={loaderData.revisions} />
    </ConsolePage>
  );
}
