import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { getMemberSession, requireMember } from "~/adapters/current-member.server";
import { FavouriteButton } from "~/components/catalog/favourite-button";
import { JsonLd } from "~/components/catalog/json-ld";
import { MaterialDetailView } from "~/components/catalog/material-detail-view";
import { LiffShare } from "~/components/line/line-app-slots";
import { buttonVariants } from "~/components/ui/button-variants";
import { CalendarDays } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { materialDetailView } from "~/domain/materials/detail-view";
import { isFavourite, removeFavourite, saveFavourite } from "~/domain/materials/favourites.server";
import { getMaterial } from "~/domain/materials/materials.server";
import { sampleStoresOf } from "~/domain/samples/samples.server";
import { CACHE_PUBLIC_LONG, passCacheControl, publicCache } from "~/lib/cache";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { seoMeta } from "~/lib/seo.server";
import type { Route } from "./+types/material-detail";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = parseParam(slugId, params.id, request);
  const { db, config } = getApp(context);
  const found = await getMaterial(db, id);
  if (!found) notFound(request);
  const locale = getLocale(request);
  const t = serverT(request);
  const view = materialDetailView(found, locale, t);
  const { material: m, category } = found;
  const canonical = `${config.publicBaseUrl}${links.materialDetail(m.id)}`;
  const images = view.images;
  const name = view.material.name;
  const session = getMemberSession(context);
  const favourite = session?.member ? await isFavourite(db, session.member.id, m.id) : null;
  // The showrooms with samples of it (issue 37 part 3): a link to ask for one.
  const sampleStores = (await sampleStoresOf(db, [m.id])).get(m.id) ?? [];
  return data(
    {
      favourite,
      sampleStores: sampleStores.map((s) => pick(s.name, locale)),
      messages: routeMessages(locale, "catalog.city.", "catalog.material.", "catalog.store.call"),
      view,
      meta: seoMeta(
        {
          title: `${name}｜${pick(category.name, locale)}`,
          description: pick(m.summary, locale),
          canonical,
          image: images[0] ? `${config.publicBaseUrl}${images[0].src}` : undefined,
          type: "product" as const,
          locale,
        },
        t("brand.name"),
      ),
      jsonLd: {
        "@context": "https://schema.org",
        "@type": "Product",
        "@id": canonical,
        name,
        description: pick(m.summary, locale),
        url: canonical,
        image: images.map((i) => `${config.publicBaseUrl}${i.src}`),
        brand: { "@type": "Brand", name: t("brand.name") },
        category: pick(category.name, locale),
        color: pick(m.colour, locale),
        countryOfOrigin: pick(m.origin, locale),
        additionalProperty: view.material.specs.map((s) => ({
          "@type": "PropertyValue",
          name: s.label,
          value: s.value,
        })),
      },
    },
    { headers: publicCache(CACHE_PUBLIC_LONG) },
  );
}

export const headers = passCacheControl;

/** Save or remove the material as a favourite (members only). */
export async function action({ params, request, context }: Route.ActionArgs) {
  const id = parseParam(slugId, params.id, request);
  const { member } = requireMember(context, request);
  const { db } = getApp(context);
  const intent = (await readForm(request)).get("intent");
  if (intent === "save") {
    if (!(await saveFavourite(db, member.id, id))) notFound(request);
    return { favourite: true };
  }
  if (intent === "remove") {
    await removeFavourite(db, member.id, id);
    return { favourite: false };
  }
  return data({ favourite: await isFavourite(db, member.id, id) }, { status: 400 });
}

// The tags are built by the loader (app/lib/seo.server.ts), so no SEO code ships to the browser.
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export default function MaterialDetailPage({ loaderData }: Route.ComponentProps) {
  const { view, messages, jsonLd, favourite, sampleStores } = loaderData;
  const t = useT(messages);
  return (
    <MaterialDetailView
      view={view}
      t={t}
      aside={
        <>
          <FavouriteButton saved={favourite} />
          {sampleStores.length > 0 ? (
            <div className="mt-3">
              <Link
                to={`/member-center/samples/new?material=${encodeURIComponent(view.material.id)}`}
                className={buttonVariants({ variant: "secondary", block: true })}
                data-testid="request-sample"
              >
                {t("catalog.material.samples")}
              </Link>
              <p className="mt-1 text-sm text-muted">
                {t("catalog.material.samplesHint", { stores: sampleStores.join("、") })}
              </p>
            </div>
          ) : null}
          {/* See it at a showroom: a visit booked with this material (issue 37). */}
          <Link
            to={`${links.bookAppointment()}?material=${encodeURIComponent(view.material.id)}`}
            className={cn(buttonVariants({ variant: "secondary", block: true }), "mt-3")}
            data-testid="see-at-store"
          >
            <CalendarDays aria-hidden className="size-4" />
            {t("catalog.material.seeAtStore")}
          </Link>
          {/* Inside LINE only (nothing on the server): share with friends through LINE. */}
          <LiffShare
            kind="material"
            name={view.material.name}
            detail={`${view.category.name}・${view.material.series}`}
            image={jsonLd.image[0]}
            path={links.materialDetail(view.material.id)}
            className="mt-3"
          />
        </>
      }
    >
      <JsonLd data={jsonLd} />
    </MaterialDetailView>
  );
}
