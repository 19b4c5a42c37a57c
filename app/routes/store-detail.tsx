import { data, Link } from "react-router";
import { CatalogImage } from "~/components/catalog/catalog-image";
import { JsonLd } from "~/components/catalog/json-ld";
import { OpenBadge } from "~/components/catalog/open-status";
import { buttonVariants } from "~/components/ui/button-variants";
import { ChevronLeft, Mail, MapPin, Navigation, Phone } from "~/components/ui/icons";
import { listCategories } from "~/domain/materials/materials.server";
import { statusView } from "~/domain/stores/cards";
import { mapHref, telHref } from "~/domain/stores/contact";
import { getStore } from "~/domain/stores/stores.server";
import { passCacheControl, publicCache } from "~/lib/cache";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { getApp } from "~/lib/context.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { seoMeta } from "~/lib/seo.server";
import type { Route } from "./+types/store-detail";

const SCHEMA_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = parseParam(slugId, params.id, request);
  const { db, config } = getApp(context);
  const locale = getLocale(request);
  const now = requestNow(request, config);
  const [found, categories] = await Promise.all([getStore(db, id, now), listCategories(db)]);
  if (!found) notFound(request);
  const { store, status, week, materials } = found;
  const t = serverT(request);
  const cityName = t(`catalog.city.${store.city}` as MessageKey);
  const fullAddress = `${store.postalCode} ${cityName}${pick(store.district, locale)}${pick(store.address, locale)}`;
  const addressForMap = `${store.postalCode}${t(`catalog.city.${store.city}` as MessageKey)}${store.district["zh-TW"]}${store.address["zh-TW"]}`;
  const canonical = `${config.publicBaseUrl}${links.storeDetail(store.id)}`;
  const photos = store.photos.map((p) => ({ src: p.src, alt: pick(p.alt, locale), width: p.width, height: p.height }));
  const materialGroups = new Map<string, { id: string; name: string; swatch: string }[]>();
  for (const m of materials) {
    const list = materialGroups.get(m.categoryId) ?? [];
    list.push({ id: m.id, name: pick(m.name, locale), swatch: m.swatch });
    materialGroups.set(m.categoryId, list);
  }
  return data(
    {
      messages: routeMessages(
        locale,
        "catalog.city.",
        "catalog.status.",
        "catalog.weekday.",
        "catalog.service.",
        "catalog.store.",
      ),
      store: {
        id: store.id,
        name: pick(store.name, locale),
        summary: pick(store.summary, locale),
        city: store.city,
        district: pick(store.district, locale),
        fullAddress,
        phone: store.phone,
        email: store.email,
        services: store.services,
      },
      mapUrl: mapHref(addressForMap),
      photos,
      status: statusView(status),
      week: week.map((d) => ({
        date: d.date,
        weekday: d.weekday,
        hours: d.intervals.map((i) => `${i.open}–${i.close}`),
        note: d.note ? pick(d.note, locale) : null,
      })),
      materialCount: materials.length,
      materialGroups: [...materialGroups.entries()].map(([categoryId, items]) => ({ categoryId, items })),
      categoryNames: Object.fromEntries(categories.map((c) => [c.id, pick(c.name, locale)])) as Record<string, string>,
      meta: seoMeta(
        {
          title: pick(store.name, locale),
          description: `${pick(store.summary, locale)} ${fullAddress}`,
          canonical,
          image: photos[0] ? `${config.publicBaseUrl}${photos[0].src}` : undefined,
          type: "place" as const,
          locale,
        },
        t("brand.name"),
      ),
      jsonLd: {
        "@context": "https://schema.org",
        "@type": "Store",
        "@id": canonical,
        name: `${t("brand.name")} ${pick(store.name, locale)}`,
        description: pick(store.summary, locale),
        url: canonical,
        telephone: telHref(store.phone).slice(4),
        email: store.email,
        image: photos.map((p) => `${config.publicBaseUrl}${p.src}`),
        address: {
          "@type": "PostalAddress",
          streetAddress: pick(store.address, locale),
          addressLocality: pick(store.district, locale),
          addressRegion: cityName,
          postalCode: store.postalCode,
          addressCountry: "TW",
        },
        geo: { "@type": "GeoCoordinates", latitude: store.latitude, longitude: store.longitude },
        openingHoursSpecification: store.weeklyHours.flatMap((intervals, day) =>
          intervals.map((i) => ({
            "@type": "OpeningHoursSpecification",
            dayOfWeek: `https://schema.org/${SCHEMA_DAYS[day]}`,
            opens: i.open,
            closes: i.close,
          })),
        ),
      },
    },
    { headers: publicCache() },
  );
}

export const headers = passCacheControl;

