/**
 * Paying with points (issue 36, ADR 040), pure: no database, so the counter's screen, the POS API's quote and the
 * booking itself decide with the very same function. Points are whole numbers; money is whole NT$.
 */

/** The parts of the rules paying with points reads: what a point is worth and the share of a purchase it may pay. */
export type SpendRules = {
  /** Hundredths of NT$ one point pays (100 = NT$1). */
  pointValueCents: number;
  /** At most this percentage of the net amount may be paid with points (0–100). */
  maxSpendPercent: number;
};

/** The most points a purchase would ever take (a till sending more is refused before any arithmetic). */
export const MAX_POINTS_TO_SPEND = 100_000_000;

export type SpendProblem = "invalid_points" | "points_exceed_balance" | "points_exceed_share";

export type SpendDecision = {
  /** The most points this member may spend on this amount: min(balance, what the share allows), never below 0. */
  maxPoints: number;
  /** What the share alone allows (floor(share × net / point value)). */
  maxByShare: number;
  /** The points asked for (0 when none), their NT$ value and what is left to pay in money (which earns points). */
  points: number;
  value: number;
  toPay: number;
  /** Why the points asked for cannot be spent; null when they can. */
  problem: SpendProblem | null;
};

/** The NT$ `points` pay (rounded down: a point worth NT$0.5 pays nothing alone). */
export function pointsValue(rules: SpendRules, points: number): number {
  return Math.floor((points * rules.pointValueCents) / 100);
}

/**
 * The one decision on spending points on a purchase of `netAmount` NT$ with `balance` points: at most the balance,
 * and at most maxSpendPercent % of the net amount in value (points × value ≤ share × net, in whole hundredths, so
 * no floating point). `pointsToSpend` absent means none; not a whole number ≥ 0 is invalid_points.
 */
export function decideSpend(
  rules: SpendRules,
  balance: number,
  netAmount: number,
  pointsToSpend: unknown = 0,
): SpendDecision {
  const maxByShare =
    rules.pointValueCents > 0
      ? Math.floor((Math.max(0, rules.maxSpendPercent) * netAmount) / rules.pointValueCents)
      : 0;
  const maxPoints = Math.max(0, Math.min(balance, maxByShare));
  const valid =
    typeof pointsToSpend === "number" &&
    Number.isSafeInteger(pointsToSpend) &&
    pointsToSpend >= 0 &&
    pointsToSpend <= MAX_POINTS_TO_SPEND;
  const points = valid ? pointsToSpend : 0;
  const value = pointsValue(rules, points);
  const problem: SpendProblem | null = !valid
    ? "invalid_points"
    : points > maxByShare
      ? "points_exceed_share"
      : points > 0 && points > balance
        ? "points_exceed_balance"
        : null;
  return { maxPoints, maxByShare, points, value, toPay: netAmount - value, problem };
}

/** What a purchase has spent and got back so far (for a refund's share). */
export type ReturnablePurchase = {
  netAmount: number;
  refundedAmount: number;
  pointsSpent: number;
  pointsReturned: number;
};

/**
 * The spent points a refund of `amount` gives back: in proportion to the refunded share of the purchase, by the
 * total refunded so far (so repeated partial refunds add up exactly, and refunding everything returns exactly what
 * was spent). `target` is the purchase's points returned in all after it.
 */
export function refundReturn(found: ReturnablePurchase, amount: number): { give: number; target: number } {
  const refunded = found.refundedAmount + amount;
  const target = found.netAmount > 0 ? Math.floor((found.pointsSpent * refunded) / found.netAmount) : 0;
  return { give: Math.max(0, target - found.pointsReturned), target };
}
