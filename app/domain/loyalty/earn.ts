import type { Tier } from "@platform/db/schema/loyalty";

/**
 * The loyalty engine's arithmetic, pure: no database, so the counter's screen previews a purchase's
 * points and a refund's reversal with the very functions the engine books with (rules.server.ts and
 * purchases.server.ts use these; nothing else computes points).
 */

/** The parts of the rules the earn arithmetic reads. */
export type EarnRules = {
  amountPerPoint: number;
  basicMultiplierPermille: number;
  silverMultiplierPermille: number;
  goldMultiplierPermille: number;
};

export function multiplierPermille(rules: EarnRules, tier: Tier): number {
  return tier === "gold"
    ? rules.goldMultiplierPermille
    : tier === "silver"
      ? rules.silverMultiplierPermille
      : rules.basicMultiplierPermille;
}

/** 1 point per NT$100 of net amount (rounded down), times the tier multiplier (rounded down). */
export function pointsForAmount(rules: EarnRules, tier: Tier, netAmount: number): number {
  const base = Math.floor(netAmount / rules.amountPerPoint);
  return Math.floor((base * multiplierPermille(rules, tier)) / 1000);
}

/** What a purchase has earned and given back so far. */
export type RefundablePurchase = {
  netAmount: number;
  refundedAmount: number;
  pointsEarned: number;
  pointsReversed: number;
};

/**
 * The points a refund of `amount` reverses: in proportion to the refunded share of the purchase,
 * rounded so that refunding everything reverses exactly what was earned. `target` is the purchase's
 * points reversed in all after it.
 */
export function refundReversal(found: RefundablePurchase, amount: number): { reverse: number; target: number } {
  const refunded = found.refundedAmount + amount;
  const target = Math.floor((found.pointsEarned * refunded) / found.netAmount);
  return { reverse: target - found.pointsReversed, target };
}
