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

/**
 * The RFM filters as one condition on `member` (none when no RFM filter is set): a semi-join into `member_rfm` by
 * its (r, f, member_id), (f, member_id) or (m, member_id) index, which PostgreSQL joins to the active members'
 * ids by `member_active_id_idx` (both index-only), not by a scan of `member`. A member without a row (no purchase
 * in the window) is never named by an RFM filter.
 */
export function rfmConditions(a: CampaignAudience): SQL | undefined {
  const on: SQL[] = [];
  if (a.rfmR) on.push(sql`x.r = ${a.rfmR}`);
  if (a.rfmF) on.push(sql`x.f = ${a.rfmF}`);
  if (a.rfmM) on.push(sql`x.m = ${a.rfmM}`);
  if (a.rfmGroup) {
    const rule = RFM_GROUP_RULES[a.rfmGroup];
    on.push(sql`x.r between ${rule.r[0]} and ${rule.r[1]} and x.f between ${rule.f[0]} and ${rule.f[1]}`);
  }
  if (on.length === 0) return undefined;
  return sql`${member.id} in (select x.member_id from member_rfm x where ${sql.join(on, sql` and `)})`;
}
