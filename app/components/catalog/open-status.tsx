import type { StatusView } from "~/domain/stores/cards";
import { cn } from "~/lib/cn";
import type { Translate } from "~/lib/i18n";

/** "Open now · until 21:30" / "Closed · opens tomorrow at 10:30", as text and a dot (never colour alone). */
export function statusText(status: StatusView, t: Translate): string {
  if (status.open && status.closesAt) return t("catalog.status.closesAt", { time: status.closesAt });
  const next = status.opensNext;
  if (!next) return "";
  if (next.isToday) return t("catalog.status.opensToday", { time: next.time });
  if (next.isTomorrow) return t("catalog.status.opensTomorrow", { time: next.time });
  return t("catalog.status.opensOn", {
    weekday: t(`catalog.weekday.${next.weekday}` as Parameters<Translate>[0]),
    time: next.time,
  });
}

export function OpenBadge({ status, t, className }: { status: StatusView; t: Translate; className?: string }) {
  const detail = statusText(status, t);
  return (
    <p className={cn("flex flex-wrap items-center gap-x-2 text-sm", className)} data-testid="open-status">
      <span
        className={cn(
          "inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 font-medium",
          status.open ? "bg-success-50 text-success-700" : "bg-stone/70 text-ink",
        )}
        data-open={status.open}
      >
        <span aria-hidden className={cn("size-2 rounded-full", status.open ? "bg-success-700" : "bg-muted")} />
        {status.open ? t("catalog.status.open") : t("catalog.status.closed")}
      </span>
      {detail ? <span className="text-muted">{detail}</span> : null}
    </p>
  );
}

export function todayHoursText(status: StatusView, t: Translate): string {
  return status.todayHours.length > 0
    ? t("catalog.status.todayHours", { hours: status.todayHours.join(", ") })
    : t("catalog.status.closedToday");
}
