import type { RewardKind } from "@platform/db/schema/loyalty";
import type { ShownCoupon } from "~/domain/counter/bookings.server";
import { formatNumber, useLocale } from "~/lib/i18n";
import { formatLastValidDay } from "~/lib/time";
import { useConsoleT } from "../use-console-t";
import { Facts } from "./ui";

/** "NT$100 折抵" or "贈品": what a coupon gives. */
export function useCouponReward() {
  const t = useConsoleT();
  const locale = useLocale();
  return (c: { kind: RewardKind; amountOff: number | null }) =>
    c.kind === "amount-off" && c.amountOff !== null
      ? t("console.counter.coupon.amountOff", { amount: formatNumber(c.amountOff, locale) })
      : t("console.counter.coupon.gift");
}

/** A coupon found at the counter (ADR 022): the reward, whose it is, until when. */
export function CouponDetails({ coupon }: { coupon: ShownCoupon }) {
  const t = useConsoleT();
  const locale = useLocale();
  const reward = useCouponReward();
  return (
    <>
      <p className="text-2xl font-semibold">{coupon.rewardName}</p>
      <Facts
        className="sm:grid-cols-3"
        items={[
          { label: t("console.counter.coupon.reward"), value: reward(coupon) },
          { label: t("console.counter.coupon.member"), value: `${coupon.maskedName} · ${coupon.memberNumber}` },
          { label: t("console.counter.coupon.expires"), value: formatLastValidDay(coupon.expiresAt, locale) },
        ]}
      />
    </>
  );
}
