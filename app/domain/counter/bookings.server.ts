import type { Database } from "@platform/db/client";
import type { RewardKind, Tier } from "@platform/db/schema";
import type { MessageKey } from "~/lib/i18n";
import type { AuditContext } from "../audit/audit.server";
import { couponState } from "../loyalty/coupon-state";
import { refundReversal } from "../loyalty/earn";
import { LoyaltyError } from "../loyalty/errors";
import { recordPurchase, refundPurchase } from "../loyalty/purchases.server";
import { useCoupon } from "../loyalty/rewards.server";
import { TIER_ORDER } from "../loyalty/rules.server";
import { refundReturn } from "../loyalty/spend";
import type { SpendTicket } from "../loyalty/spend-codes.server";
import { type CouponAtCounter, couponAtCounter, purchaseForRefund } from "./counter.server";

/**
 * What the counter's pages book and show (ADR 022): each booking goes through the loyalty engine and answers what
 * the confirmation shows; the engine's refusals (`LoyaltyError`) are the page's refusals.
 */

/** Who books, at which store, from where (the audit row is written in the booking's transaction). */
export type CounterClerk = { staffUserId: string; storeId: string; audit: AuditContext };

export type PurchaseBooked = {
  receiptNumber: string;
  netAmount: number;
  pointsEarned: number;
  /** Points that paid part of it, the NT$ they paid, and what was paid in money (issue 36). */
  pointsSpent: number;
  pointsSpentValue: number;
  amountPaid: number;
  balance: number;
  tier: Tier;
  tierUp: boolean;
  replayed: boolean;
};

export async function bookPurchase(
  db: Database,
  clerk: CounterClerk,
  input: {
    memberId: string;
    receiptNumber: string;
    netAmount: number;
    pointsToSpend?: number;
    /** The member's checked code when the card was not scanned (ADR 052). */
    spendTicket?: SpendTicket;
    tierBefore: Tier;
  },
  now: Date,
  windowDays: number,
): Promise<PurchaseBooked> {
  const result = await recordPurchase(
    db,
    {
      ...clerk,
      memberId: input.memberId,
      receiptNumber: input.receiptNumber,
      netAmount: input.netAmount,
      pointsToSpend: input.pointsToSpend ?? 0,
      spendTicket: input.spendTicket,
      purchasedAt: now,
    },
    now,
    { windowDays },
  );
  return {
    receiptNumber: result.purchase.receiptNumber,
    netAmount: result.purchase.netAmount,
    pointsEarned: result.pointsEarned,
    pointsSpent: result.pointsSpent,
    pointsSpentValue: result.pointsSpentValue,
    amountPaid: result.purchase.netAmount - result.pointsSpentValue,
    balance: result.balance,
    tier: result.tier,
    tierUp: TIER_ORDER[result.tier] > TIER_ORDER[input.tierBefore],
    replayed: result.replayed,
  };
}

/** A purchase of this store found by its receipt number, as the refund page shows it. */
export async function refundable(db: Database, storeId: string, receiptNumber: string) {
  const { purchase, memberNumber, balance } = await purchaseForRefund(db, storeId, receiptNumber);
  return {
    id: purchase.id,
    receiptNumber: purchase.receiptNumber,
    purchasedAt: purchase.purchasedAt.toISOString(),
    memberNumber,
    netAmount: purchase.netAmount,
    refundedAmount: purchase.refundedAmount,
    pointsEarned: purchase.pointsEarned,
    pointsReversed: purchase.pointsReversed,
    pointsSpent: purchase.pointsSpent,
    pointsReturned: purchase.pointsReturned,
    refundable: purchase.netAmount - purchase.refundedAmount,
    balance,
  };
}

export type Refundable = Awaited<ReturnType<typeof refundable>>;

/** The points a refund of `amount` reverses (the engine's own refundReversal), before it is booked. */
export function refundPreview(found: Refundable, amount: number) {
  if (amount > found.refundable) throw new LoyaltyError("refund_exceeds_purchase", "More than is left to refund");
  const { reverse } = refundReversal(found, amount);
  const { give } = refundReturn(found, amount);
  return { amount, reverse, give, balanceAfter: found.balance + give - reverse };
}

export type RefundBooked = {
  receiptNumber: string;
  amount: number;
  pointsReversed: number;
  /** Spent points given back (issue 36). */
  pointsReturned: number;
  balance: number;
  refundedAmount: number;
  replayed: boolean;
};

export async function bookRefund(
  db: Database,
  clerk: CounterClerk,
  input: { purchaseId: string; amount: number; idempotencyKey: string },
  now: Date,
): Promise<RefundBooked> {
  const result = await refundPurchase(db, { ...input, staffUserId: clerk.staffUserId, audit: clerk.audit }, now);
  return {
    receiptNumber: result.purchase.receiptNumber,
    amount: result.refund.amount,
    pointsReversed: result.pointsReversed,
    pointsReturned: result.pointsReturned,
    balance: result.balance,
    refundedAmount: result.purchase.refundedAmount,
    replayed: result.replayed,
  };
}

/** A coupon as the counter shows it before using it. */
export type ShownCoupon = {
  code: string;
  rewardName: string;
  kind: RewardKind;
  amountOff: number | null;
  expiresAt: string;
  memberId: string;
  memberNumber: string;
  maskedName: string;
  /** Why it cannot be used here now (null: it can). */
  blocked: MessageKey | null;
};

const BLOCKED: Record<string, MessageKey | undefined> = {
  used: "console.counter.error.couponUsed",
  cancelled: "console.counter.error.couponCancelled",
  revoked: "console.counter.error.couponRevoked",
  expired: "console.counter.error.couponExpired",
};

export function shownCoupon(found: CouponAtCounter, storeId: string, now: Date): ShownCoupon {
  const otherStore = found.storeIds && !found.storeIds.includes(storeId);
  return {
    code: found.coupon.code,
    rewardName: found.rewardName,
    kind: found.kind,
    amountOff: found.amountOff,
    expiresAt: found.coupon.expiresAt.toISOString(),
    memberId: found.member.id,
    memberNumber: found.member.memberNumber,
    maskedName: found.member.maskedName,
    blocked: BLOCKED[couponState(found.coupon, now)] ?? (otherStore ? "console.counter.error.couponWrongStore" : null),
  };
}

/** A scanned or typed coupon code; an unknown one is the engine's `coupon_not_found`. */
export async function couponToUse(db: Database, code: string): Promise<CouponAtCounter> {
  const found = await couponAtCounter(db, code);
  if (!found) throw new LoyaltyError("coupon_not_found", "Unknown coupon");
  return found;
}

export type CouponUsed = { code: string; rewardName: string; memberNumber: string; replayed: boolean };

export async function bookCouponUse(
  db: Database,
  clerk: CounterClerk,
  found: CouponAtCounter,
  now: Date,
): Promise<CouponUsed> {
  await useCoupon(db, { ...clerk, code: found.coupon.code }, now);
  return {
    code: found.coupon.code,
    rewardName: found.rewardName,
    memberNumber: found.member.memberNumber,
    replayed: false,
  };
}
