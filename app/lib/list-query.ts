import { type CalendarDate, parseIsoDate } from "./time";

/**
 * One way for a console list to read its filters from the URL (ADR 037, "The console page frame and list query").
 * A page declares a spec, one entry per query parameter; `parseListQuery` answers the typed values, the trimmed
 * text of each (to refill the filter form) and what was wrong with which. Unknown choices and numbers out of range
 * fall back to the spec's default without a word (a hand-edited or stale link still shows a list); a date that is
 * not a real day, or text over a `refuse`d length, is reported so the page can say so beside the field. NUL bytes
 * and absurdly long values never get here: `request-url.server.ts` refuses them before any loader runs.
 */

export type ListField =
  | { kind: "text"; max: number; refuse?: boolean }
  | { kind: "choice"; options: readonly string[]; fallback: string | null }
  | { kind: "date" }
  | { kind: "int"; min: number; max: number; fallback: number | null }
  | { kind: "cursor"; pattern?: RegExp };

export type ListQuerySpec = Record<string, ListField>;

/** The spec's building blocks. */
export const listField = {
  /** Free text, trimmed and cut to `max`; with `refuse`, longer text is kept as typed and reported as `tooLong`. */
  text: (max: number, options: { refuse?: boolean } = {}) => ({ kind: "text", max, ...options }) as const,
  /** One of `options`; anything else (or nothing) is `fallback`. */
  choice: <const O extends readonly string[], const F extends O[number] | "" | null>(options: O, fallback: F) =>
    ({ kind: "choice", options, fallback }) as { kind: "choice"; options: O; fallback: F },
  /** A Taipei calendar day written YYYY-MM-DD; empty is null, anything else that is not a real day is `date`. */
  date: () => ({ kind: "date" }) as const,
  /** A whole number from `min` to `max` (a page number, a numeric cursor); anything else is `fallback`. */
  int: <const F extends number | null>(min: number, max: number, fallback: F) =>
    ({ kind: "int", min, max, fallback }) as { kind: "int"; min: number; max: number; fallback: F },
  /** An opaque paging cursor, kept as written (null when absent or not matching `pattern`). */
  cursor: (pattern?: RegExp) => ({ kind: "cursor", pattern }) as const,
};

type ValueOf<F> = F extends { kind: "text" }
  ? string
  : F extends { kind: "choice"; options: infer O extends readonly string[]; fallback: infer D }
    ? O[number] | D
    : F extends { kind: "date" }
      ? CalendarDate | null
      : F extends { kind: "int"; fallback: infer D }
        ? number | D
        : F extends { kind: "cursor" }
          ? string | null
          : never;

export type ListQueryIssue = "tooLong" | "date";

export type ListQuery<S extends ListQuerySpec> = {
  values: { [K in keyof S]: ValueOf<S[K]> };
  /** What the URL said, trimmed (text cut to its length unless refused): what the filter form shows again. */
  raw: { [K in keyof S]: string };
  issues: Partial<Record<keyof S, ListQueryIssue>>;
  /** No field was reported. */
  valid: boolean;
};

export function parseListQuery<const S extends ListQuerySpec>(url: URL, spec: S): ListQuery<S> {
  const values: Record<string, unknown> = {};
  const raw: Record<string, string> = {};
  const issues: Partial<Record<string, ListQueryIssue>> = {};
  for (const [name, field] of Object.entries(spec)) {
    const text = (url.searchParams.get(name) ?? "").trim();
    switch (field.kind) {
      case "text": {
        const over = text.length > field.max;
        if (field.refuse && over) issues[name] = "tooLong";
        raw[name] = field.refuse ? text : text.slice(0, field.max);
        values[name] = raw[name];
        break;
      }
      case "choice": {
        raw[name] = text;
        values[name] = field.options.includes(text) ? text : field.fallback;
        break;
      }
      case "date": {
        raw[name] = text;
        const date = text ? parseIsoDate(text) : null;
        if (text && !date) issues[name] = "date";
        values[name] = date;
        break;
      }
      case "int": {
        raw[name] = text;
        const n = text === "" ? Number.NaN : Number(text);
        values[name] = Number.isSafeInteger(n) && n >= field.min && n <= field.max ? n : field.fallback;
        break;
      }
      case "cursor": {
        raw[name] = text;
        values[name] = text && (!field.pattern || field.pattern.test(text)) ? text : null;
        break;
      }
    }
  }
  return {
    values: values as ListQuery<S>["values"],
    raw: raw as ListQuery<S>["raw"],
    issues: issues as ListQuery<S>["issues"],
    valid: Object.keys(issues).length === 0,
  };
}

/**
 * The address of a list with its query (`parseListQuery`'s answer) and some values changed (a page number): only
 * what differs from the spec's defaults is written, so the first page of an unfiltered list is the bare path.
 */
export function listHref<const S extends ListQuerySpec>(
  path: string,
  spec: S,
  query: Pick<ListQuery<S>, "values" | "raw">,
  changes: Partial<Record<keyof S, string | number | null>> = {},
): string {
  const params = new URLSearchParams();
  for (const [name, field] of Object.entries(spec)) {
    const changed = name in changes;
    const value: unknown = changed
      ? changes[name]
      : field.kind === "date" || field.kind === "text"
        ? query.raw[name]
        : query.values[name];
    if (value === null || value === undefined || value === "") continue;
    if ((field.kind === "choice" || field.kind === "int") && value === field.fallback) continue;
    params.set(name, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Previous and next page of a numbered list (null at either end), keeping its filters. */
export function pageHrefs<const S extends ListQuerySpec>(
  path: string,
  spec: S,
  query: Pick<ListQuery<S>, "values" | "raw">,
  page: number,
  pages: number,
  pageParam: keyof S = "page",
): { prevHref: string | null; nextHref: string | null } {
  const at = (n: number) => listHref(path, spec, query, { [pageParam]: n } as Partial<Record<keyof S, number>>);
  return { prevHref: page > 1 ? at(page - 1) : null, nextHref: page < pages ? at(page + 1) : null };
}
