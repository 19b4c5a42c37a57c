import { formatLastValidDay, formatTaipei } from "~/lib/time";

/**
 * A coupon's status as people see it, decided here once for every surface (the member center, the console
 * member page, the counter) and for the engine's own refusals (cancelCoupon): "issued" in the database is
 * "unused" until its exclusive end (`expiresAt`, the first instant it no longer counts), "expired" from then on.
 * "revoked": a referral's coupon taken back by the refund of the qualifying purchase (ADR 053; the reason is
 * `coupon.revoked_reason`, told by couponRevokedReasonKey).
 */
export type CouponState = "unused" | "used" | "expired" | "cancelled" | "revoked";

export function couponState(c: { status: string; expiresAt: Date }, now: Date): CouponState {
  if (c.status === "used") return "used";
  if (c.status === "cancelled") return "cancelled";
  if (c.status === "revoked") return "revoked";
  return c.expiresAt <= now ? "expired" : "unused";
}

/**
 * Whether a coupon is a redemption: the member took it for points (the reward page, the counter). A referral's
 * points-free coupon (`referralId` set, ADR 053) is a gift, never a redemption. Decided here once: the per-member
 * limit (countsTowardRewardLimit) and the dashboard's 兌換張數 (`report_reward_day.issued`, counted by the trigger
 * `report_on_coupon` and `report_rebuild` as `referral_id is null`, ADR 058 "Later") count only redemptions.
 */
export function isRedemption(c: { referralId: string | null }): boolean {
  return c.referralId === null;
}

/**
 * Whether a coupon counts toward its reward's per-member limit: a redemption (isRedemption), unused, used or
 * expired; not a cancelled or revoked one: the limit caps redemptions, and a gift from a referral is none (ADR 053,
 * amended 2026-12-07). The redemption's own check (redeemReward) is the same rule in SQL:
 * `status not in COUPON_STATUSES_OUTSIDE_LIMIT and referral_id is null`.
 */
export function countsTowardRewardLimit(c: { status: string; referralId: string | null }): boolean {
  return isRedemption(c) && !(COUPON_STATUSES_OUTSIDE_LIMIT as readonly string[]).includes(c.status);
}
export const COUPON_STATUSES_OUTSIDE_LIMIT = ["cancelled", "revoked"] as const;

/** Why a coupon was revoked, as a message key's last part (the only reason so far: the referral's refund). */
export const COUPON_REVOKED_REASONS = ["referral_refund"] as const;
export type CouponRevokedReason = (typeof COUPON_REVOKED_REASONS)[number];

/**
 * The day a coupon's line names, in the locale: the last valid day of an unused coupon ("有效期限至 2027/01/05"
 * for an end at 2027-01-06 00:00 Taipei), the day it was used, or the day it expired.
 */
export function couponDay(
  c: { state: CouponState; expiresAt: Date | string; usedAt: Date | string | null },
  locale: string,
): string {
  if (c.state === "unused") return formatLastValidDay(c.expiresAt, locale);
  if (c.state === "used") return formatTaipei(c.usedAt ?? c.expiresAt, locale, "date");
  return formatTaipei(c.expiresAt, locale, "date");
}
