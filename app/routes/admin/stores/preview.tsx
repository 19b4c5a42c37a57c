import { Form } from "react-router";
import { getApp } from "~/adapters/context.server";
import { StoreDetailView } from "~/components/catalog/store-detail-view";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { listCategories } from "~/domain/materials/materials.server";
import { isRefusal } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { loadStoreEditor, previewStore } from "~/domain/stores/console.server";
import { storeDetailData } from "~/domain/stores/detail-view.server";
import { requestNow } from "~/lib/clock.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import type { Route } from "./+types/preview";

/**
 * The public store page rendered with the draft (ADR 027): staff who may edit the store only, never cached
 * and never indexed (the console's headers), with a bar to go back or publish what is shown.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = parseParam(slugId, params.storeId, request);
  const app = getApp(context);
  const actor = requirePermission(context, "store.edit", { storeId: id });
  const now = requestNow(request, app.config);
  const locale = getLocale(request);
  let editor: Awaited<ReturnType<typeof loadStoreEditor>>;
  try {
    editor = await loadStoreEditor(app.db, actor, id, now);
  } catch (error) {
    if (isRefusal(error, "stores")) notFound(request);
    throw error;
  }
  const [found, categories] = await Promise.all([
    previewStore(app.db, id, editor.content, now),
    listCategories(app.db),
  ]);
  const t = serverT(request);
  const page = storeDetailData(found, categories, locale, t, app.config.publicBaseUrl);
  return {
    title: `${t("console.stores.preview")}：${page.store.name}｜${t("brand.name")}`,
    page: { ...page, meta: [] },
    id,
    version: editor.draft.version,
    canPublish: Boolean(editor.draft.data) || !editor.row.published,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "漢生活" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function StorePreview({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  return (
    <div className="min-h-dvh bg-paper">
      <div
        className="sticky top-0 z-20 border-b border-brand-700/30 bg-brand-50 px-4 py-3 sm:px-6"
        data-testid="preview-banner"
      >
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3">
          <p className="text-sm font-medium text-ink" role="status">
            {t("console.stores.preview.banner")}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <Link to={`/admin/stores/${loaderData.id}`} className="text-sm underline underline-offset-4">
              {t("console.stores.preview.back")}
            </Link>
            {loaderData.canPublish ? (
              <Form method="post" action={`/admin/stores/${loaderData.id}`}>
                <input type="hidden" name="intent" value="publish" />
                <input type="hidden" name="version" value={loaderData.version} />
                <Button type="submit" size="sm">
                  {t("console.stores.publish")}
                </Button>
              </Form>
            ) : null}
          </div>
        </div>
      </div>
      <main id="main">
        <StoreDetailView {...loaderData.page} />
      </main>
    </div>
  );
}
