import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import type { MessageKey } from "~/lib/i18n";
import { FilterInput, FilterSelect } from "./filter-fields";
import { MoreLink, PageNumbers } from "./pager";
import { TableScroll } from "./table-scroll";
import { useConsoleT } from "./use-console-t";

/**
 * The console's lists (ADR 037, "The console kit"): a filter bar (a GET form: the filters live in the URL), the
 * count, the table built from an array of columns (or the empty state), and the paging. A page declares its query
 * spec (`parseListQuery`) and its columns; everything else is here once. No table library: our lists are
 * server-sorted and server-paged, so a column is a header and a cell, nothing more.
 */

export type Column<Row> = {
  /** Unique within the table (the React key). */
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The cell's classes (padding is the table's); `tabular-nums`, a width, `text-right`. */
  className?: string;
  /** The list is sorted by this column (aria-sort). */
  sort?: "ascending" | "descending";
  /** A test id on each cell of this column. */
  testId?: string;
  /** Figures: the header and the cells right-aligned. */
  align?: "right";
  /** A cell's own classes, from its row (a heat map's shade). */
  cellClassName?: (row: Row) => string | undefined;
  /** The cell's label in a stacked table (`stack`) when the header is not plain text. */
  label?: string;
};

/**
 * A stacked table's classes: below `sm` every row is a card and every cell a line under its column's name (the
 * header, repeated from `data-label`), so a phone reads a few columns of actions without scrolling sideways. The
 * explicit roles keep the table's semantics whatever `display` the rows get.
 */
const STACKED = {
  table: "max-sm:block sm:min-w-(--table-min)",
  thead: "max-sm:sr-only",
  tbody: "max-sm:block",
  tr: "max-sm:block max-sm:px-4 max-sm:py-3",
  td: "max-sm:block max-sm:empty:hidden max-sm:px-0 max-sm:py-1 max-sm:before:block max-sm:before:text-xs max-sm:before:font-normal max-sm:before:text-muted max-sm:before:content-[attr(data-label)] max-sm:text-left",
} as const;

