import { type ReactNode, useId } from "react";
import { cn } from "~/lib/cn";
import { formatNumber, useLocale } from "~/lib/i18n";
import { useConsoleT } from "../use-console-t";

/** The counter's short lists (ADR 022): today's bookings, a member's visits and coupons. */

/** A card with a title and its list, or a line saying it is empty. */
export function ListPanel({
  title,
  empty,
  small,
  testId,
  listTestId,
  className,
  listClassName = "mt-2 divide-y divide-line",
  children,
}: {
  title: string;
  empty: string;
  /** A list among others (a day's column): a smaller card and heading. */
  small?: boolean;
  testId?: string;
  listTestId?: string;
  className?: string;
  listClassName?: string;
  children: ReactNode[];
}) {
  const id = useId();
  const Heading = small ? "h3" : "h2";
  return (
    <section
      aria-labelledby={id}
      className={cn("min-w-0 rounded-3xl border border-line bg-white", small ? "p-4" : "p-5", className)}
      data-testid={testId}
    >
      <Heading id={id} className={small ? "font-semibold" : "text-lg font-semibold"}>
        {title}
      </Heading>
      {children.length === 0 ? (
        <p className={cn("text-sm text-muted", small ? "mt-3" : "mt-2")}>{empty}</p>
      ) : (
        <ul className={listClassName} data-testid={listTestId}>
          {children}
        </ul>
      )}
    </section>
  );
}

/** One booking in a list: what (a receipt, a store, a reward), when and for whom, the amount and the points. */
export function CounterRow({
  main,
  time,
  sub,
  amount,
  extra,
}: {
  main: string;
  time: string;
  sub?: string;
  amount?: ReactNode;
  extra?: string;
}) {
  return (
    <li className="flex items-start justify-between gap-3 py-2.5 text-sm">
      <div className="min-w-0">
        <p className="truncate font-medium">{main}</p>
        <p className="text-muted">
          <span className="tabular-nums">{time}</span>
          {sub ? <span className="ml-2 break-all">{sub}</span> : null}
        </p>
      </div>
      <div className="shrink-0 text-right">
        {amount ? <p className="font-medium tabular-nums">{amount}</p> : null}
        {extra ? <p className="text-muted">{extra}</p> : null}
      </div>
    </li>
  );
}

/** A purchase's points line: what was refunded of it, or the points it earned. */
export function usePurchaseNote() {
  const t = useConsoleT();
  const locale = useLocale();
  return (p: { refundedAmount: number; pointsEarned: number }) =>
    p.refundedAmount > 0
      ? t("console.counter.day.refundedPart", { amount: formatNumber(p.refundedAmount, locale) })
      : `+${t("console.counter.points", { points: p.pointsEarned })}`;
}
