import { type SQL, sql } from "drizzle-orm";

/**
 * The bound of "due at `now`" for a time the database stamped (`due_at`, `now()`): `column < dueBy(now)`.
 * A JavaScript clock reading is a whole millisecond, the database's clock has microseconds: a row stamped within
 * `now`'s millisecond (a few microseconds after it) was not due at `now` with `due_at <= now`, so a pass run right
 * after the write found nothing (CI's rich-menu test, 2026-12-07). The bound is the end of `now`'s millisecond.
 */
export function dueBy(now: Date): SQL {
  return sql`(${now.toISOString()}::timestamptz + interval '1 millisecond')`;
}
