import { data, Form, useLocation } from "react-router";
import { getApp } from "~/adapters/context.server";
import { MaterialCard } from "~/components/catalog/material-card";
import { useFilterNavigation } from "~/components/catalog/use-filter-navigation";
import { buttonVariants } from "~/components/ui/button-variants";
import { Search } from "~/components/ui/icons";
import { inputClass } from "~/components/ui/input-class";
import { Link } from "~/components/ui/link";
import { materialCard } from "~/domain/materials/cards";
import { materialFiltersQuery, parseMaterialFilters } from "~/domain/materials/filters";
import { categoryCounts, listCategories, listMaterials } from "~/domain/materials/materials.server";
import { CACHE_PUBLIC_LONG, passCacheControl, publicCache } from "~/lib/cache";
import { cn } from "~/lib/cn";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { seoMeta } from "~/lib/seo.server";
import type { Route } from "./+types/materials";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = getApp(context);
  const locale = getLocale(request);
  const t = serverT(request);
  const categories = await listCategories(db);
  const filters = parseMaterialFilters(
    new URL(request.url).searchParams,
    categories.map((c) => c.id),
  );
  const [materials, counts] = await Promise.all([listMaterials(db, filters), categoryCounts(db)]);
  const category = categories.find((c) => c.id === filters.category);
  return data(
    {
      messages: routeMessages(locale, "catalog.materials."),
      filters,
      categories: categories.map((c) => ({ id: c.id, name: pick(c.name, locale), count: counts[c.id] ?? 0 })),
      categoryLead: category ? pick(category.summary, locale) : null,
      materials: materials.map((m) => materialCard(m, locale)),
      meta: seoMeta(
        {
          title: category ? `${pick(category.name, locale)}｜${t("page.materials.title")}` : t("page.materials.title"),
          description: category ? pick(category.summary, locale) : t("catalog.materials.metaDescription" as MessageKey),
          canonical: `${config.publicBaseUrl}${links.materials()}${materialFiltersQuery({ category: filters.category, q: "" })}`,
          locale,
          noindex: Boolean(filters.q),
        },
        t("brand.name"),
      ),
    },
    { headers: publicCache(CACHE_PUBLIC_LONG) },
  );
}

export const headers = passCacheControl;

// The tags are built by the loader (app/lib/seo.server.ts), so no SEO code ships to the browser.
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export default function MaterialsPage({ loaderData }: Route.ComponentProps) {
  const { filters, categories, materials, categoryLead, messages } = loaderData;
  const t = useT(messages);
  // Remount the form when the URL changes (Back/Forward), so its fields show the URL's filters.
  const { search } = useLocation();
  const { onSubmit } = useFilterNavigation();
  const names = Object.fromEntries(categories.map((c) => [c.id, c.name]));
  const chip = (active: boolean) =>
    cn(
      "inline-flex min-h-10 items-center gap-2 rounded-full border px-4 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
      active ? "border-ink bg-ink text-paper" : "border-line bg-white text-ink hover:bg-sand",
    );
  const withQuery = (category: string | null) =>
    `${links.materials()}${materialFiltersQuery({ category, q: filters.q })}`;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <p className="text-sm tracking-[0.3em] text-brand-700 uppercase">{t("catalog.materials.eyebrow")}</p>
      <h1 className="mt-1 font-serif text-3xl font-semibold tracking-wide sm:text-4xl">
        {filters.category ? names[filters.category] : t("page.materials.title")}
      </h1>
      <p className="mt-3 max-w-2xl text-lg text-muted">{categoryLead ?? t("page.materials.lead")}</p>

      <nav aria-label={t("catalog.materials.categories")} className="mt-8 -mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
        <ul className="flex gap-2 pb-1 sm:flex-wrap">
          <li className="shrink-0">
            <Link
              to={withQuery(null)}
              className={chip(!filters.category)}
              aria-current={!filters.category ? "page" : undefined}
            >
              {t("catalog.materials.all")}
            </Link>
          </li>
          {categories.map((c) => (
            <li key={c.id} className="shrink-0">
              <Link
                to={withQuery(c.id)}
                className={chip(filters.category === c.id)}
                aria-current={filters.category === c.id ? "page" : undefined}
              >
                {c.name}
                <span className={cn("text-xs", filters.category === c.id ? "text-paper/80" : "text-muted")}>
                  {c.count}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <Form
        key={search}
        method="get"
        action={links.materials()}
        onSubmit={onSubmit}
        role="search"
        className="mt-5 flex max-w-xl gap-2"
      >
        {filters.category ? <input type="hidden" name="category" value={filters.category} /> : null}
        <label htmlFor="material-q" className="sr-only">
          {t("catalog.materials.search")}
        </label>
        <div className="relative flex-1">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted"
          />
          <input
            id="material-q"
            type="search"
            name="q"
            defaultValue={filters.q}
            maxLength={60}
            placeholder={t("catalog.materials.searchPlaceholder")}
            className={`${inputClass} pl-10`}
          />
        </div>
        <button type="submit" className={buttonVariants({ variant: "primary" })}>
          {t("catalog.materials.submit")}
        </button>
      </Form>

      <div className="mt-8 flex flex-wrap items-baseline justify-between gap-3">
        <p className="text-muted" role="status" data-testid="material-count">
          {t("catalog.materials.count", { count: materials.length })}
        </p>
        {filters.q ? (
          <Link
            to={`${links.materials()}${materialFiltersQuery({ category: filters.category, q: "" })}`}
            className="text-sm underline underline-offset-4"
          >
            {t("catalog.materials.clear")}
          </Link>
        ) : null}
      </div>

      {materials.length === 0 ? (
        <div className="mt-6 rounded-3xl border border-dashed border-line bg-white/60 px-6 py-12 text-center">
          <p className="text-lg">{t("catalog.materials.none")}</p>
          <p className="mt-2 text-muted">{t("catalog.materials.noneHint")}</p>
        </div>
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-x-4 gap-y-8 sm:grid-cols-3 lg:grid-cols-4">
          {materials.map((m, i) => (
            <li key={m.id}>
              <MaterialCard
                material={m}
                categoryName={filters.category ? undefined : names[m.categoryId]}
                eager={i < 2}
                headingLevel={2}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
