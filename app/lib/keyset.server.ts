import { type Column, type SQL, sql } from "drizzle-orm";

/**
 * The keyset of a console list that runs newest first by a time the database stamped and an id (members,
 * campaigns, materials by last change): one way to write, read and apply its cursor.
 * - The time travels as the database keeps it, to the microsecond (UTC text), never through a JavaScript Date: a
 *   Date cuts it to the millisecond, and the next page then skipped every row stamped earlier within that
 *   millisecond (members who signed up within one millisecond, 2026-12-07).
 * - A cursor that is not one this code made (another shape, an impossible time, a NUL byte) is no cursor: the first
 *   page, never a database error.
 * - The next page is one row comparison, `(time, id) < (cursor)`, which PostgreSQL uses as a bound of an index on
 *   (…, time, id) instead of filtering the rows before it.
 */
export type TimeCursor = { at: string; id: string };

const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The time column as the cursor carries it (select it beside the row, as `cursorAt`). */
export function cursorTime(column: Column | SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export function encodeTimeCursor(at: string, id: string): string {
  return `${at}|${id}`;
}

export function decodeTimeCursor(after: string | null | undefined, id: RegExp = UUID): TimeCursor | null {
  if (!after || after.length > 200) return null;
  const bar = after.indexOf("|");
  const at = after.slice(0, bar);
  const key = after.slice(bar + 1);
  if (bar <= 0 || !AT.test(at) || Number.isNaN(Date.parse(at)) || !id.test(key)) return null;
  return { at, id: key };
}

/** The rows after the cursor in a newest-first list: `(time, id) < (cursor)`. */
export function olderThan(time: Column | SQL, id: Column | SQL, cursor: TimeCursor | null): SQL | undefined {
  return cursor ? sql`(${time}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id})` : undefined;
}
