import { data, Form, useLocation } from "react-router";
import { getApp } from "~/adapters/context.server";
import { NearMe } from "~/components/catalog/near-me";
import { StoreCard } from "~/components/catalog/store-card";
import { useFilterNavigation } from "~/components/catalog/use-filter-navigation";
import { buttonVariants } from "~/components/ui/button-variants";
import { Search } from "~/components/ui/icons";
import { inputClass } from "~/components/ui/input-class";
import { Link } from "~/components/ui/link";
import { storeCard } from "~/domain/stores/cards";
import { CITIES } from "~/domain/stores/cities";
import { parseStoreFilters } from "~/domain/stores/filters";
import { citiesWithStores, listStores } from "~/domain/stores/stores.server";
import { passCacheControl, publicCache } from "~/lib/cache";
import { requestNow } from "~/lib/clock.server";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { seoMeta } from "~/lib/seo.server";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/our-store";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = getApp(context);
  const locale = getLocale(request);
  const t = serverT(request);
  const url = new URL(request.url);
  const filters = parseStoreFilters(url.searchParams);
  const now = requestNow(request, config);
  const [stores, cities] = await Promise.all([listStores(db, filters, now), citiesWithStores(db)]);
  const canonicalPath = filters.city ? `${links.stores()}?city=${filters.city}` : links.stores();
  return data(
    {
      messages: routeMessages(locale, "catalog.city.", "catalog.status.", "catalog.weekday.", "catalog.stores."),
      filters,
      cities: CITIES.filter((c) => cities.includes(c)),
      stores: stores.map((s) => storeCard(s, locale)),
      asOf: formatTaipei(now, locale, "time"),
      meta: seoMeta(
        {
          title: filters.city
            ? `${t(`catalog.city.${filters.city}` as MessageKey)}${locale === "en" ? " " : ""}${t("page.stores.title")}`
            : t("page.stores.title"),
          description: t("catalog.stores.metaDescription" as MessageKey),
          canonical: `${config.publicBaseUrl}${canonicalPath}`,
          locale,
          noindex: Boolean(filters.q || filters.openNow || filters.near),
        },
        t("brand.name"),
      ),
    },
    { headers: publicCache() },
  );
}

export const headers = passCacheControl;

// The tags are built by the loader (app/lib/seo.server.ts), so no SEO code ships to the browser.
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export default function StoreListPage({ loaderData }: Route.ComponentProps) {
  const { filters, cities, stores, asOf, messages } = loaderData;
  const t = useT(messages);
  // Remount the form when the URL changes (Back/Forward), so its fields show the URL's filters.
  const { search } = useLocation();
  const { onSubmit, submitForm } = useFilterNavigation();
  const filtered = Boolean(filters.city || filters.openNow || filters.q);
  const autoSubmit = (event: React.ChangeEvent<HTMLSelectElement | HTMLInputElement>) =>
    submitForm(event.currentTarget.form);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm tracking-[0.3em] text-brand-700 uppercase">{t("catalog.stores.eyebrow")}</p>
      <h1 className="mt-1 font-serif text-3xl font-semibold tracking-wide sm:text-4xl">{t("page.stores.title")}</h1>
      <p className="mt-3 max-w-2xl text-lg text-muted">{t("page.stores.lead")}</p>

      <section aria-labelledby="store-filters" className="mt-8 rounded-3xl border border-line bg-white/70 p-4 sm:p-6">
        <h2 id="store-filters" className="sr-only">
          {t("catalog.stores.filters")}
        </h2>
        <Form
          key={search}
          method="get"
          action={links.stores()}
          onSubmit={onSubmit}
          className="grid gap-4 md:grid-cols-[12rem_1fr_auto_auto] md:items-end"
        >
          <div className="space-y-1.5">
            <label htmlFor="filter-city" className="block text-sm font-medium">
              {t("catalog.stores.city")}
            </label>
            <select
              id="filter-city"
              name="city"
              defaultValue={filters.city ?? ""}
              onChange={autoSubmit}
              className={`${inputClass} select-chevron`}
            >
              <option value="">{t("catalog.stores.allCities")}</option>
              {cities.map((c) => (
                <option key={c} value={c}>
                  {t(`catalog.city.${c}` as MessageKey)}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1.5">
            <label htmlFor="filter-q" className="block text-sm font-medium">
              {t("catalog.stores.search")}
            </label>
            <div className="relative">
              <Search
                aria-hidden
                className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted"
              />
              <input
                id="filter-q"
                type="search"
                name="q"
                defaultValue={filters.q}
                maxLength={60}
                placeholder={t("catalog.stores.searchPlaceholder")}
                className={`${inputClass} pl-10`}
              />
            </div>
          </div>
          <label className="flex min-h-11 cursor-pointer items-center gap-2.5 rounded-xl px-1 text-base">
            <input
              type="checkbox"
              name="open"
              value="1"
              defaultChecked={filters.openNow}
              onChange={autoSubmit}
              className="size-5 accent-ink"
            />
            {t("catalog.stores.openNow")}
          </label>
          {filters.near ? <input type="hidden" name="near" value={`${filters.near.lat},${filters.near.lng}`} /> : null}
          <button type="submit" className={buttonVariants({ variant: "primary" })}>
            {t("catalog.stores.apply")}
          </button>
        </Form>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-line/70 pt-4">
          <NearMe t={t} active={Boolean(filters.near)} />
          <p className="text-xs text-muted">{t("catalog.stores.timeNote", { time: asOf })}</p>
        </div>
      </section>

      <div className="mt-8 flex flex-wrap items-baseline justify-between gap-3">
        <p className="text-base text-muted" role="status" data-testid="store-count">
          {t("catalog.stores.count", { count: stores.length })}
        </p>
        {filtered ? (
          <Link to={links.stores()} className="text-sm underline underline-offset-4 hover:text-brand-700">
            {t("catalog.stores.clear")}
          </Link>
        ) : null}
      </div>

      {stores.length === 0 ? (
        <div className="mt-6 rounded-3xl border border-dashed border-line bg-white/60 px-6 py-12 text-center">
          <p className="text-lg">{t("catalog.stores.none")}</p>
          <p className="mt-2 text-muted">{t("catalog.stores.noneHint")}</p>
        </div>
      ) : (
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label={t("page.stores.title")}>
          {stores.map((store, i) => (
            <li key={store.id} className="flex">
              <div className="flex w-full">
                <StoreCard store={store} t={t} eager={i < 2} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
