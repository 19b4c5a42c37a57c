import type { Database } from "@platform/db/client";
import { rateLimitCounter } from "@platform/db/schema";
import { countLimitRefusal } from "@platform/metrics";
import { and, eq, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import { endOfTaipeiDay, startOfTaipeiDay } from "~/lib/time";

export type Window = "minute" | "hour" | "day";

/**
 * At most `max` hits per window. With `backoff`, the hits after the first `free` ones also wait
 * 2^(n − free + 1) seconds after the previous hit (n = hits so far), at most `maxDelaySeconds`.
 * With `weight`, one claim counts as that many hits (an amount, e.g. points adjusted; default 1): it has
 * room only while the count plus the weight stays within `max`.
 */
export type Limit = {
  key: string;
  window: Window;
  max: number;
  backoff?: { free: number; maxDelaySeconds: number };
  weight?: number;
};

const weightOf = (limit: Limit) => limit.weight ?? 1;

export type LimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Window boundaries: minutes and hours are fixed clock windows; a day is a Taipei calendar day. */
function windowBounds(window: Window, now: Date): { start: Date; end: Date } {
  if (window === "day") return { start: startOfTaipeiDay(now), end: endOfTaipeiDay(now) };
  const size = window === "hour" ? 3_600_000 : 60_000;
  const start = new Date(Math.floor(now.getTime() / size) * size);
  return { start, end: new Date(start.getTime() + size) };
}

const rowKey = (limit: Pick<Limit, "key" | "window">) => `${limit.key}:${limit.window}`;

function backoffDelaySeconds(count: number, backoff: NonNullable<Limit["backoff"]>): number {
  return Math.min(backoff.maxDelaySeconds, 2 ** (count - backoff.free + 1));
}

/** The SQL condition under which an existing counter row still has room for one more hit (of its weight). */
function roomFor(limit: Limit, now: Date): SQL {
  const weight = weightOf(limit);
  const below =
    weight === 1
      ? sql`${rateLimitCounter.count} < ${limit.max}::int`
      : sql`${rateLimitCounter.count} + ${weight}::int <= ${limit.max}::int`;
  if (!limit.backoff) return below;
  const { free, maxDelaySeconds } = limit.backoff;
  const waited = sql`${rateLimitCounter.lastHitAt} <= ${now.toISOString()}::timestamptz - make_interval(secs => least(${maxDelaySeconds}::float8, power(2, ${rateLimitCounter.count} - ${free}::int + 1)))`;
  return sql`(${below} and (${rateLimitCounter.count} < ${free}::int or ${waited}))`;
}

/** Thrown inside a transaction when a limit has no room: the transaction rolls back, nothing is counted. */
export class LimitRefusedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("limit reached");
    this.name = "LimitRefusedError";
  }
}

/**
 * Claims one hit of every limit in ONE statement: an upsert whose update only happens while the row
 * has room (`… on conflict do update … where count < max [and the back-off delay has passed]`),
 * returning the rows it claimed. PostgreSQL locks each row before it re-checks the condition, so
 * simultaneous requests on any number of app instances queue on the row and exactly `max` of them
 * are let through — no read-then-write. Rows are claimed in key order, so two claims never wait on
 * each other in a cycle.
 *
 * When one limit has no room this throws LimitRefusedError; the caller's transaction must roll back
 * so that the other limits of the set are not counted either (claimLimits does that).
 */
export async function claimLimitsIn(tx: Database, limits: readonly Limit[], now = new Date()): Promise<void> {
  if (limits.length === 0) return;
  const ordered = [...limits].sort((a, b) => (rowKey(a) < rowKey(b) ? -1 : rowKey(a) > rowKey(b) ? 1 : 0));
  if (new Set(ordered.map(rowKey)).size !== ordered.length) throw new Error("claimLimits: duplicate limit key");
  for (const limit of ordered) {
    if (!Number.isSafeInteger(weightOf(limit)) || weightOf(limit) < 1) throw new Error("claimLimits: bad weight");
  }
  // A hit heavier than the whole window (or any hit of a limit of 0) never fits: the insert of a new row
  // below would not check `max`, so it is refused here, before anything is written.
  const neverFits = ordered.filter((limit) => weightOf(limit) > limit.max);
  if (neverFits.length > 0) {
    countLimitRefusal(neverFits.map((limit) => limit.key));
    throw new LimitRefusedError(await retryAfter(tx, neverFits, now));
  }
  const values = ordered.map((limit) => {
    const { start, end } = windowBounds(limit.window, now);
    return { key: rowKey(limit), windowStart: start, count: weightOf(limit), lastHitAt: now, expiresAt: end };
  });
  const room = sql`case ${rateLimitCounter.key} ${sql.join(
    ordered.map((limit) => sql`when ${rowKey(limit)} then ${roomFor(limit, now)}`),
    sql` `,
  )} else false end`;
  const claimed = await tx
    .insert(rateLimitCounter)
    .values(values)
    .onConflictDoUpdate({
      target: [rateLimitCounter.key, rateLimitCounter.windowStart],
      // excluded.count is the row's own weight (1 for a plain hit).
      set: { count: sql`${rateLimitCounter.count} + excluded.count`, lastHitAt: now },
      setWhere: room,
    })
    .returning({ key: rateLimitCounter.key });
  if (claimed.length === ordered.length) return;
  const got = new Set(claimed.map((row) => row.key));
  countLimitRefusal(ordered.filter((limit) => !got.has(rowKey(limit))).map((limit) => limit.key));
  throw new LimitRefusedError(
    await retryAfter(
      tx,
      ordered.filter((limit) => !got.has(rowKey(limit))),
      now,
    ),
  );
}

