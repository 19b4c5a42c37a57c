import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";

/**
 * The frame of every console page (ADR 037, "The console page frame and list query"): the page's width, the
 * link back to where it came from, its one `<h1>` with the badges beside it, a lead line, a primary action on
 * the right, and the live region where the page's done/error notices appear. The page's own content follows.
 * The counter's pages use the `counter` pace: a little less room above, a larger back target and lead, since
 * they are worked standing at a till (ADR 022).
 */
const widths = {
  "3xl": "max-w-3xl",
  "4xl": "max-w-4xl",
  "5xl": "max-w-5xl",
  "6xl": "max-w-6xl",
  "7xl": "max-w-7xl",
} as const;

export type ConsolePageWidth = keyof typeof widths;

export function ConsolePage({
  title,
  lead,
  back,
  badges,
  action,
  notices,
  width = "6xl",
  pace = "page",
  titleTestId,
  testId,
  children,
}: {
  title: ReactNode;
  lead?: ReactNode;
  /** The link above the title to the page this one belongs to. */
  back?: { to: string; label: string };
  /** Status chips shown beside the title. */
  badges?: ReactNode;
  /** The page's primary action (a link styled as a button), on the title's right. */
  action?: ReactNode;
  /** The done/error notices; when given (even empty) the page has a polite live region for them. */
  notices?: ReactNode;
  width?: ConsolePageWidth;
  pace?: "page" | "counter";
  titleTestId?: string;
  testId?: string;
  children?: ReactNode;
}) {
  const counter = pace === "counter";
  return (
    <div
      className={cn("mx-auto px-4 sm:px-6", widths[width], counter ? "py-6 lg:py-10" : "py-8 lg:py-12")}
      data-testid={testId}
    >
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          {back ? (
            counter ? (
              <Link
                to={back.to}
                className="-ml-3 mb-2 inline-flex min-h-11 items-center rounded-full px-3 text-sm text-muted hover:bg-sand hover:text-ink"
              >
                ← {back.label}
              </Link>
            ) : (
              <p className="mb-2 text-sm">
                <Link to={back.to} className="text-muted underline underline-offset-4 hover:text-ink">
                  {back.label}
                </Link>
              </p>
            )
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="font-serif text-3xl font-semibold break-words" data-testid={titleTestId}>
              {title}
            </h1>
            {badges}
          </div>
          {lead ? <p className={counter ? "mt-1 text-muted" : "mt-2 max-w-3xl text-sm text-muted"}>{lead}</p> : null}
        </div>
        {action}
      </div>
      {notices === undefined ? null : (
        <div className="mt-4 space-y-3" aria-live="polite">
          {notices}
        </div>
      )}
      {children}
    </div>
  );
}
