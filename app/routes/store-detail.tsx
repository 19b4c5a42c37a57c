import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { StoreDetailView } from "~/components/catalog/store-detail-view";
import { LiffShare } from "~/components/line/line-app-slots";
import { listCategories } from "~/domain/materials/materials.server";
import { storeDetailData } from "~/domain/stores/detail-view.server";
import { getStore } from "~/domain/stores/stores.server";
import { passCacheControl, publicCache } from "~/lib/cache";
import { requestNow } from "~/lib/clock.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import type { Route } from "./+types/store-detail";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = parseParam(slugId, params.id, request);
  const { db, config } = getApp(context);
  const locale = getLocale(request);
  const now = requestNow(request, config);
  const [found, categories] = await Promise.all([getStore(db, id, now), listCategories(db)]);
  if (!found) notFound(request);
  return data(storeDetailData(found, categories, locale, serverT(request), config.publicBaseUrl), {
    headers: publicCache(),
  });
}

export const headers = passCacheControl;

// The tags are built by the loader (app/lib/seo.server.ts), so no SEO code ships to the browser.
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export default function StoreDetailPage({ loaderData }: Route.ComponentProps) {
  const { store, jsonLd } = loaderData;
  return (
    <StoreDetailView
      {...loaderData}
      share={
        // Inside LINE only (nothing on the server): share with friends through LINE.
        <LiffShare
          kind="store"
          name={store.name}
          detail={store.fullAddress}
          image={jsonLd.image[0]}
          path={links.storeDetail(store.id)}
          className="mt-4"
        />
      }
    />
  );
}
