import { type Database, rowsOf } from "@platform/db/client";
import { purchase, referral } from "@platform/db/schema";
import { sql } from "drizzle-orm";
import { currentRules, type LoyaltyRules } from "../loyalty/rules.server";
import { formatPermille, type RuleFields } from "../programme/rules-form";

/**
 * The referral programme's rules in the programme rules page (issue 38, ADR 053): they are columns of the rules
 * versions (history, effective dates, audit: scheduleRules), shown and previewed here.
 */

type ReferralRules = Pick<
  LoyaltyRules,
  "referralEnabled" | "referralPoints" | "referralMinAmount" | "referralMonthlyCap" | "referralWindowDays"
>;

/** A version's referral fields (with the trade accounts' multiplier, ADR 057) as the form writes them. */
export function referralValues(
  r: ReferralRules & Pick<LoyaltyRules, "tradeMultiplierPermille">,
): Record<string, string> {
  return {
    tradeMultiplier: formatPermille(r.tradeMultiplierPermille),
    referralEnabled: r.referralEnabled ? "on" : "",
    referralPoints: String(r.referralPoints),
    referralMinAmount: String(r.referralMinAmount),
    referralMonthlyCap: String(r.referralMonthlyCap),
    referralWindowDays: String(r.referralWindowDays),
  };
}

export type ReferralImpact = {
  /** Referrals decided (by a friend's purchase) in the last 30 days, and pending ones now. */
  decided: number;
  pending: number;
  /** Rewarded referrals and points (both sides) under the rules in force and under the proposed ones. */
  rewardedCurrent: number;
  rewardedProposed: number;
  pointsCurrent: number;
  pointsProposed: number;
};

/**
 * What a change of the referral rules would have done over the referrals decided in the last 30 days, with the
 * engine's definitions: a referral is rewarded when its qualifying purchase reaches the minimum and it is among the
 * first `cap` such of its referrer's Taipei month (in the order they were decided); each reward is `points` to both.
 */
export async function referralImpact(
  db: Database,
  proposed: Partial<RuleFields>,
  now = new Date(),
): Promise<ReferralImpact> {
  const inForce = await currentRules(db, now);
  const next: ReferralRules = {
    referralEnabled: proposed.referralEnabled ?? inForce.referralEnabled,
    referralPoints: proposed.referralPoints ?? inForce.referralPoints,
    referralMinAmount: proposed.referralMinAmount ?? inForce.referralMinAmount,
    referralMonthlyCap: proposed.referralMonthlyCap ?? inForce.referralMonthlyCap,
    referralWindowDays: proposed.referralWindowDays ?? inForce.referralWindowDays,
  };
  const since = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const [row] = rowsOf<{ decided: number; pending: number; rc: number; rp: number }>(
    await db.execute(sql`
    with d as (
      select x.referrer_id, to_char(x.decided_at at time zone 'Asia/Taipei', 'YYYY-MM') as m, x.decided_at, x.id,
             p.net_amount
        from ${referral} x join ${purchase} p on p.id = x.purchase_id
       where x.decided_at > ${since}::timestamptz and x.decided_at <= ${now.toISOString()}::timestamptz
    ), q as (
      select net_amount >= ${inForce.referralMinAmount}::int as qc, net_amount >= ${next.referralMinAmount}::int as qp,
             row_number() over (partition by referrer_id, m, net_amount >= ${inForce.referralMinAmount}::int
                                order by decided_at, id) as rc,
             row_number() over (partition by referrer_id, m, net_amount >= ${next.referralMinAmount}::int
                                order by decided_at, id) as rp
        from d
    )
    select count(*)::int as decided,
           (select count(*)::int from ${referral} where state = 'pending') as pending,
           (count(*) filter (where qc and rc <= ${inForce.referralMonthlyCap}::int))::int as rc,
           (count(*) filter (where qp and rp <= ${next.referralMonthlyCap}::int))::int as rp
      from q`),
  );
  const rewardedCurrent = inForce.referralEnabled ? Number(row?.rc ?? 0) : 0;
  const rewardedProposed = next.referralEnabled ? Number(row?.rp ?? 0) : 0;
  return {
    decided: Number(row?.decided ?? 0),
    pending: Number(row?.pending ?? 0),
    rewardedCurrent,
    rewardedProposed,
    pointsCurrent: rewardedCurrent * inForce.referralPoints * 2,
    pointsProposed: rewardedProposed * next.referralPoints * 2,
  };
}
