import { useEffect, useRef } from "react";
import { DetailSection } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { couponDay } from "~/domain/loyalty/coupon-state";
import type { ConsoleMemberView } from "~/domain/members/console.server";
import { cn } from "~/lib/cn";
import { useLocale } from "~/lib/i18n";
import { IntentForm } from "./intent-form";

type Coupon = ConsoleMemberView["coupons"][number];

/**
 * The member's coupons, each with its status and day as the member center words them; an unused one can be
 * cancelled (its points return), after a question that takes the focus (`?cancel=<id>`).
 */
export function MemberCoupons({
  member: m,
  confirmCancel,
}: {
  member: ConsoleMemberView;
  confirmCancel: string | null;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const n = (v: number) => v.toLocaleString("en-US");
  const confirmRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (confirmCancel) confirmRef.current?.focus();
  }, [confirmCancel]);
  const day = (c: Coupon) => {
    const date = couponDay(c, locale);
    if (c.state === "unused") return t("console.members.coupon.validUntil", { date });
    return c.state === "used"
      ? t("console.members.coupon.usedOn", { date })
      : t("console.members.coupon.expiredOn", { date });
  };
  const cancel = (c: Coupon) =>
    confirmCancel === c.id ? (
      <section
        ref={confirmRef}
        tabIndex={-1}
        aria-labelledby="cancel-coupon-question"
        className="w-full rounded-xl border border-danger-700/30 bg-danger-700/5 p-3"
        data-testid="cancel-coupon-confirm"
      >
        <p id="cancel-coupon-question" className="font-medium">
          {c.referralId
            ? t("console.members.cancelReferralCouponAsk", { name: c.name })
            : t("console.members.cancelCouponAsk", { name: c.name, points: n(c.pointsCost) })}
        </p>
        <IntentForm
          intent="cancel-coupon"
          hidden={{ couponId: c.id, confirmed: "1" }}
          className="mt-3 flex flex-wrap items-center gap-3"
          size="sm"
          variant="danger"
          label={
            c.referralId
              ? t("console.members.cancelReferralCouponConfirm")
              : t("console.members.cancelCouponConfirm", { points: n(c.pointsCost) })
          }
          after={
            <Link to={`/admin/members/${m.id}`} className="text-sm underline underline-offset-4">
              {t("console.members.cancelCouponKeep")}
            </Link>
          }
        />
      </section>
    ) : (
      <Link
        to={`/admin/members/${m.id}?cancel=${c.id}`}
        preventScrollReset
        aria-label={t("console.members.cancelCouponFor", { name: c.name })}
        className={buttonVariants({ variant: "secondary", size: "sm" })}
      >
        {t("console.members.cancelCoupon")}
      </Link>
    );
  return (
    <DetailSection id="coupons-title" title={t("console.members.coupons")} className="mt-6">
      {m.coupons.length === 0 ? (
        <p className="text-sm text-muted">{t("console.members.nothingYet")}</p>
      ) : (
        <ul className="divide-y divide-line" data-testid="member-coupons">
          {m.coupons.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
              <span>
                <span className="font-medium">{c.name}</span>
                <span className="ml-2 text-muted" data-testid="coupon-state">
                  <span
                    className={cn(
                      "mr-2 inline-block rounded-full px-2 py-0.5 text-xs font-medium",
                      c.state === "unused" ? "bg-success-50 text-success-700" : "bg-sand text-ink",
                    )}
                  >
                    {t(`console.members.coupon.${c.state}`)}
                  </span>
                  {c.referralId
                    ? t("console.members.coupon.fromReferral")
                    : `${n(c.pointsCost)} ${t("console.members.pointsUnit")}`}
                  {c.state === "cancelled"
                    ? null
                    : c.state === "revoked"
                      ? ` · ${t("console.members.coupon.revokedReferralRefund")}`
                      : ` · ${day(c)}`}
                </span>
              </span>
              {c.state === "unused" && m.canManage && !m.deleted ? cancel(c) : null}
            </li>
          ))}
        </ul>
      )}
    </DetailSection>
  );
}
