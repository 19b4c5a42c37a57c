import { type Database, rowsOf } from "@platform/db/client";
import { campaign, campaignClick, memberMessage, purchase } from "@platform/db/schema";
import { type SQL, sql } from "drizzle-orm";

/**
 * What a campaign did (issue 38 part 5, ADR 055), computed when the console asks, from the deliveries, the clicks
 * and the purchases — nothing is written at a purchase.
 *
 * The attribution rule, decided here and only here (`attributedCampaign`): a campaign *touches* a member when its
 * message is delivered (`member_message.sent_at`) and when the member first clicks one of its links
 * (`campaign_click.clicked_at`). A purchase is attributed to the LATEST touch at or before it whose window still
 * holds it — the window of a touch on Taipei day D runs to the end of Taipei day D + N, N being the touching
 * campaign's `attribution_days` (default 7) — so a purchase belongs to at most one campaign. Ties (the same
 * instant) go to the larger campaign id, so the answer never depends on the plan.
 *
 * The uplift compares the conversion of the members the campaign was meant for (everyone of its audience not
 * held back, whatever became of their message) with that of its control group, over the same window: from the
 * moment the campaign started to the end of the Taipei day `attribution_days` later.
 */

/** Every touch is at most this old when it can still hold a purchase (30 days + the rest of its Taipei day). */
const TOUCH_HORIZON = sql`interval '32 days'`;

/**
 * The campaign a purchase (of `memberId` at `purchasedAt`, SQL expressions) is attributed to, or null: one
 * correlated subquery over the member's touches, on the two touch indexes.
 */
export function attributedCampaign(memberId: SQL, purchasedAt: SQL): SQL<string | null> {
  return sql<string | null>`(
    select t.campaign_id from (
      select m.campaign_id, m.sent_at as at from ${memberMessage} m
       where m.member_id = ${memberId} and m.campaign_id is not null and m.status = 'sent'
         and m.sent_at <= ${purchasedAt} and m.sent_at > ${purchasedAt} - ${TOUCH_HORIZON}
      union all
      select k.campaign_id, k.clicked_at from ${campaignClick} k
       where k.member_id = ${memberId}
         and k.clicked_at <= ${purchasedAt} and k.clicked_at > ${purchasedAt} - ${TOUCH_HORIZON}
    ) t join ${campaign} w on w.id = t.campaign_id
    where ${purchasedAt} < (((t.at at time zone 'Asia/Taipei')::date + w.attribution_days + 1)::timestamp
                             at time zone 'Asia/Taipei')
    order by t.at desc, t.campaign_id desc
    limit 1)`;
}

export type CampaignOutcome = {
  delivered: number;
  clicked: number;
  /** Purchases attributed to the campaign, their revenue (net of refunds, NT$) and the points that paid them. */
  purchases: number;
  revenue: number;
  pointsUsed: number;
  /** The treated audience and the control group: members, and how many of them bought within the window. */
  treated: { members: number; buyers: number };
  control: { members: number; buyers: number };
  attributionDays: number;
};

/** A campaign's results (null when it is not found or has not started). */
export async function campaignOutcome(db: Database, campaignId: string): Promise<CampaignOutcome | null> {
  const [c] = rowsOf<{ started_at: string | Date | null; attribution_days: number }>(
    await db.execute(sql`select started_at, attribution_days from ${campaign} where id = ${campaignId}::uuid`),
  );
  if (!c?.started_at) return null;
  const started = new Date(c.started_at).toISOString();
  const windowEnd = sql`(((${started}::timestamptz at time zone 'Asia/Taipei')::date + ${c.attribution_days}::int + 1)::timestamp
                         at time zone 'Asia/Taipei')`;
  // The purchases the campaign could hold: its members', from their delivery to the end of the window of
  // their last touch by it; of those, the ones whose last touch is this campaign's.
  const [attributed] = rowsOf<{ purchases: number; revenue: number; points: number }>(
    await db.execute(sql`
      with reached as (
        select m.member_id, m.sent_at as first_at, greatest(m.sent_at, k.clicked_at) as last_at
          from ${memberMessage} m left join ${campaignClick} k on k.message_id = m.id
         where m.campaign_id = ${campaignId}::uuid and m.status = 'sent' and m.sent_at is not null
      ), held as (
        select p.net_amount - p.refunded_amount as revenue, p.points_spent - p.points_returned as points,
               ${attributedCampaign(sql`p.member_id`, sql`p.purchased_at`)} as winner
          from reached r join ${purchase} p on p.member_id = r.member_id
         where p.purchased_at >= r.first_at
           and p.purchased_at < (((r.last_at at time zone 'Asia/Taipei')::date + ${c.attribution_days}::int + 1)::timestamp
                                 at time zone 'Asia/Taipei')
      )
      select count(*)::int as purchases, coalesce(sum(revenue), 0)::int as revenue, coalesce(sum(points), 0)::int as points
        from held where winner = ${campaignId}::uuid`),
  );
  const bought = sql`exists (select 1 from ${purchase} p where p.member_id = m.member_id
                       and p.purchased_at >= ${started}::timestamptz and p.purchased_at < ${windowEnd})`;
  const [groups] = rowsOf<{
    delivered: number;
    treated: number;
    control: number;
    treated_buyers: number;
    control_buyers: number;
    clicked: number;
  }>(
    await db.execute(sql`
      select count(*) filter (where m.status = 'sent')::int as delivered,
             count(*) filter (where m.status <> 'control')::int as treated,
             count(*) filter (where m.status = 'control')::int as control,
             count(*) filter (where m.status <> 'control' and ${bought})::int as treated_buyers,
             count(*) filter (where m.status = 'control' and ${bought})::int as control_buyers,
             (select count(*) from ${campaignClick} k where k.campaign_id = ${campaignId}::uuid)::int as clicked
        from ${memberMessage} m
       where m.campaign_id = ${campaignId}::uuid`),
  );
  return {
    delivered: Number(groups?.delivered ?? 0),
    clicked: Number(groups?.clicked ?? 0),
    purchases: Number(attributed?.purchases ?? 0),
    revenue: Number(attributed?.revenue ?? 0),
    pointsUsed: Number(attributed?.points ?? 0),
    treated: { members: Number(groups?.treated ?? 0), buyers: Number(groups?.treated_buyers ?? 0) },
    control: { members: Number(groups?.control ?? 0), buyers: Number(groups?.control_buyers ?? 0) },
    attributionDays: c.attribution_days,
  };
}

/** The console's figures: the results with each group's conversion and the uplift. */
export async function campaignOutcomeView(db: Database, campaignId: string) {
  const o = await campaignOutcome(db, campaignId);
  if (!o) return null;
  return { ...o, treatedRate: conversion(o.treated), controlRate: conversion(o.control), uplift: upliftPoints(o) };
}

/** A group's conversion (0–1), or null for an empty group. */
export function conversion(group: { members: number; buyers: number }): number | null {
  return group.members > 0 ? group.buyers / group.members : null;
}

/** The uplift in percentage points (treated − control), or null without both groups. */
export function upliftPoints(o: Pick<CampaignOutcome, "treated" | "control">): number | null {
  const treated = conversion(o.treated);
  const control = conversion(o.control);
  return treated === null || control === null ? null : (treated - control) * 100;
}
