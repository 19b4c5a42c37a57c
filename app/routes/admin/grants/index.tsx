import { getApp } from "~/adapters/context.server";
import { ConsoleList, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { GrantStatusBadge } from "~/components/console/grants/grant-parts";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { GRANTS_PAGE_SIZE, listGrants } from "~/domain/imports/grants.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { useLocale } from "~/lib/i18n";
import { listField, pageHrefs, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.grants.title");

const GRANT_QUERY = { page: listField.int(1, 10_000, 1) };

/** Bulk point grants (managers and admins, `points.bulk`), newest first, 20 a page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "points.bulk");
  const parsed = parseListQuery(new URL(request.url), GRANT_QUERY);
  const { page } = parsed.values;
  const { rows, total } = await listGrants(getApp(context).db, page);
  const pages = Math.max(1, Math.ceil(total / GRANTS_PAGE_SIZE));
  return {
    page,
    pages,
    total,
    ...pageHrefs("/admin/grants", GRANT_QUERY, parsed, page, pages),
    rows: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}

export default function Grants({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <ConsolePage
      title={t("console.grants.title")}
      lead={t("console.grants.lead")}
      action={
        <Link to="/admin/grants/new" className={buttonVariants()}>
          {t("console.grants.new")}
        </Link>
      }
    >
      <ConsoleList
        count={t("console.grants.count", { count: loaderData.total })}
        empty={t("console.grants.empty")}
        emptyTestId="grants-empty"
        label={t("console.grants.title")}
        testId="grants-table"
        minWidth="48rem"
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        rowTestId="grant-row"
        columns={[
          {
            key: "createdAt",
            header: t("console.grants.col.createdAt"),
            className: "tabular-nums",
            cell: (r) => (
              <RowLink to={`/admin/grants/${r.id}`}>{formatTaipei(r.createdAt, locale, "dateTime")}</RowLink>
            ),
          },
          {
            key: "source",
            header: t("console.grants.col.source"),
            className: "max-w-[14rem] break-words",
            cell: (r) => r.fileName ?? t("console.grants.source.filter"),
          },
          {
            key: "reason",
            header: t("console.grants.col.reason"),
            className: "max-w-[16rem] break-words",
            cell: (r) => r.reason,
          },
          {
            key: "rows",
            header: t("console.grants.col.rows"),
            className: "tabular-nums",
            cell: (r) => r.rows.toLocaleString("en-US"),
          },
          {
            key: "total",
            header: t("console.grants.col.total"),
            className: "tabular-nums",
            cell: (r) => r.total.toLocaleString("en-US"),
          },
          {
            key: "status",
            header: t("console.grants.col.status"),
            cell: (r) => <GrantStatusBadge status={r.status} />,
          },
          { key: "starter", header: t("console.grants.col.starter"), cell: (r) => r.starterName ?? "—" },
        ]}
        paging={{
          kind: "pages",
          pages: loaderData.pages,
          label: t("console.grants.pagination"),
          status: t("console.grants.page", { page: loaderData.page, pages: loaderData.pages }),
          prevHref: loaderData.prevHref,
          nextHref: loaderData.nextHref,
          prevLabel: t("console.grants.prev"),
          nextLabel: t("console.grants.next"),
        }}
      />
    </ConsolePage>
  );
}
