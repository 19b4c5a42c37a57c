import { and, eq, lt, sql } from "drizzle-orm";
import { endOfTaipeiDay, startOfTaipeiDay } from "~/lib/time";
import type { Database } from "../../../server/db/client";
import { rateLimitCounter } from "../../../server/db/schema";

export type Window = "minute" | "hour" | "day";
export type Limit = { key: string; window: Window; max: number };

export type LimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Window boundaries: minutes and hours are fixed clock windows; a day is a Taipei calendar day. */
function windowBounds(window: Window, now: Date): { start: Date; end: Date } {
  if (window === "day") return { start: startOfTaipeiDay(now), end: endOfTaipeiDay(now) };
  const size = window === "hour" ? 3_600_000 : 60_000;
  const start = new Date(Math.floor(now.getTime() / size) * size);
  return { start, end: new Date(start.getTime() + size) };
}

/**
 * Counts one hit against each limit, atomically in the database (so the limits hold across every
 * app instance). If any limit is exceeded nothing is counted for the others and the caller learns
 * how long to wait.
 */
export async function hitLimits(db: Database, limits: readonly Limit[], now = new Date()): Promise<LimitResult> {
  const over = await peekLimits(db, limits, now);
  if (!over.allowed) return over;
  let worst: LimitResult = { allowed: true };
  for (const limit of limits) {
    const { start, end } = windowBounds(limit.window, now);
    const [row] = await db
      .insert(rateLimitCounter)
      .values({ key: `${limit.key}:${limit.window}`, windowStart: start, count: 1, lastHitAt: now, expiresAt: end })
      .onConflictDoUpdate({
        target: [rateLimitCounter.key, rateLimitCounter.windowStart],
        set: { count: sql`${rateLimitCounter.count} + 1`, lastHitAt: now },
      })
      .returning({ count: rateLimitCounter.count });
    // A concurrent request may have taken the last slot between peek and hit.
    if ((row?.count ?? 0) > limit.max) {
      const retry = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
      if (worst.allowed || retry > worst.retryAfterSeconds) worst = { allowed: false, retryAfterSeconds: retry };
    }
  }
  return worst;
}

/** Checks the limits without counting a hit. */
export async function peekLimits(db: Database, limits: readonly Limit[], now = new Date()): Promise<LimitResult> {
  let worst: LimitResult = { allowed: true };
  for (const limit of limits) {
    const { start, end } = windowBounds(limit.window, now);
    const rows = await db
      .select({ count: rateLimitCounter.count })
      .from(rateLimitCounter)
      .where(and(eq(rateLimitCounter.key, `${limit.key}:${limit.window}`), eq(rateLimitCounter.windowStart, start)));
    if ((rows[0]?.count ?? 0) >= limit.max) {
      const retry = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
      if (worst.allowed || retry > worst.retryAfterSeconds) worst = { allowed: false, retryAfterSeconds: retry };
    }
  }
  return worst;
}

/** The current count and last hit of one window (for growing delays). */
export async function readCounter(
  db: Database,
  key: string,
  window: Window,
  now = new Date(),
): Promise<{ count: number; lastHitAt: Date | null }> {
  const { start } = windowBounds(window, now);
  const [row] = await db
    .select({ count: rateLimitCounter.count, lastHitAt: rateLimitCounter.lastHitAt })
    .from(rateLimitCounter)
    .where(and(eq(rateLimitCounter.key, `${key}:${window}`), eq(rateLimitCounter.windowStart, start)));
  return { count: row?.count ?? 0, lastHitAt: row?.lastHitAt ?? null };
}

/** Clears the counters of a key (e.g. login failures after a successful login). */
export async function resetLimit(db: Database, key: string): Promise<void> {
  await db.delete(rateLimitCounter).where(sql`${rateLimitCounter.key} like ${`${key}:%`}`);
}

/** Removes expired windows (run by a scheduled job). */
export async function purgeExpiredLimits(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .delete(rateLimitCounter)
    .where(and(lt(rateLimitCounter.expiresAt, now)))
    .returning();
  return rows.length;
}
