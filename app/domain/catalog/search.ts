/** Longest search text we look at; longer input is cut, never an error. */
export const SEARCH_MAX_LENGTH = 60;

/**
 * The visitor's search text, normalised: trimmed, inner whitespace collapsed, control characters
 * dropped, cut to SEARCH_MAX_LENGTH. Anything else (SQL, HTML, %, _) stays as typed: it is plain text.
 */
export function normaliseSearch(value: unknown): string {
  if (typeof value !== "string") return "";
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
      .replace(/[\u0000-\u001f\u007f]/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, SEARCH_MAX_LENGTH)
  );
}

/**
 * A LIKE/ILIKE pattern that matches the text anywhere, with the pattern characters (`%`, `_`) and the
 * escape character (`\`) escaped, so "100%" finds "100%" and not everything. It is passed as a bound
 * parameter, never spliced into SQL.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Ids in URLs and filters are slugs (as `slugId` in app/lib/http.server.ts); anything else is ignored. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function parseSlug(value: unknown): string | null {
  return typeof value === "string" && value.length <= 64 && SLUG.test(value) ? value : null;
}
