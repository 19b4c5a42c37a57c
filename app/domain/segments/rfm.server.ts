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

/** Recomputes every member's scores as of `now`'s Taipei day, atomically; returns the members scored. */
export async function refreshRfm(db: Database, now = new Date()): Promise<{ asOf: string; members: number }> {
  const asOf = taipeiIsoDate(now);
  const result = await db.execute(sql`select rfm_refresh(${asOf}::date) as members`);
  const [row] = rowsOf<{ members: number }>(result);
  return { asOf, members: Number(row?.members ?? 0) };
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

/** The RFM filters as conditions on a `member_rfm` row named `x` (none when no RFM filter is set). */
function rfmOn(a: CampaignAudience): SQL[] {
  const on: SQL[] = [];
  if (a.rfmR) on.push(sql`x.r = ${a.rfmR}`);
  if (a.rfmF) on.push(sql`x.f = ${a.rfmF}`);
  if (a.rfmM) on.push(sql`x.m = ${a.rfmM}`);
  if (a.rfmGroup) {
    const rule = RFM_GROUP_RULES[a.rfmGroup];
    on.push(sql`x.r between ${rule.r[0]} and ${rule.r[1]} and x.f between ${rule.f[0]} and ${rule.f[1]}`);
  }
  return on;
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
  return rfmOn(a).length > 0 && Object.entries(a).every(([key, value]) => RFM_ALONE.has(key) || unset(value));
}

/**
 * The count of an audience `rfmAlone` accepts, from `member_rfm` alone (ADR 056, "Later"): its rows carry the
 * member's `active` state and `tier`, written by the nightly job and kept by the triggers of migration "rfm-count"
 * in the transaction of each change, so this names exactly the members `audienceWhere` names for the same filters
 * (tested on both databases), by an index-only scan of `member_rfm_count_idx` (r, f, m, tier where active).
 */
export async function rfmCount(db: Database, a: CampaignAudience): Promise<number> {
  if (!rfmAlone(a)) throw new Error("rfmCount: an audience with filters other than RFM and tiers");
  const on = [sql`x.active`, ...rfmOn(a)];
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