/** A console table: headers from the columns, one row per item, in a labelled scroll box. */
export function ConsoleTable<Row>({
  label,
  labelledBy,
  columns,
  rows,
  rowKey,
  rowTestId,
  rowProps,
  testId,
  minWidth = "40rem",
  className,
  caption,
  stack = false,
}: {
  /** The table's name (or `labelledBy`, the id of the heading that names it). */
  label?: string;
  labelledBy?: string;
  columns: readonly (Column<Row> | false | null | undefined)[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowTestId?: string;
  /** Extra attributes of a row (a data attribute, a highlight class). */
  rowProps?: (row: Row) => { className?: string; [data: `data-${string}`]: string | undefined };
  testId?: string;
  /** Below this width the table scrolls sideways inside its box instead of squeezing. */
  minWidth?: string;
  className?: string;
  caption?: ReactNode;
  /** Below `sm`, rows become cards and cells lines under their column's name (see STACKED). */
  stack?: boolean;
}) {
  const cols = columns.filter(Boolean) as Column<Row>[];
  const scroll = labelledBy ? { labelledBy } : { label: label ?? "" };
  const role = <R extends string>(r: R) => (stack ? r : undefined);
  return (
    <TableScroll {...scroll} className={cn("rounded-2xl border border-line bg-white", className)}>
      <table
        className={cn("w-full text-left text-sm", stack && STACKED.table)}
        style={stack ? ({ "--table-min": minWidth } as React.CSSProperties) : { minWidth }}
        data-testid={testId}
        role={role("table")}
      >
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead
          className={cn("border-b border-line bg-sand/50 text-muted", stack && STACKED.thead)}
          role={role("rowgroup")}
        >
          <tr role={role("row")}>
            {cols.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={cn("px-4 py-3 font-medium", c.align === "right" && "text-right")}
                aria-sort={c.sort}
                role={role("columnheader")}
              >
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={cn("divide-y divide-line", stack && STACKED.tbody)} role={role("rowgroup")}>
          {rows.map((row) => {
            const { className: rowClass, ...data } = rowProps?.(row) ?? {};
            return (
              <tr
                key={rowKey(row)}
                data-testid={rowTestId}
                className={cn(rowClass, stack && STACKED.tr)}
                role={role("row")}
                {...data}
              >
                {cols.map((c) => (
                  <td
                    key={c.key}
                    className={cn(
                      "px-4 py-3 align-top",
                      c.align === "right" && "text-right",
                      c.className,
                      c.cellClassName?.(row),
                      stack && STACKED.td,
                    )}
                    data-testid={c.testId}
                    data-label={stack ? (c.label ?? (typeof c.header === "string" ? c.header : undefined)) : undefined}
                    role={role("cell")}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** One filter of a `FilterBar`: the props of `FilterSelect` (it has `options`) or of `FilterInput`. */
export type FilterField = Parameters<typeof FilterSelect>[0] | Parameters<typeof FilterInput>[0];

/**
 * The usual filters of a list, named after the page's catalog prefix: `choice("status", value, STATUSES)` is a
 * select labelled `<prefix>.status` whose options read `<prefix>.status.<value>` (TypeScript checks both keys are in
 * the catalog), `search("q", value)` the search box labelled `<prefix>.search`.
 */
export function useFilterFields<const P extends string>(prefix: P) {
  const t = useConsoleT();
  const word = (key: string) => t(key as MessageKey);
  return {
    search: (name: string, value: string, more: { placeholder?: string } = {}): FilterField => ({
      type: "search",
      name,
      value,
      label: word(`${prefix}.search`),
      ...more,
    }),
    choice: <const N extends string, const V extends string>(
      name: N & (`${P}.${N}` extends MessageKey ? unknown : never),
      value: string,
      values: readonly V[] & (`${P}.${N}.${V}` extends MessageKey ? unknown : never),
      options: { any?: boolean } = {},
    ): FilterField => ({
      name,
      value,
      label: word(`${prefix}.${name}`),
      anyOption: options.any ?? false,
      options: values.map((v) => ({ value: v, label: word(`${prefix}.${name}.${v}`) })),
    }),
  };
}

/** The filter bar above a list: a GET form whose fields are the page's, with one submit button. */
export function FilterBar({
  children,
  fields,
  submitLabel,
  columns,
  className,
  label,
}: {
  /** The filters, declared: a select where the field has options, else a text, search or date input. */
  fields?: readonly (FilterField | false | null | undefined)[];
  /** Fields of the page's own, after the declared ones. */
  children?: ReactNode;
  submitLabel: string;
  /** The search landmark's name, where the page has more than one form. */
  label?: string;
  /** The grid's columns from `lg` up (a Tailwind class), e.g. `lg:grid-cols-[2fr_1fr_auto]`. */
  columns?: string;
  className?: string;
}) {
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      className={cn(
        "mt-6 grid gap-3 rounded-2xl border border-line bg-white p-4 sm:grid-cols-2 lg:items-end",
        columns,
        className,
      )}
    >
      {fields?.map((f) =>
        !f ? null : "options" in f ? <FilterSelect key={f.name} {...f} /> : <FilterInput key={f.name} {...f} />,
      )}
      {children}
      <Button type="submit">{submitLabel}</Button>
    </Form>
  );
}

/** The empty state of a list: one calm line in a card. */
export function EmptyState({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className="mt-3 rounded-2xl border border-line bg-white p-6 text-center text-muted" data-testid={testId}>
      {children}
    </p>
  );
}

/** A link in a list's first column to the item's page. */
export function RowLink({ to, children, testId }: { to: string; children: ReactNode; testId?: string }) {
  return (
    <Link
      to={to}
      className="font-medium underline decoration-line underline-offset-4 hover:decoration-ink"
      data-testid={testId}
    >
      {children}
    </Link>
  );
}

export type Paging =
  | {
      kind: "pages";
      label: string;
      status: string;
      prevHref: string | null;
      nextHref: string | null;
      prevLabel: string;
      nextLabel: string;
      pages: number;
    }
  | { kind: "more"; href: string | null; label: string };

/**
 * A whole list: filters, the count (a polite status), the table or the empty state, the paging. `children`
 * replaces the table where a list is not tabular (the image library's grid) and still gets the rest.
 */
export function ConsoleList<Row>({
  filters,
  count,
  countTestId,
  empty,
  emptyTestId,
  paging,
  children,
  ...table
}: {
  filters?: ReactNode;
  count?: ReactNode;
  countTestId?: string;
  /** What an empty list says (given rows is empty). */
  empty: ReactNode;
  emptyTestId?: string;
  paging?: Paging;
  children?: ReactNode;
} & Parameters<typeof ConsoleTable<Row>>[0]) {
  return (
    <>
      {filters}
      {count === undefined ? null : (
        <p className="mt-6 text-sm text-muted" role="status" data-testid={countTestId}>
          {count}
        </p>
      )}
      {table.rows.length === 0 ? (
        <EmptyState testId={emptyTestId}>{empty}</EmptyState>
      ) : (
        (children ?? <ConsoleTable {...table} className={cn("mt-3", table.className)} />)
      )}
      {paging?.kind === "pages" && paging.pages > 1 ? <PageNumbers {...paging} /> : null}
      {paging?.kind === "more" ? <MoreLink href={paging.href} label={paging.label} /> : null}
    </>
  );
}
