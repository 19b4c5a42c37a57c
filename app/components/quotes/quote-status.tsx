import { cn } from "~/lib/cn";

export type QuoteState = "requested" | "answered" | "accepted" | "closed" | "withdrawn" | "expired";

const TONE: Record<QuoteState, string> = {
  requested: "bg-sand text-ink ring-line",
  answered: "bg-brand-50 text-brand-800 ring-brand-300/40",
  accepted: "bg-success-50 text-success-700 ring-success-700/20",
  closed: "bg-white text-muted ring-line",
  withdrawn: "bg-white text-muted ring-line",
  expired: "bg-danger-700/10 text-danger-800 ring-danger-700/20",
};

/** A quote's state as a small badge (member center and console; issue 37 part 4). */
export function QuoteStatusBadge({ state, label }: { state: QuoteState; label: string }) {
  return (
    <span
      className={cn("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1", TONE[state])}
      data-testid="quote-status"
    >
      {label}
    </span>
  );
}
