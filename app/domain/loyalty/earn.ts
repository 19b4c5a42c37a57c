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
  /** A trade account's multiplier on its own purchases (ADR 057), ‰; 1000 (or absent) = off. */
  tradeMultiplierPermille?: number;
};

export function multiplierPermille(rules: EarnRules, tier: Tier): number {
  return tier === "gold"
    ? rules.goldMultiplierPermille
    : tier === "silver"
      ? rules.silverMultiplierPermille
      : rules.basicMultiplierPermille;
}

/**
 * 1 point per NT$100 of net amount (rounded down), times the tier multiplier, times the trade multiplier for a trade
 * account (ADR 057): the two multiply (gold 1.5 × trade 1.5 = 2.25) and the product is rounded down once, so a
 * non-trade member (or a trade multiplier of 1000) earns exactly what the tier alone gives.
 */
export function pointsForAmount(rules: EarnRules, tier: Tier, netAmount: number, trade = false): number {
  const base = Math.floor(netAmount / rules.amountPerPoint);
  const tierPermille = multiplierPermille(rules, tier);
  if (!trade) return Math.floor((base * tierPermille) / 1000);
  return Math.floor((base * tierPermille * tradeMultiplierPermille(rules)) / 1_000_000);
}

/** The trade multiplier in force, within its bounds (1000–3000 ‰; the column's check keeps it there too). */
export function tradeMultiplierPermille(rules: Pick<EarnRules, "tradeMultiplierPermille">): number {
  return Math.min(3000, Math.max(1000, rules.tradeMultiplierPermille ?? 1000));
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
