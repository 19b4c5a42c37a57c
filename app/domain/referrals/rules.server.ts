import { type Database, rowsOf } from "@platform/db/client";
import { purchase, referral, reward } from "@platform/db/schema";
import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { currentRules, type LoyaltyRules } from "../loyalty/rules.server";
import { formatPermille, type RuleFields } from "../programme/rules-form";
import type { ReferralRules } from "./referrals.server";

/**
 * The referral programme's rules in the programme rules page (issue 38, ADR 053): they are columns of the rules
 * versions (history, effective dates, audit: scheduleRules), shown and previewed here.
 */

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
    referralRewardKind: r.referralRewardKind,
    referralRewardId: r.referralRewardId ?? "",
  };
}

export type RewardChoice = { id: string; name: string };

/**
 * The catalogue rewards a referral's coupon may be (the rules form's choices): those still offered whose validity
 * has not ended, by name, and the one chosen now (`keep`) even when it is not (so a form over it shows it).
 */
export async function referralRewardChoices(db: Database, now: Date, keep?: string | null): Promise<RewardChoice[]> {
  const offered = and(eq(reward.active, true), or(isNull(reward.validUntil), gt(reward.validUntil, now)));
  return db
    .select({ id: reward.id, name: reward.name })
    .from(reward)
    .where(keep ? or(offered, eq(reward.id, keep)) : offered)
    .orderBy(asc(reward.name), asc(reward.id))
    .limit(500);
}

/** What each side gets under these rules, for the pages that tell the terms: points, or a coupon of a reward. */
export type ReferralRewardTerms = { kind: "points"; points: number } | { kind: "coupon"; name: string };

export async function referralRewardTerms(
  db: Database,
  rules: Pick<ReferralRules, "referralRewardKind" | "referralRewardId" | "referralPoints">,
): Promise<ReferralRewardTerms> {
  if (rules.referralRewardKind === "coupon" && rules.referralRewardId) {
    const [row] = await db.select({ name: reward.name }).from(reward).where(eq(reward.id, rules.referralRewardId));
    if (row) return { kind: "coupon", name: row.name };
  }
  return { kind: "points", points: rules.referralPoints };
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
  /** Coupons (both sides) when the reward is a coupon, and its catalogue name (null: the reward is points). */
  couponsCurrent: number;
  couponsProposed: number;
  rewardCurrent: string | null;
  rewardProposed: string | null;
};

/**
 * What a change of the referral rules would have done over the referrals decided in the last 30 days, with the
 * engine's definitions: a referral is rewarded when its qualifying purchase reaches the minimum and it is among the
 * first `cap` such of its referrer's Taipei month (in the order they were decided); each reward is `points` to both,
 * or one coupon to each when the rules choose a coupon (ADR 053).
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
    referralRewardKind: proposed.referralRewardKind ?? inForce.referralRewardKind,
    referralRewardId:
      proposed.referralRewardKind === undefined ? inForce.referralRewardId : (proposed.referralRewardId ?? null),
  };
  const [termsCurrent, termsProposed] = await Promise.all([
    referralRewardTerms(db, inForce),
    referralRewardTerms(db, next),
  ]);
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
    pointsCurrent: termsCurrent.kind === "points" ? rewardedCurrent * termsCurrent.points * 2 : 0,
    pointsProposed: termsProposed.kind === "points" ? rewardedProposed * termsProposed.points * 2 : 0,
    couponsCurrent: termsCurrent.kind === "coupon" ? rewardedCurrent * 2 : 0,
    couponsProposed: termsProposed.kind === "coupon" ? rewardedProposed * 2 : 0,
    rewardCurrent: termsCurrent.kind === "coupon" ? termsCurrent.name : null,
    rewardProposed: termsProposed.kind === "coupon" ? termsProposed.name : null,
  };
}
