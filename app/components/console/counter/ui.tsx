import type { ReactNode } from "react";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import { formatNumber, useLocale } from "~/lib/i18n";
import { useConsoleT } from "../use-console-t";

/** Small pieces shared by the counter's pages (ADR 022): amounts, figures, badges, panels. Their frame is `ConsolePage`. */

/** NT$1,234 (negative amounts with a minus sign). */
export function Money({ amount }: { amount: number }) {
  const locale = useLocale();
  return <span className="tabular-nums">{`${amount < 0 ? "−" : ""}NT$${formatNumber(Math.abs(amount), locale)}`}</span>;
}

/** "1,234 點": a number of points, grouped the reader's way. */
export function usePoints() {
  const t = useConsoleT();
  const locale = useLocale();
  return (points: number) => t("console.counter.points", { points: formatNumber(points, locale) });
}

export function StatTile({
  label,
  value,
  note,
  testId,
  className,
}: {
  label: ReactNode;
  value: ReactNode;
  note?: ReactNode;
  testId?: string;
  className?: string;
}) {
  return (
    <div className={cn("min-w-0 rounded-2xl border border-line bg-white px-4 py-3", className)} data-testid={testId}>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums break-words">{value}</dd>
      {note ? <dd className="text-sm text-muted">{note}</dd> : null}
    </div>
  );
}

/** Label and value pairs in a grid (a purchase's details, a coupon's, the store and the time). */
export function Facts({
  items,
  className,
}: {
  items: { label: string; value: ReactNode; testId?: string }[];
  className?: string;
}) {
  return (
    <dl className={cn("grid grid-cols-2 gap-x-4 gap-y-3 text-sm", className)}>
      {items.map((item) => (
        <div key={item.label} className="min-w-0">
          <dt className="text-muted">{item.label}</dt>
          <dd className="font-medium break-words" data-testid={item.testId}>
            {item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const TIER_STYLES = {
  basic: "bg-sand text-ink",
  silver: "bg-stone text-ink",
  gold: "bg-brand-100 text-brand-900",
} as const;

export function TierBadge({ tier }: { tier: "basic" | "silver" | "gold" }) {
  const t = useConsoleT();
  return (
    <span className={cn("rounded-full px-3 py-1 text-sm font-medium", TIER_STYLES[tier])} data-testid="member-tier">
      {t(`console.counter.tier.${tier}`)}
    </span>
  );
}

/** A white card of the counter (`strong`: the one that books, framed in ink). */
export const panelClass = (strong = false) =>
  cn("rounded-3xl bg-white p-5 sm:p-6", strong ? "border-2 border-ink/80" : "border border-line");

/**
 * A confirmation after a booking: what happened, in large figures, and where to go next (the first link the
 * primary one, large to tap).
 */
export function Done({
  title,
  children,
  testId,
  next,
}: {
  title: ReactNode;
  children: ReactNode;
  testId: string;
  next: { to: string; label: string }[];
}) {
  return (
    <div className="mt-6 space-y-4">
      <section
        aria-labelledby={`${testId}-title`}
        className="rounded-3xl border border-success-700/30 bg-white p-5 sm:p-6"
        data-testid={testId}
      >
        <h2
          id={`${testId}-title`}
          role="status"
          className="flex items-center gap-2 text-xl font-semibold text-success-700"
        >
          <svg aria-hidden viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="m5 12 4.5 4.5L19 7" />
          </svg>
          {title}
        </h2>
        <div className="mt-4">{children}</div>
      </section>
      <div className="flex flex-wrap gap-3">
        {next.map((link, i) => (
          <Link
            key={link.to}
            to={link.to}
            className={buttonVariants({ variant: i === 0 ? "primary" : "secondary", size: "lg" })}
          >
            {link.label}
          </Link>
        ))}
      </div>
    </div>
  );
}
