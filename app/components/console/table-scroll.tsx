import { cn } from "~/lib/cn";

/**
 * A wide table that scrolls sideways inside its card on a phone instead of widening the page. The box
 * is a named, focusable region so a keyboard user can scroll it too (axe: scrollable-region-focusable)
 * when the table itself has nothing to focus. It is positioned (`relative`) so that it also clips the table's
 * absolutely positioned parts (the `sr-only` texts): without it their containing block is the page, and a
 * screen-reader note in the last column widened the phone's page by 100 px. A shadow at the edge where more
 * columns wait (`scroll-cue`) shows a sighted person that it scrolls. Every console table sits in one.
 */
export function TableScroll({
  labelledBy,
  label,
  className,
  children,
}: (
  | { /** The id of the heading that names the table. */ labelledBy: string; label?: never }
  | {
      /** The table's name when no heading names it. */
      label: string;
      labelledBy?: never;
    }
) & {
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={labelledBy}
      aria-label={label}
      data-table-scroll=""
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      className={cn(
        "scroll-cue relative overflow-x-auto rounded-lg focus-visible:outline-2 focus-visible:outline-brand-700",
        className,
      )}
    >
      {children}
    </section>
  );
}
