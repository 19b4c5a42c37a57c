import { getApp } from "~/adapters/context.server";
import { StoreDetailView } from "~/components/catalog/store-detail-view";
import { PreviewBanner } from "~/components/console/stores/preview-banner";
import { listCategories } from "~/domain/materials/materials.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { loadStoreEditor, previewStore } from "~/domain/stores/console.server";
import { storeDetailData } from "~/domain/stores/detail-view.server";
import { requestNow } from "~/lib/clock.server";
import { parseParam, slugId } from "~/lib/http.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import type { Route } from "./+types/preview";
import { notFoundIfRefused } from "./stores.server";

/**
 * The public store page rendered with the draft (ADR 027): staff who may edit the store only, never cached
 * and never indexed (the console's headers), with a bar to go back or publish what is shown.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = parseParam(slugId, params.storeId, request);
  const app = getApp(context);
  const actor = requirePermission(context, "store.edit", { storeId: id });
  const now = requestNow(request, app.config);
  const editor = await loadStoreEditor(app.db, actor, id, now).catch(notFoundIfRefused(request));
  const [found, categories] = await Promise.all([
    previewStore(app.db, id, editor.content, now),
    listCategories(app.db),
  ]);
  const t = serverT(request);
  const page = storeDetailData(found, categories, getLocale(request), t, app.config.publicBaseUrl);
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
  return (
    <div className="min-h-dvh bg-paper">
      <PreviewBanner {...loaderData} />
      <main id="main">
        <StoreDetailView {...loaderData.page} />
      </main>
    </div>
  );
}
