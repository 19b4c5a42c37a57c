import { formatLastValidDay, formatTaipei } from "~/lib/time";

/**
 * A coupon's status as people see it, decided here once for every surface (the member center, the console
 * member page, the counter) and for the engine's own refusals (cancelCoupon): "issued" in the database is
 * "unused" until its exclusive end (`expiresAt`, the first instant it no longer counts), "expired" from then on.
 */
export type CouponState = "unused" | "used" | "expired" | "cancelled";

export function couponState(c: { status: string; expiresAt: Date }, now: Date): CouponState {
  if (c.status === "used") return "used";
  if (c.status === "cancelled") return "cancelled";
  return c.expiresAt <= now ? "expired" : "unused";
}

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
