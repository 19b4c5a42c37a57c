import type { Database } from "@platform/db/client";
import { loyaltyAccount, member, purchase, type Tier, tierChange } from "@platform/db/schema";
import { and, eq, gte, lte, min } from "drizzle-orm";
import { recordOccasion } from "../member-messages/occasions.server";
import { type Account, inTransaction, lockAccount, type Tx } from "./ledger.server";
import {
  currentRules,
  type LoyaltyRules,
  oneYearAfter,
  spendWindowStart,
  TIER_ORDER,
  tierForSpend,
  tierThreshold,
} from "./rules.server";
import { tierSpendSql } from "./tier-amount.server";

/** The spend toward the tier (tierAmountSql: the money part, less refunds in proportion) in the 12 months up to `now`. */
export async function spend12Months(db: Database | Tx, memberId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ spend: tierSpendSql() })
    .from(purchase)
    .where(
      and(
        eq(purchase.memberId, memberId),
        gte(purchase.purchasedAt, spendWindowStart(now)),
        lte(purchase.purchasedAt, now),
      ),
    );
  return Number(row?.spend ?? 0);
}

/** Changes the tier of a locked account and records why. */
export async function changeTier(
  tx: Tx,
  account: Account,
  to: Tier,
  reason: string,
  spend: number,
  rules: LoyaltyRules,
  now: Date,
): Promise<void> {
  const downgrade = TIER_ORDER[to] < TIER_ORDER[account.tier];
  const [change] = await tx
    .insert(tierChange)
    .values({
      memberId: account.memberId,
      fromTier: account.tier,
      toTier: to,
      reason,
      spend12Months: spend,
      rulesId: rules.id || null,
      createdAt: now,
    })
    .returning({ id: tierChange.id });
  // An upgrade tells the member (issue 16: the automatic "tier up" message), once per change, with this commit.
  if (!downgrade && change) {
    await recordOccasion(
      tx,
      { memberId: account.memberId, occasion: `tier-up:${change.id}`, kind: "tier-up", data: { tier: to } },
      now,
    );
  }
  await tx
    .update(loyaltyAccount)
    .set({ tier: to, tierSince: now, updatedAt: now, ...(downgrade ? { lastDowngradeAt: now } : {}) })
    .where(eq(loyaltyAccount.memberId, account.memberId));
  // The member row carries the level too (the specification's `memberLevel`): the session, the site
  // header and the POS read it there, so it follows the loyalty account in the same transaction.
  await tx.update(member).set({ memberLevel: to, updatedAt: now }).where(eq(member.id, account.memberId));
  account.tier = to;
  account.tierSince = now;
  if (downgrade) account.lastDowngradeAt = now;
}

/** The tier an account should move to now, or null: upgrades at once, downgrades at most once a year. */
export function tierDecision(account: Pick<Account, "tier" | "lastDowngradeAt">, target: Tier, now: Date): Tier | null {
  if (TIER_ORDER[target] > TIER_ORDER[account.tier]) return target;
  if (TIER_ORDER[target] < TIER_ORDER[account.tier]) {
    if (account.lastDowngradeAt && oneYearAfter(account.lastDowngradeAt) > now) return null;
    return target;
  }
  return null;
}

/**
 * Nightly: re-evaluates every account against the rules in force (a rule change applies here).
 * Each change runs in its own transaction under the account lock, re-reading the spend.
 */
export async function evaluateTiers(db: Database, now = new Date()): Promise<{ upgraded: number; downgraded: number }> {
  const rules = await currentRules(db, now);
  const windowStart = spendWindowStart(now);
  // A join, not a correlated subquery: in a single-table select Drizzle leaves column names
  // unqualified, so `purchase.member_id = loyalty_account.member_id` inside a subquery rendered as
  // `"member_id" = "member_id"` and summed every member's purchases (found by the property test).
  const rows = await db
    .select({
      memberId: loyaltyAccount.memberId,
      tier: loyaltyAccount.tier,
      lastDowngradeAt: loyaltyAccount.lastDowngradeAt,
      spend: tierSpendSql(),
    })
    .from(loyaltyAccount)
    .leftJoin(
      purchase,
      and(
        eq(purchase.memberId, loyaltyAccount.memberId),
        gte(purchase.purchasedAt, windowStart),
        lte(purchase.purchasedAt, now),
      ),
    )
    .groupBy(loyaltyAccount.memberId, loyaltyAccount.tier, loyaltyAccount.lastDowngradeAt);
  let upgraded = 0;
  let downgraded = 0;
  for (const row of rows) {
    if (!tierDecision(row, tierForSpend(rules, Number(row.spend)), now)) continue;
    await inTransaction(db, async (tx) => {
      const account = await lockAccount(tx, row.memberId);
      const spend = await spend12Months(tx, row.memberId, now);
      const to = tierDecision(account, tierForSpend(rules, spend), now);
      if (!to) return;
      const up = TIER_ORDER[to] > TIER_ORDER[account.tier];
      await changeTier(tx, account, to, "nightly-evaluation", spend, rules, now);
      if (up) upgraded++;
      else downgraded++;
    });
  }
  return { upgraded, downgraded };
}

export type TierProgress = {
  tier: Tier;
  spend12Months: number;
  /** "Spend NT$amountNeeded more by `by` to reach `tier`"; null at the top tier. */
  next: { tier: Tier; threshold: number; amountNeeded: number; by: Date } | null;
};

/**
 * Progress to the next tier. `by` is when the oldest purchase still counted leaves the 12-month
 * window (after that the amount needed grows); with no purchases, 12 months from now.
 */
export async function tierProgress(db: Database, memberId: string, now = new Date()): Promise<TierProgress> {
  const rules = await currentRules(db, now);
  const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId));
  const tier = account?.tier ?? "basic";
  const spend = await spend12Months(db, memberId, now);
  const nextTier: Tier | null = tier === "basic" ? "silver" : tier === "silver" ? "gold" : null;
  if (!nextTier) return { tier, spend12Months: spend, next: null };
  const [oldest] = await db
    .select({ at: min(purchase.purchasedAt) })
    .from(purchase)
    .where(
      and(
        eq(purchase.memberId, memberId),
        gte(purchase.purchasedAt, spendWindowStart(now)),
        lte(purchase.purchasedAt, now),
      ),
    );
  const by = oneYearAfter(oldest?.at ?? now);
  const threshold = tierThreshold(rules, nextTier);
  return {
    tier,
    spend12Months: spend,
    next: { tier: nextTier, threshold, amountNeeded: Math.max(0, threshold - spend), by },
  };
}
