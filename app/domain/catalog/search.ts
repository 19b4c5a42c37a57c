import { z } from "zod";

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

/** Ids in URLs and filters are slugs; anything else is ignored. */
export const slugSchema = z
  .string()
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

export function parseSlug(value: unknown): string | null {
  const parsed = slugSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
