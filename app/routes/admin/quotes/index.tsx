import { QUOTE_STATUSES } from "@platform/db/schema/quotes";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, FilterBar, RowLink, useFilterFields } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { useConsoleT } from "~/components/console/use-console-t";
import { QuoteStatusBadge } from "~/components/quotes/quote-status";
import { listQuotes, QUOTES_PAGE_SIZE } from "~/domain/quotes/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { formatNumber, useLocale } from "~/lib/i18n";
import { getLocale } from "~/lib/i18n.server";
import { listField, pageHrefs, parseListQuery } from "~/lib/list-query";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.quotes.title");

/**
 * Quote requests of the stores the person works at (every store for an admin), newest first: filters by status and
 * store in the URL. A store the person may not pick is not a choice (it falls back to every store of theirs).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "quotes.view");
  const db = getApp(context).db;
  const stores = await storeChoicesFor(db, actor, getLocale(request));
  const spec = {
    status: listField.choice(QUOTE_STATUSES, ""),
    store: listField.choice(
      stores.map((s) => s.id),
      "",
    ),
    page: listField.int(1, 10_000, 1),
  };
  const parsed = parseListQuery(new URL(request.url), spec);
  const query = parsed.values;
  const { rows, total } = await listQuotes(db, actor, query, requestNow(request, getApp(context).config));
  const pages = Math.max(1, Math.ceil(total / QUOTES_PAGE_SIZE));
  const locale = getLocale(request);
  return {
    query,
    stores,
    total,
    pages,
    ...pageHrefs("/admin/quotes", spec, parsed, query.page, pages),
    rows: rows.map((r) => ({
      ...r,
      storeName: pick(r.storeName, locale),
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

export default function Quotes({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const filter = useFilterFields("console.quotes");
  const locale = useLocale();
  const { query } = loaderData;
  return (
    <ConsolePage title={t("console.quotes.title")} lead={t("console.quotes.lead")}>
      <ConsoleList
        filters={
          <FilterBar
            submitLabel={t("console.quotes.submit")}
            columns="lg:grid-cols-[1fr_1fr_auto]"
            fields={[
              filter.choice("status", query.status, QUOTE_STATUSES, { any: true }),
              {
                name: "store",
                value: query.store,
                label: t("console.quotes.store"),
                options: loaderData.stores.map((s) => ({ value: s.id, label: s.name })),
              },
            ]}
          />
        }
        count={t("console.quotes.count", { count: loaderData.total })}
        empty={t("console.quotes.empty")}
        emptyTestId="quotes-empty"
        label={t("console.quotes.title")}
        testId="quotes-table"
        minWidth="44rem"
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        rowTestId="quote-row"
        columns={[
          {
            key: "reference",
            header: t("console.quotes.col.reference"),
            className: "tabular-nums",
            cell: (r) => <RowLink to={`/admin/quotes/${r.id}`}>{r.reference}</RowLink>,
          },
          { key: "member", header: t("console.quotes.col.member"), cell: (r) => r.memberName },
          { key: "store", header: t("console.quotes.col.store"), cell: (r) => r.storeName },
          {
            key: "created",
            header: t("console.quotes.col.created"),
            className: "tabular-nums",
            cell: (r) => formatTaipei(r.createdAt, locale, "dateTime"),
          },
          { key: "lines", header: t("console.quotes.col.lines"), className: "tabular-nums", cell: (r) => r.lines },
          {
            key: "total",
            header: t("console.quotes.col.total"),
            className: "tabular-nums",
            cell: (r) => (r.total === null ? "—" : `NT$${formatNumber(r.total, "en-US")}`),
          },
          {
            key: "status",
            header: t("console.quotes.col.status"),
            cell: (r) => <QuoteStatusBadge state={r.status} label={t(`console.quotes.status.${r.status}`)} />,
          },
        ]}
        paging={{
          kind: "pages",
          pages: loaderData.pages,
          label: t("console.quotes.pagination"),
          status: t("console.quotes.page", { page: query.page, pages: loaderData.pages }),
          prevHref: loaderData.prevHref,
          nextHref: loaderData.nextHref,
          prevLabel: t("console.quotes.prev"),
          nextLabel: t("console.quotes.next"),
        }}
      />
    </ConsolePage>
  );
}
