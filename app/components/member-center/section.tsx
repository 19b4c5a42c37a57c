import { cn } from "~/lib/cn";

/** One titled part of the member center (coupons, rewards, activity…), a jump target for its id. */
export function Section({
  id,
  title,
  badge,
  action,
  children,
  className,
}: {
  id: string;
  title: string;
  /** A short status beside the title (e.g. how many coupons are ready to use). */
  badge?: React.ReactNode;
  action?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} className={cn("scroll-mt-24", className)}>
      <div className="mb-3 flex items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2.5">
          <h2 id={`${id}-title`} className="font-serif text-xl font-semibold tracking-wide">
            {title}
          </h2>
          {badge}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
