import { ChevronRight } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import { formatNumber, type MessageKey, type Translate } from "~/lib/i18n";
import { links } from "~/lib/links";
import type { MemberCenterData } from "./view-types";

/** The balance with what expires next, and the tier with the way to the next one. */
export function PointsAndTier({ d, t, locale }: { d: MemberCenterData; t: Translate; locale: string }) {
  const tierName = (tier: string) => t(`member.level.${tier}` as MessageKey);
  const progress = d.next ? Math.min(1, d.spend12Months / Math.max(1, d.next.threshold)) : 1;
  return (
    <div className="rounded-[1.75rem] border border-line bg-white p-5 shadow-sm sm:p-6">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 className="text-sm text-muted">{t("member.center.points.balance")}</h2>
          <p className="mt-1 flex items-baseline gap-2">
            <span className="font-serif text-4xl font-semibold tabular-nums text-ink" data-testid="points-balance">
              {formatNumber(d.balance, locale)}
            </span>
            <span className="text-muted">{t("member.center.points.unit")}</span>
          </p>
        </div>
        <Link
          to={links.memberPoints()}
          className="inline-flex min-h-11 items-center gap-1 rounded-full px-3 text-sm font-semibold text-brand-700 hover:bg-sand focus-visible:outline-2 focus-visible:outline-brand-700"
        >
          {t("member.center.points.history")}
          <ChevronRight className="size-4" />
        </Link>
      </div>
      <p
        className={cn(
          "mt-2 rounded-xl px-3 py-2 text-sm",
          d.expiring ? "bg-brand-50 text-brand-900" : "bg-sand text-muted",
        )}
        data-testid="points-expiring"
      >
        {d.expiring
          ? t("member.center.points.expiring", {
              points: formatNumber(d.expiring.points, locale),
              date: d.expiring.date,
            })
          : t("member.center.points.noneExpiring")}
      </p>

      <div className="mt-6 border-t border-line pt-5">
        <div className="flex items-baseline justify-between gap-3">
          <h2 className="text-sm text-muted">{t("member.center.tier.title")}</h2>
          <p className="text-sm text-muted" data-testid="tier-spend">
            {t("member.center.tier.spend", { amount: formatNumber(d.spend12Months, locale) })}
          </p>
        </div>
        <div className="mt-3 flex items-center gap-3 text-sm font-semibold">
          <span>{tierName(d.tier)}</span>
          <div
            role="progressbar"
            aria-label={t("member.center.tier.progress")}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress * 100)}
            className="h-2.5 flex-1 overflow-hidden rounded-full bg-sand"
          >
            <div
              className="h-full rounded-full bg-gradient-to-r from-brand-500 to-brand-800"
              style={{ width: `${Math.max(progress * 100, d.spend12Months > 0 ? 3 : 0)}%` }}
            />
          </div>
          <span className={d.next ? "text-muted" : ""}>{d.next ? tierName(d.next.tier) : "★"}</span>
        </div>
        <p className="mt-3 text-sm text-ink" data-testid="tier-next">
          {!d.next
            ? t("member.center.tier.top")
            : d.next.amountNeeded > 0
              ? t("member.center.tier.next", {
                  amount: formatNumber(d.next.amountNeeded, locale),
                  date: d.next.date,
                  tier: tierName(d.next.tier),
                })
              : t("member.center.tier.reached", { tier: tierName(d.next.tier) })}
        </p>
      </div>
    </div>
  );
}
