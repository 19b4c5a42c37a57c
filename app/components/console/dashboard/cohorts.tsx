import type { Dashboard } from "~/domain/reports/dashboard.server";
import { ConsoleTable } from "../console-list";
import { useConsoleT } from "../use-console-t";
import { useFigureFormat } from "./format";
import { Panel } from "./panel";

/**
 * Cohort cells: darker the larger the share. Each shade keeps AA contrast (4.5:1) with its text: white on
 * brand-800 (10:1) and brand-700 (6.6:1), ink on the light ones. brand-500 is not used: white on it is 4.2:1.
 */
export function heat(s: number | null): string {
  if (s === null) return "text-muted";
  if (s >= 0.5) return "bg-brand-800 text-white";
  if (s >= 0.25) return "bg-brand-700 text-white";
  if (s >= 0.1) return "bg-brand-300 text-ink";
  if (s > 0) return "bg-brand-100 text-ink";
  return "bg-brand-50 text-muted";
}

type Row = Dashboard["cohorts"]["rows"][number];

/** Members active each month after the month they joined, as a share of those who joined (a heat map). */
export function CohortsPanel({ cohorts, csv }: { cohorts: Dashboard["cohorts"]; csv: string }) {
  const t = useConsoleT();
  const f = useFigureFormat();
  const share = (r: Row, k: number) => {
    const a = r.active[k];
    return a === null || a === undefined || r.size === 0 ? null : a / r.size;
  };
  return (
    <Panel
      id="cohorts"
      title={t("console.dashboard.cohorts.title")}
      csv={csv}
      lead={t("console.dashboard.cohorts.lead")}
    >
      <ConsoleTable
        label={t("console.dashboard.cohorts.title")}
        testId="cohort-table"
        className="max-h-[28rem] overflow-y-auto [&_thead]:sticky [&_thead]:top-0 [&_thead]:bg-sand"
        minWidth="0"
        rows={cohorts.rows}
        rowKey={(r) => r.signupMonth}
        columns={[
          {
            key: "cohort",
            header: t("console.dashboard.cohorts.cohort"),
            className: "whitespace-nowrap font-medium",
            cell: (r) => f.month(r.signupMonth),
          },
          {
            key: "size",
            header: t("console.dashboard.cohorts.size"),
            align: "right",
            className: "tabular-nums",
            cell: (r) => f.n(r.size),
          },
          ...cohorts.months.map((month, k) => ({
            key: month,
            header: t("console.dashboard.cohorts.offset", { n: String(k) }),
            align: "right" as const,
            className: "whitespace-nowrap tabular-nums",
            cellClassName: (r: Row) => heat(share(r, k)),
            cell: (r: Row) => {
              const a = r.active[k];
              return a === null || a === undefined ? "" : <span title={f.n(a)}>{f.pct(share(r, k))}</span>;
            },
          })),
        ]}
      />
    </Panel>
  );
}