// The tags are built by the loader (app/lib/seo.server.ts), so no SEO code ships to the browser.
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export default function StoreDetailPage({ loaderData }: Route.ComponentProps) {
  const { store, photos, status, week, materialGroups, materialCount, categoryNames, mapUrl, messages, jsonLd } =
    loaderData;
  const t = useT(messages);
  const [main, ...others] = photos;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <JsonLd data={jsonLd} />
      <nav aria-label={t("catalog.store.backToList")}>
        <Link to={links.stores()} className="inline-flex min-h-11 items-center gap-1 text-sm text-muted hover:text-ink">
          <ChevronLeft aria-hidden className="size-4" />
          {t("catalog.store.backToList")}
        </Link>
      </nav>

      <header className="mt-2 max-w-3xl">
        <p className="text-sm tracking-[0.2em] text-brand-700">
          {t(`catalog.city.${store.city}` as MessageKey)} · {store.district}
        </p>
        <h1 className="mt-1 font-serif text-3xl font-semibold tracking-wide sm:text-4xl">{store.name}</h1>
        <p className="mt-3 text-lg text-muted">{store.summary}</p>
        <OpenBadge status={status} t={t} className="mt-4" />
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[1.5fr_1fr]">
        <section aria-label={t("catalog.store.photos")} className="grid grid-cols-2 content-start gap-3">
          {main ? (
            <div className="col-span-2 aspect-[4/3] overflow-hidden rounded-3xl bg-sand">
              <CatalogImage image={main} eager sizes="(min-width: 1024px) 60vw, 100vw" />
            </div>
          ) : null}
          {others.map((photo) => (
            <div key={photo.src} className="aspect-[4/3] overflow-hidden rounded-2xl bg-sand">
              <CatalogImage image={photo} sizes="(min-width: 1024px) 30vw, 50vw" />
            </div>
          ))}
        </section>

        <div className="space-y-6">
          <section className="space-y-5 rounded-3xl border border-line bg-white p-6" aria-labelledby="contact">
            <h2 id="contact" className="sr-only">
              {t("catalog.store.address")}
            </h2>
            <div>
              <p className="flex items-center gap-2 text-sm font-medium text-muted">
                <MapPin aria-hidden className="size-4" />
                {t("catalog.store.address")}
              </p>
              <p className="mt-1 text-base" data-testid="store-address">
                {store.fullAddress}
              </p>
              <a
                href={mapUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={cn(buttonVariants({ variant: "secondary", size: "sm" }), "mt-3")}
                data-testid="map-link"
              >
                <Navigation aria-hidden className="size-4" />
                {t("catalog.store.openMap")}
              </a>
            </div>
            <div>
              <p className="flex items-center gap-2 text-sm font-medium text-muted">
                <Phone aria-hidden className="size-4" />
                {t("catalog.store.phone")}
              </p>
              <a
                href={telHref(store.phone)}
                className="mt-1 inline-flex min-h-11 items-center text-lg font-semibold tracking-wide underline-offset-4 hover:underline"
                aria-label={t("catalog.store.call", { phone: store.phone })}
                data-testid="phone-link"
              >
                {store.phone}
              </a>
            </div>
            <div>
              <p className="flex items-center gap-2 text-sm font-medium text-muted">
                <Mail aria-hidden className="size-4" />
                {t("catalog.store.email")}
              </p>
              <a
                href={`mailto:${store.email}`}
                className="mt-1 inline-flex min-h-11 items-center break-all underline-offset-4 hover:underline"
              >
                {store.email}
              </a>
            </div>
            {store.services.length > 0 ? (
              <div>
                <p className="text-sm font-medium text-muted">{t("catalog.store.services")}</p>
                <ul className="mt-2 flex flex-wrap gap-2">
                  {store.services.map((s) => (
                    <li key={s} className="rounded-full bg-sand px-3 py-1 text-sm">
                      {t(`catalog.service.${s}` as MessageKey)}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </section>

          <section className="rounded-3xl border border-line bg-white p-6" aria-labelledby="hours">
            <h2 id="hours" className="font-serif text-xl font-semibold">
              {t("catalog.store.hours")}
            </h2>
            <p className="mt-1 text-sm text-muted">{t("catalog.store.hoursLead")}</p>
            <table className="mt-4 w-full text-base" data-testid="week-hours">
              <tbody>
                {week.map((day, i) => (
                  <tr
                    key={day.date}
                    className={cn("border-t border-line/60 first:border-t-0", i === 0 && "bg-sand font-semibold")}
                    aria-current={i === 0 ? "date" : undefined}
                  >
                    <th scope="row" className="py-2.5 pl-3 text-left font-[inherit]">
                      {t(`catalog.weekday.${day.weekday}` as MessageKey)}
                      {i === 0 ? (
                        <span className="ml-2 rounded-full bg-ink px-2 py-0.5 text-xs text-paper">
                          {t("catalog.store.today")}
                        </span>
                      ) : null}
                      <span className="block text-xs font-normal text-muted">
                        {day.date.slice(5).replace("-", "/")}
                      </span>
                    </th>
                    <td className="py-2.5 pr-3 text-right tabular-nums">
                      {day.hours.length > 0 ? day.hours.join(", ") : t("catalog.store.closed")}
                      {day.note ? <span className="block text-xs font-normal text-brand-700">{day.note}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
      </div>

      <section className="mt-14" aria-labelledby="on-display">
        <h2 id="on-display" className="font-serif text-2xl font-semibold">
          {t("catalog.store.materials")}
          <span className="ml-2 text-base font-normal text-muted">{materialCount}</span>
        </h2>
        <p className="mt-1 text-muted">{t("catalog.store.materialsLead")}</p>
        {materialGroups.length === 0 ? (
          <p className="mt-6 text-muted">{t("catalog.store.noMaterials")}</p>
        ) : (
          <div className="mt-6 grid gap-x-8 gap-y-6 sm:grid-cols-2 lg:grid-cols-3">
            {materialGroups.map((group) => (
              <div key={group.categoryId}>
                <h3 className="text-sm tracking-[0.18em] text-brand-700">{categoryNames[group.categoryId]}</h3>
                <ul className="mt-2 space-y-1">
                  {group.items.map((m) => (
                    <li key={m.id}>
                      <Link
                        to={links.materialDetail(m.id)}
                        className="flex min-h-10 items-center gap-3 rounded-xl px-2 hover:bg-sand"
                      >
                        <span
                          aria-hidden
                          className="size-5 shrink-0 rounded-full border border-line"
                          style={{ backgroundColor: m.swatch }}
                        />
                        {m.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
