import { getApp } from "~/adapters/context.server";
import { ConsoleList, FilterBar, RowLink, useFilterFields } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { PublishedChip } from "~/components/console/stores/store-status";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { listStoresForConsole } from "~/domain/stores/console.server";
import { CONSOLE_STORE_SORTS, CONSOLE_STORE_STATUSES, STORES_PAGE_SIZE } from "~/domain/stores/console-query";
import { type MessageKey, useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { listField, pageHrefs, parseListQuery } from "~/lib/list-query";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.stores.title");

/** The query of the list, read from the URL (unknown values fall back to the defaults). */
const STORE_QUERY = {
  q: listField.text(60),
  status: listField.choice(CONSOLE_STORE_STATUSES, ""),
  sort: listField.choice(CONSOLE_STORE_SORTS, "name"),
  dir: listField.choice(["asc", "desc"], "asc"),
  page: listField.int(1, 1000, 1),
};

/** The stores an admin (all) or a manager (theirs) may edit: search, sort, status, pages; all in the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "store.edit");
  const locale = getLocale(request);
  const t = serverT(request);
  const parsed = parseListQuery(new URL(request.url), STORE_QUERY);
  const query = parsed.values;
  const { rows, total } = await listStoresForConsole(getApp(context).db, actor, query);
  const pages = Math.max(1, Math.ceil(total / STORES_PAGE_SIZE));
  return {
    query,
    total,
    pages,
    ...pageHrefs("/admin/stores", STORE_QUERY, parsed, query.page, pages),
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
  const filter = useFilterFields("console.stores");
  const locale = useLocale();
  const { query } = loaderData;
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
      <ConsoleList
        filters={
          <FilterBar
            submitLabel={t("console.stores.submit")}
            columns="lg:grid-cols-[1fr_10rem_10rem_9rem_auto]"
            fields={[
              filter.search("q", query.q),
              filter.choice("status", query.status, CONSOLE_STORE_STATUSES, { any: true }),
              filter.choice("sort", query.sort, CONSOLE_STORE_SORTS),
              filter.choice("dir", query.dir, ["asc", "desc"]),
            ]}
          />
        }
        count={t("console.stores.count", { count: loaderData.total })}
        countTestId="stores-count"
        empty={query.q || query.status ? t("console.stores.empty") : t("console.stores.none")}
        emptyTestId="stores-empty"
        label={t("console.stores.title")}
        testId="stores-table"
        rows={loaderData.rows}
        rowKey={(s) => s.id}
        rowTestId="store-row"
        columns={[
          {
            key: "name",
            header: t("console.stores.col.name"),
            cell: (s) => (
              <>
                <RowLink to={`/admin/stores/${s.id}`}>{s.name}</RowLink>
                <span className="block font-mono text-xs text-muted">{s.id}</span>
              </>
            ),
          },
          { key: "place", header: t("console.stores.col.place"), cell: (s) => s.place },
          {
            key: "status",
            header: t("console.stores.col.status"),
            cell: (s) => (
              <>
                <PublishedChip
                  published={s.published}
                  label={t(`console.stores.status.${s.published ? "published" : "unpublished"}`)}
                />
                {s.pending ? (
                  <span className="ml-2 rounded-full bg-brand-700/10 px-2 py-0.5 text-xs text-brand-800">
                    {t("console.stores.status.pending")}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            key: "updated",
            header: t("console.stores.col.updated"),
            className: "tabular-nums",
            cell: (s) => formatTaipei(s.updatedAt, locale, "dateTime"),
          },
        ]}
        paging={{
          kind: "pages",
          pages: loaderData.pages,
          label: t("console.stores.pagination"),
          status: t("console.stores.pages", { page: query.page, pages: loaderData.pages }),
          prevHref: loaderData.prevHref,
          nextHref: loaderData.nextHref,
          prevLabel: t("console.stores.prev"),
          nextLabel: t("console.stores.next"),
        }}
      />
    </ConsolePage>
  );
}
