import type { ReactNode } from "react";
import { cn } from "~/lib/cn";
import { ConsoleTable } from "../console-list";
import { useConsoleT } from "../use-console-t";

/** One headline figure of the dashboard (a `<div>` of the KPI `<dl>`). */
export function Kpi({ id, label, value, detail }: { id: string; label: string; value: string; detail: string }) {
  return (
    <div className="rounded-2xl border border-line bg-white p-4" data-testid={id}>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 font-serif text-2xl font-semibold tabular-nums sm:text-3xl">{value}</dd>
      {detail ? <dd className="mt-1 text-xs text-muted">{detail}</dd> : null}
    </div>
  );
}

/** A dashboard panel: its title with the CSV download of its figures, a lead line, a chart beside its table. */
export function Panel({
  id,
  title,
  csv,
  lead,
  chart,
  narrow,
  level = "h2",
  children,
}: {
  id: string;
  title: string;
  csv: string;
  lead?: string;
  chart?: ReactNode;
  narrow?: boolean;
  /** h3 for a panel inside a section of the dashboard (展示廳). */
  level?: "h2" | "h3";
  children: ReactNode;
}) {
  const t = useConsoleT();
  const Heading = level;
  return (
    <section
      className="rounded-2xl border border-line bg-white p-4 sm:p-5"
      aria-labelledby={`${id}-title`}
      data-panel={id}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Heading id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </Heading>
        <a
          href={csv}
          download
          className="text-sm text-brand-700 underline underline-offset-4"
          aria-label={t("console.dashboard.csvOf", { panel: title })}
        >
          {t("console.dashboard.csv")}
        </a>
      </div>
      {lead ? <p className="mt-1 text-sm text-muted">{lead}</p> : null}
      <div className={cn("mt-4 grid gap-5", Boolean(chart) && !narrow && "lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]")}>
        {chart ? <div className="min-w-0">{chart}</div> : null}
        <div className="min-w-0">{children}</div>
      </div>
    </section>
  );
}

/** A panel's scroll box: its head stays in view while the rows scroll. */
export const FIGURES_BOX = "max-h-80 overflow-y-auto [&_thead]:sticky [&_thead]:top-0 [&_thead]:bg-sand";

/**
 * A panel's figures (ConsoleTable): the first column names the row, the others are right-aligned figures;
 * `bars` draws each row's share of the largest behind its name.
 */
export function FigureTable({
  head,
  rows,
  bars,
  empty,
  minWidth = "0",
}: {
  head: string[];
  rows: string[][];
  bars?: number[];
  empty: string;
  /** Below this width the table scrolls sideways instead of squeezing its headers (a table of many columns). */
  minWidth?: string;
}) {
  if (rows.length === 0)
    return <p className="rounded-xl bg-sand/40 px-4 py-6 text-center text-sm text-muted">{empty}</p>;
  const max = bars ? Math.max(1, ...bars) : 0;
  const indexed = rows.map((cells, index) => ({ cells, index }));
  return (
    <ConsoleTable
      label={head.join(" · ")}
      className={FIGURES_BOX}
      minWidth={minWidth}
      rows={indexed}
      rowKey={(r) => String(r.index)}
      columns={head.map((h, i) => ({
        key: `${i}`,
        header: h,
        align: i > 0 ? ("right" as const) : undefined,
        className: cn("whitespace-nowrap tabular-nums", i === 0 && bars && "relative"),
        cell: (r: (typeof indexed)[number]) =>
          i === 0 && bars ? (
            <>
              <span
                aria-hidden
                className="absolute inset-y-1 left-0 rounded-r bg-brand-100"
                style={{ width: `${((bars[r.index] ?? 0) / max) * 100}%` }}
              />
              <span className="relative">{r.cells[0]}</span>
            </>
          ) : (
            r.cells[i]
          ),
      }))}
    />
  );
}
