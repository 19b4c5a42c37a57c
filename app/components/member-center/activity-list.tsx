import { cn } from "~/lib/cn";
import { formatNumber, type Translate } from "~/lib/i18n";
import type { ActivityView } from "./view-types";

/** The newest points entries: purchases with their store, everything else by its kind. */
export function ActivityList({ activity, t, locale }: { activity: ActivityView[]; t: Translate; locale: string }) {
  if (activity.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
        {t("member.center.activity.empty")}
      </p>
    );
  }
  return (
    <ul className="divide-y divide-line rounded-2xl border border-line bg-white" data-testid="activity">
      {activity.map((a) => (
        <li key={a.id} className="flex items-center justify-between gap-4 px-4 py-3">
          <div className="min-w-0">
            <p className="font-medium text-ink">
              {a.purchase
                ? t("member.center.activity.purchase", { amount: formatNumber(a.purchase.netAmount, locale) })
                : t(`member.center.activity.kind.${a.kind}`)}
            </p>
            <p className="truncate text-sm text-muted">
              <time dateTime={a.at}>{a.date}</time>
              {a.purchase?.store ? ` · ${a.purchase.store}` : ""}
              {a.purchase && !a.purchase.store ? ` · ${t("member.center.activity.kind.earn-purchase")}` : ""}
            </p>
          </div>
          <p
            className={cn("shrink-0 font-semibold tabular-nums", a.amount > 0 ? "text-success-700" : "text-danger-800")}
          >
            {t("member.center.activity.points", {
              amount: `${a.amount > 0 ? "+" : "−"}${formatNumber(Math.abs(a.amount), locale)}`,
            })}
          </p>
        </li>
      ))}
    </ul>
  );
}
