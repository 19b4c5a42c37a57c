import { type Database, rowsOf } from "@platform/db/client";
import { member } from "@platform/db/schema";
import type { CampaignAudience } from "@platform/db/schema/member-message-kinds";
import type { JobQueue } from "@platform/jobs/queue";
import { type SQL, sql } from "drizzle-orm";
import { taipeiIsoDate } from "~/lib/time";
import { RFM_GROUP_RULES } from "./rfm";

/**
 * The RFM summary (issue 38 part 6, ADR 056): `rfm.refresh`, nightly at 02:40 Taipei (pg-boss: one run per slot
 * across all instances), replaces `member_rfm` with the scores as of that Taipei day (`rfm_refresh`, the SQL
 * function of the "segments" migration: the 12 months of Taipei days before it, refunds netted out, quintiles by
 * rank). The segment builder's RFM filters read it through `rfmConditions`, beside the other campaign filters.
 */
export const RFM_QUEUE = "rfm.refresh";
export const RFM_CRON = "40 2 * * *";

/**
 * Recomputes every member's scores as of `now`'s Taipei day, atomically, then vacuums the table; returns the
 * members scored. Not inside a transaction (VACUUM cannot run in one).
 */
export async function refreshRfm(db: Database, now = new Date()): Promise<{ asOf: string; members: number }> {
  const asOf = taipeiIsoDate(now);
  const result = await db.execute(sql`select rfm_refresh(${asOf}::date) as members`);
  // Every row was replaced: the counts' index-only scans need the visibility map set again, and the planner the
  // new statistics, now rather than when autovacuum comes by (outside a transaction: `db` is the pool).
  await db.execute(sql`vacuum (analyze) member_rfm`);
  const [row] = rowsOf<{ members: number }>(result);
  return { asOf, members: Number(row?.members ?? 0) };
}

/**
 * The lock `rfm_refresh` holds exclusively while it replaces the table, and the member-state and tier triggers take
 * shared before they touch it (migration "rfm-count").
 */
const RFM_REPLACE_LOCK = 2026120657;

/**
 * Takes the triggers' shared lock ahead of them, for a transaction that rewrites a member's unique columns (phone,
 * e-mail) and fires the member-state trigger: taken after that row's exclusive lock, it waited for the replacement
 * while the replacement's insert (a foreign key's share lock on the member) waited for the row — a deadlock. Taken
 * first, the transaction waits for the replacement before it locks the member.
 */
