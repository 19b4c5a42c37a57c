import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { RunStatusBadge } from "~/components/console/imports/run-status";
import { figure, RunList } from "~/components/console/run-list";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { listRuns, RUNS_PAGE_SIZE } from "~/domain/imports/runs.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { staffNames } from "~/domain/staff/names.server";
import { listField, pageHrefs, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";
import { runView } from "./imports.server";

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
      <RunList
        prefix="console.import"
        to="/admin/imports"
        data={loaderData}
        dateHeader={t("console.import.col.date")}
        testId="imports-table"
        rowTestId="import-run-row"
        emptyTestId="imports-empty"
        minWidth="56rem"
        columns={[
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
            cell: (r) => figure(r.rowsTotal),
          },
          {
            key: "counts",
            header: t("console.import.col.counts"),
            className: "tabular-nums whitespace-nowrap",
            cell: (r) => `${figure(r.created)} / ${figure(r.merged)} / ${figure(r.unchanged)} / ${figure(r.rejected)}`,
          },
          {
            key: "who",
            header: t("console.import.col.who"),
            cell: (r) => (r.createdBy ? (r.who ?? t("console.import.unknownStaff")) : t("console.import.cli")),
          },
        ]}
      />
    </ConsolePage>
  );
}