/**
 * Counts one hit against each limit, all or nothing (see claimLimitsIn). If any limit has no room,
 * nothing is counted and the caller learns how long to wait.
 */
export async function claimLimits(db: Database, limits: readonly Limit[], now = new Date()): Promise<LimitResult> {
  try {
    if (limits.length === 1) await claimLimitsIn(db, limits, now);
    else await db.transaction((tx) => claimLimitsIn(tx, limits, now));
    return { allowed: true };
  } catch (error) {
    if (error instanceof LimitRefusedError) return { allowed: false, retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
}

/** How long until every refused limit has room again (for the message only; the decision is made). */
async function retryAfter(db: Database, refused: readonly Limit[], now: Date): Promise<number> {
  const rows = await db
    .select({
      key: rateLimitCounter.key,
      windowStart: rateLimitCounter.windowStart,
      count: rateLimitCounter.count,
      lastHitAt: rateLimitCounter.lastHitAt,
    })
    .from(rateLimitCounter)
    .where(inArray(rateLimitCounter.key, refused.map(rowKey)));
  let worst = 1;
  for (const limit of refused) {
    const { start, end } = windowBounds(limit.window, now);
    const row = rows.find((r) => r.key === rowKey(limit) && r.windowStart.getTime() === start.getTime());
    const count = row?.count ?? 0;
    let wait = 0;
    if (count + weightOf(limit) > limit.max) wait = (end.getTime() - now.getTime()) / 1000;
    else if (limit.backoff && row && count >= limit.backoff.free) {
      const until = row.lastHitAt.getTime() + backoffDelaySeconds(count, limit.backoff) * 1000;
      wait = (until - now.getTime()) / 1000;
    }
    worst = Math.max(worst, Math.ceil(wait));
  }
  return worst;
}

/** Clears the counters of a key (e.g. login failures after a successful login). Returns the rows removed. */
export async function resetLimit(db: Database, key: string): Promise<number> {
  const prefix = key.replace(/[%_\\]/g, "\\$&");
  const rows = await db
    .delete(rateLimitCounter)
    .where(sql`${rateLimitCounter.key} like ${`${prefix}:%`}`)
    .returning({ key: rateLimitCounter.key });
  return rows.length;
}

/**
 * The hits counted in the current window of a limit (0 without a row). Read in the transaction that has
 * just claimed it, it is exact: the claim holds the row's lock until the commit.
 */
export async function limitCount(
  db: Database,
  limit: Pick<Limit, "key" | "window">,
  now = new Date(),
): Promise<number> {
  const [row] = await db
    .select({ count: rateLimitCounter.count })
    .from(rateLimitCounter)
    .where(
      and(
        eq(rateLimitCounter.key, rowKey(limit)),
        eq(rateLimitCounter.windowStart, windowBounds(limit.window, now).start),
      ),
    );
  return row?.count ?? 0;
}

/**
 * Gives one claimed hit back (a try that turned out right and should not count against the limit, where
 * clearing the whole counter as a login does would give an attacker's misses back too).
 */
export async function releaseLimit(
  db: Database,
  limit: Pick<Limit, "key" | "window">,
  now = new Date(),
): Promise<void> {
  await db
    .update(rateLimitCounter)
    .set({ count: sql`${rateLimitCounter.count} - 1` })
    .where(
      and(
        eq(rateLimitCounter.key, rowKey(limit)),
        eq(rateLimitCounter.windowStart, windowBounds(limit.window, now).start),
        gt(rateLimitCounter.count, 0),
      ),
    );
}

/** Removes expired windows (run by a scheduled job). */
export async function purgeExpiredLimits(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .delete(rateLimitCounter)
    .where(and(lt(rateLimitCounter.expiresAt, now)))
    .returning();
  return rows.length;
}
