import { getApp } from "~/adapters/context.server";
import { ConsoleList, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { RunStatusBadge } from "~/components/console/imports/run-status";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { listRuns, RUNS_PAGE_SIZE } from "~/domain/imports/runs.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { useLocale } from "~/lib/i18n";
import { listField, pageHrefs, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";
import { runView, staffNames } from "./imports.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.import.title");

const QUERY = { page: listField.int(1, 10_000, 1) };

/** The imports (admins, `member.import`): every run, newest first, with its counts and who started it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "member.import");
  const db = getApp(context).db;
  const parsed = parseListQuery(new URL(request.url), QUERY);
  const { page } = parsed.values;
  const { runs, total } = await listRuns(db, { kind: ["firebase", "csv"], page });
  const names = await staffNames(
    db,
    runs.map((r) => r.createdBy),
  );
  const pages = Math.max(1, Math.ceil(total / RUNS_PAGE_SIZE));
  return {
    page,
    pages,
    total,
    ...pageHrefs("/admin/imports", QUERY, parsed, page, pages),
    rows: runs.map((r) => runView(r, names)),
  };
}

export default function Imports({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const n = (value: number) => value.toLocaleString("en-US");
  return (
    <ConsolePage
      title={t("console.import.title")}
      lead={t("console.import.lead")}
      titleTestId="imports-title"
      action={
        <div className="flex flex-wrap gap-2">
          <Link to="/admin/imports/firebase" className={buttonVariants()} data-testid="imports-new-firebase">
            {t("console.import.newFirebase")}
          </Link>
          <Link
            to="/admin/imports/csv"
            className={buttonVariants({ variant: "secondary" })}
            data-testid="imports-new-csv"
          >
            {t("console.import.newCsv")}
          </Link>
        </div>
      }
    >
      <ConsoleList
        count={t("console.import.count", { count: loaderData.total })}
        empty={t("console.import.empty")}
        emptyTestId="imports-empty"
        label={t("console.import.title")}
        testId="imports-table"
        minWidth="56rem"
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        rowTestId="import-run-row"
        columns={[
          {
            key: "date",
            header: t("console.import.col.date"),
            className: "tabular-nums whitespace-nowrap",
            cell: (r) => (
              <RowLink to={`/admin/imports/${r.id}`}>{formatTaipei(r.createdAt, locale, "dateTime")}</RowLink>
            ),
          },
          {
            key: "kind",
            header: t("console.import.col.kind"),
            cell: (r) => (r.kind === "firebase" || r.kind === "csv" ? t(`console.import.kind.${r.kind}`) : r.kind),
          },
          { key: "source", header: t("console.import.col.source"), className: "break-all", cell: (r) => r.source },
          {
            key: "status",
            header: t("console.import.col.status"),
            cell: (r) => <RunStatusBadge status={r.status} />,
          },
          {
            key: "rows",
            header: t("console.import.col.rows"),
            align: "right",
            className: "tabular-nums",
            cell: (r) => n(r.rowsTotal),
          },
          {
            key: "counts",
            header: t("console.import.col.counts"),
            className: "tabular-nums whitespace-nowrap",
            cell: (r) => `${n(r.created)} / ${n(r.merged)} / ${n(r.unchanged)} / ${n(r.rejected)}`,
          },
          {
            key: "who",
            header: t("console.import.col.who"),
            cell: (r) => (r.createdBy ? (r.who ?? t("console.import.unknownStaff")) : t("console.import.cli")),
          },
        ]}
        paging={{
          kind: "pages",
          pages: loaderData.pages,
          label: t("console.import.pagination"),
          status: t("console.import.page", { page: loaderData.page, pages: loaderData.pages }),
          prevHref: loaderData.prevHref,
          nextHref: loaderData.nextHref,
          prevLabel: t("console.import.prev"),
          nextLabel: t("console.import.next"),
        }}
      />
    </ConsolePage>
  );
}
