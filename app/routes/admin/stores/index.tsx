import { Form } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput, FilterSelect } from "~/components/console/filter-fields";
import { PageNumbers } from "~/components/console/pager";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button, buttonVariants } from "~/components/ui/button";
import { inputClass } from "~/components/ui/input-class";
import { Link } from "~/components/ui/link";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { listStoresForConsole, STORES_PAGE_SIZE } from "~/domain/stores/console.server";
import { cn } from "~/lib/cn";
import { type MessageKey, useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";
import { storeListFilters } from "./stores.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.stores.title");

/** The stores an admin (all) or a manager (theirs) may edit: search, sort, status, pages; all in the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "store.edit");
  const locale = getLocale(request);
  const t = serverT(request);
  const filters = storeListFilters(new URL(request.url));
  const { rows, total } = await listStoresForConsole(getApp(context).db, actor, filters);
  const pages = Math.max(1, Math.ceil(total / STORES_PAGE_SIZE));
  const href = (page: number) => {
    const params = new URLSearchParams(
      Object.entries({ ...filters, page: String(page) }).filter(([k, v]) => v && !(k === "page" && v === "1")) as [
        string,
        string,
      ][],
    );
    const query = params.toString();
    return query ? `/admin/stores?${query}` : "/admin/stores";
  };
  return {
    filters,
    total,
    page: filters.page,
    pages,
    prevHref: filters.page > 1 ? href(filters.page - 1) : null,
    nextHref: filters.page < pages ? href(filters.page + 1) : null,
    canCreate: hasPermission(actor, "catalog.edit"),
    rows: rows.map((r) => ({
      id: r.id,
      name: pick(r.name, locale),
      place: `${t(`catalog.city.${r.city}` as MessageKey)} ${pick(r.district, locale)}`,
      published: r.published,
      pending: r.pendingSince !== null,
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}

export default function StoreList({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const { filters } = loaderData;
  return (
    <ConsolePage
      title={t("console.stores.title")}
      lead={t("console.stores.lead")}
      action={
        loaderData.canCreate ? (
          <Link to="/admin/stores/new" className={buttonVariants({ variant: "primary" })}>
            {t("console.stores.new")}
          </Link>
        ) : null
      }
    >
      <Form
        method="get"
        role="search"
        className="mt-6 grid gap-3 rounded-2xl border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_10rem_10rem_9rem_auto] lg:items-end"
      >
        <FilterInput name="q" type="search" label={t("console.stores.search")} value={filters.q} />
        <FilterSelect
          name="status"
          label={t("console.stores.status")}
          value={filters.status}
          options={(["published", "unpublished", "pending"] as const).map((s) => ({
            value: s,
            label: t(`console.stores.status.${s}`),
          }))}
        />
        <label className="text-sm">
          <span className="block font-medium">{t("console.stores.sort")}</span>
          <select name="sort" defaultValue={filters.sort} className={cn(inputClass, "select-chevron mt-1")}>
            {(["name", "city", "updated"] as const).map((s) => (
              <option key={s} value={s}>
                {t(`console.stores.sort.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="block font-medium">{t("console.stores.dir")}</span>
          <select name="dir" defaultValue={filters.dir} className={cn(inputClass, "select-chevron mt-1")}>
            <option value="asc">{t("console.stores.dir.asc")}</option>
            <option value="desc">{t("console.stores.dir.desc")}</option>
          </select>
        </label>
        <Button type="submit">{t("console.stores.submit")}</Button>
      </Form>

      <p className="mt-6 text-sm text-muted" role="status" data-testid="stores-count">
        {t("console.stores.count", { count: loaderData.total })}
      </p>
      {loaderData.rows.length === 0 ? (
        <p
          className="mt-3 rounded-2xl border border-line bg-white p-6 text-center text-muted"
          data-testid="stores-empty"
        >
          {filters.q || filters.status ? t("console.stores.empty") : t("console.stores.none")}
        </p>
      ) : (
        <TableScroll label={t("console.stores.title")} className="mt-3 rounded-2xl border border-line">
          <table className="w-full min-w-[40rem] text-left text-sm" data-testid="stores-table">
            <thead className="border-b border-line bg-sand/50 text-muted">
              <tr>
                {(["name", "place", "status", "updated"] as const).map((col) => (
                  <th key={col} scope="col" className="px-4 py-3 font-medium">
                    {t(`console.stores.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {loaderData.rows.map((s) => (
                <tr key={s.id} data-testid="store-row">
                  <td className="px-4 py-3">
                    <Link
                      to={`/admin/stores/${s.id}`}
                      className="font-medium underline decoration-line underline-offset-4 hover:decoration-ink"
                    >
                      {s.name}
                    </Link>
                    <span className="block font-mono text-xs text-muted">{s.id}</span>
                  </td>
                  <td className="px-4 py-3">{s.place}</td>
                  <td className="px-4 py-3">
                    <span
                      className={cn(
                        "rounded-full px-2 py-0.5 text-xs",
                        s.published ? "bg-success-700/10 text-success-700" : "bg-sand text-ink",
                      )}
                    >
                      {s.published ? t("console.stores.status.published") : t("console.stores.status.unpublished")}
                    </span>
                    {s.pending ? (
                      <span className="ml-2 rounded-full bg-brand-700/10 px-2 py-0.5 text-xs text-brand-800">
                        {t("console.stores.status.pending")}
                      </span>
                    ) : null}
                  </td>
                  <td className="px-4 py-3 tabular-nums">{formatTaipei(s.updatedAt, locale, "dateTime")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {loaderData.pages > 1 ? (
        <PageNumbers
          label={t("console.stores.pagination")}
          status={t("console.stores.pages", { page: loaderData.page, pages: loaderData.pages })}
          prevHref={loaderData.prevHref}
          nextHref={loaderData.nextHref}
          prevLabel={t("console.stores.prev")}
          nextLabel={t("console.stores.next")}
        />
      ) : null}
    </ConsolePage>
  );
}
