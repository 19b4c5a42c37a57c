import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { GrantStatusBadge } from "~/components/console/grants/grant-parts";
import { figure, RunList } from "~/components/console/run-list";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { GRANTS_PAGE_SIZE, listGrants } from "~/domain/imports/grants.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { listField, pageHrefs, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
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
      <RunList
        prefix="console.grants"
        to="/admin/grants"
        data={loaderData}
        dateHeader={t("console.grants.col.createdAt")}
        testId="grants-table"
        rowTestId="grant-row"
        emptyTestId="grants-empty"
        minWidth="48rem"
        columns={[
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
            cell: (r) => figure(r.rows),
          },
          {
            key: "total",
            header: t("console.grants.col.total"),
            className: "tabular-nums",
            cell: (r) => figure(r.total),
          },
          {
            key: "status",
            header: t("console.grants.col.status"),
            cell: (r) => <GrantStatusBadge status={r.status} />,
          },
          { key: "starter", header: t("console.grants.col.starter"), cell: (r) => r.starterName ?? "—" },
        ]}
      />
    </ConsolePage>
  );
}