export async function holdRfmSummary(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${RFM_REPLACE_LOCK}::bigint)`);
}

/** The day the summary was computed for (null before the first run). */
export async function rfmAsOf(db: Database): Promise<string | null> {
  const [row] = rowsOf<{ as_of: string | null }>(
    await db.execute(sql`select max(as_of)::text as as_of from member_rfm`),
  );
  return row?.as_of ?? null;
}

export async function registerRfmJob(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(RFM_QUEUE, { retryLimit: 3, retryDelay: 300, expireInSeconds: 30 * 60 });
  await jobs.work(RFM_QUEUE, async () => refreshRfm(db));
  await jobs.schedule(RFM_QUEUE, RFM_CRON);
}

type ScoreRange = readonly [number, number];
type RfmRanges = { r: ScoreRange; f: ScoreRange; m: ScoreRange };

/**
 * What the RFM filters ask of the three scores: a range each (1–5 when not asked), a score filter and a group's
 * rule intersected (an empty range names no one). Null when no RFM filter is set. Both count paths read this.
 */
function rfmRanges(a: CampaignAudience): RfmRanges | null {
  if (!a.rfmR && !a.rfmF && !a.rfmM && !a.rfmGroup) return null;
  const rule = a.rfmGroup ? RFM_GROUP_RULES[a.rfmGroup] : null;
  const range = (score: number | null | undefined, ruled?: ScoreRange): ScoreRange => {
    const [lo, hi] = ruled ?? [1, 5];
    return score ? [Math.max(lo, score), Math.min(hi, score)] : [lo, hi];
  };
  return { r: range(a.rfmR, rule?.r), f: range(a.rfmF, rule?.f), m: range(a.rfmM) };
}

/** The RFM filters as conditions on a `member_rfm` row named `x` (none when no RFM filter is set). */
function rfmOn(a: CampaignAudience): SQL[] {
  const ranges = rfmRanges(a);
  if (!ranges) return [];
  const on = (["r", "f", "m"] as const)
    .filter((k) => ranges[k][0] > 1 || ranges[k][1] < 5)
    .map((k) => sql`${sql.raw(`x.${k}`)} between ${ranges[k][0]} and ${ranges[k][1]}`);
  // Any score at all still asks for a row (a purchase in the window).
  return on.length > 0 ? on : [sql`true`];
}

/**
 * The RFM filters as one condition on `member` (none when no RFM filter is set): a semi-join into `member_rfm` by
 * its (r, f, member_id), (f, member_id) or (m, member_id) index, which PostgreSQL joins to the active members'
 * ids by `member_active_id_idx` (both index-only), not by a scan of `member`. A member without a row (no purchase
 * in the window) is never named by an RFM filter. Used when the audience has other filters than RFM and tiers;
 * otherwise `rfmCount` answers from `member_rfm` alone.
 */
export function rfmConditions(a: CampaignAudience): SQL | undefined {
  const on = rfmOn(a);
  if (on.length === 0) return undefined;
  return sql`${member.id} in (select x.member_id from member_rfm x where ${sql.join(on, sql` and `)})`;
}

/** The audience keys `member_rfm` answers alone: the RFM filters and the tier (kept on the row by trigger). */
const RFM_ALONE: ReadonlySet<string> = new Set(["rfmR", "rfmF", "rfmM", "rfmGroup", "tiers"]);
const unset = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

/**
 * Whether `member_rfm` alone answers this audience's count: it has an RFM filter, and every other filter is unset
 * except the tiers. Any other filter (set to anything, even one that names everyone) keeps the join path.
 */
export function rfmAlone(a: CampaignAudience): boolean {
  return rfmRanges(a) !== null && Object.entries(a).every(([key, value]) => RFM_ALONE.has(key) || unset(value));
}

/**
 * The count of an audience `rfmAlone` accepts, from `member_rfm` alone (ADR 056, "Later"): its rows carry the
 * member's `active` state and `tier`, written by the nightly job and kept by the triggers of migration "rfm-count"
 * in the transaction of each change, so this names exactly the members `audienceWhere` names for the same filters
 * (tested on both databases), by an index-only scan of `member_rfm_count_idx` (r, f, m, tier where active).
 */
export async function rfmCount(db: Database, a: CampaignAudience): Promise<number> {
  const ranges = rfmRanges(a);
  if (!ranges || !rfmAlone(a)) throw new Error("rfmCount: an audience with filters other than RFM and tiers");
  // Each score as its list of values (`in (…)`, an array key of the index): the scan descends once per (r, f, m)
  // combination asked and reads only matching entries, where a range on r followed by conditions on f and m would
  // read every entry of the r range (all of them when only F or M is asked).
  const on: SQL[] = [sql`x.active`];
  for (const k of ["r", "f", "m"] as const) {
    const [lo, hi] = ranges[k];
    if (lo > hi) return 0;
    const values = Array.from({ length: hi - lo + 1 }, (_, i) => sql.raw(String(lo + i)));
    on.push(sql`${sql.raw(`x.${k}`)} in (${sql.join(values, sql`, `)})`);
  }
  if (a.tiers?.length)
    on.push(
      sql`x.tier in (${sql.join(
        a.tiers.map((t) => sql`${t}`),
        sql`, `,
      )})`,
    );
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from member_rfm x where ${sql.join(on, sql` and `)}`),
  );
  return Number(row?.n ?? 0);
}
