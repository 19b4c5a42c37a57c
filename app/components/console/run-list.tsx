import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { type Column, ConsoleList, RowLink } from "./console-list";
import { useConsoleT } from "./use-console-t";

/**
 * The list of runs of the import engine (issue 35): the member imports and the bulk point grants, 20 a page,
 * newest first. Each row's date links to its run's page; the count, the empty state and the paging are worded
 * from the page's catalog prefix (`<prefix>.count`, `.empty`, `.title`, `.pagination`, `.page`, `.prev`,
 * `.next`). The page gives its own columns after the date.
 */

export type RunListPrefix = "console.grants" | "console.import";

/** What a run list page's loader returns for the list. */
export type RunListData<Row> = {
  rows: readonly Row[];
  total: number;
  page: number;
  pages: number;
  prevHref: string | null;
  nextHref: string | null;
};

/** Counts as the run pages write them (1,234). */
export function figure(value: number): string {
  return value.toLocaleString("en-US");
}

export function RunList<Row extends { id: string; createdAt: string }>({
  prefix,
  to,
  data,
  dateHeader,
  columns,
  testId,
  rowTestId,
  emptyTestId,
  minWidth,
}: {
  prefix: RunListPrefix;
  /** The runs' pages: `${to}/${id}`. */
  to: string;
  data: RunListData<Row>;
  dateHeader: string;
  /** The columns after the date. */
  columns: Column<Row>[];
  testId: string;
  rowTestId: string;
  emptyTestId: string;
  minWidth: string;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <ConsoleList
      count={t(`${prefix}.count`, { count: data.total })}
      empty={t(`${prefix}.empty`)}
      emptyTestId={emptyTestId}
      label={t(`${prefix}.title`)}
      testId={testId}
      minWidth={minWidth}
      rows={data.rows}
      rowKey={(r) => r.id}
      rowTestId={rowTestId}
      columns={[
        {
          key: "date",
          header: dateHeader,
          className: "tabular-nums whitespace-nowrap",
          cell: (r) => <RowLink to={`${to}/${r.id}`}>{formatTaipei(r.createdAt, locale, "dateTime")}</RowLink>,
        },
        ...columns,
      ]}
      paging={{
        kind: "pages",
        pages: data.pages,
        label: t(`${prefix}.pagination`),
        status: t(`${prefix}.page`, { page: data.page, pages: data.pages }),
        prevHref: data.prevHref,
        nextHref: data.nextHref,
        prevLabel: t(`${prefix}.prev`),
        nextLabel: t(`${prefix}.next`),
      }}
    />
  );
}
