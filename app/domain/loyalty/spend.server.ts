import type { Database } from "@platform/db/client";
import { loyaltyAccount } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { currentRules } from "./rules.server";
import { decideSpend, type SpendDecision, type SpendRules } from "./spend";

export type PointsQuote = SpendDecision & {
  balance: number;
  /** The NT$ value of maxPoints, and what is left to pay when they are all spent. */
  maxValue: number;
  maxToPay: number;
  rules: SpendRules;
};

/**
 * How many points a member may spend on a purchase of `netAmount` NT$ (and, when `pointsToSpend` is given, whether
 * those may): the balance and the rules in force now, through decideSpend, the function the booking decides with.
 * The booking decides again under the account's lock; a quote promises nothing.
 */
export async function pointsQuote(
  db: Database,
  memberId: string,
  netAmount: number,
  pointsToSpend: unknown = 0,
  now = new Date(),
): Promise<PointsQuote> {
  const [[account], rules] = await Promise.all([
    db.select({ balance: loyaltyAccount.balance }).from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId)),
    currentRules(db, now),
  ]);
  const balance = account?.balance ?? 0;
  const spendRules = { pointValueCents: rules.pointValueCents, maxSpendPercent: rules.maxSpendPercent };
  const decision = decideSpend(spendRules, balance, netAmount, pointsToSpend);
  const max = decideSpend(spendRules, balance, netAmount, decision.maxPoints);
  return { ...decision, balance, maxValue: max.value, maxToPay: max.toPay, rules: spendRules };
}
