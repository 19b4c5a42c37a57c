import { type ReactNode, useEffect, useRef, useState } from "react";
import { ChevronLeft, ChevronRight } from "~/components/ui/icons";
import { Link, NavLink } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import type { Translate } from "~/lib/i18n";
import { links } from "~/lib/links";

/**
 * The light frame of the member-center sub-pages: a way back to the member center and tabs
 * between the member's own settings. `t` carries the page's `account.nav.*` messages.
 */
export function AccountNav({ t }: { t: Translate }) {
  const tabs = [
    { to: links.editInfo(), label: t("account.nav.editInfo") },
    { to: links.security(), label: t("account.nav.security") },
    { to: links.linkedLogins(), label: t("account.nav.linkedLogins") },
    { to: links.memberPrivacy(), label: t("account.nav.privacy") },
  ];
  return (
    <div className="mb-8 space-y-4">
      <Link
        to={links["member-center"]()}
        className="inline-flex min-h-11 items-center gap-1 text-muted underline-offset-4 hover:text-ink hover:underline"
      >
        <ChevronLeft aria-hidden className="size-4" />
        {t("account.nav.back")}
      </Link>
      <TabStrip label={t("account.nav.label")} tabs={tabs} />
    </div>
  );
}

/**
 * The tabs on one line. On a phone they may not fit: the strip then scrolls sideways, the current
 * tab is scrolled into view, and a fade with a chevron on the clipped side shows there is more.
 */
function TabStrip({ label, tabs }: { label: string; tabs: { to: string; label: string }[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const current = el.querySelector<HTMLElement>('[aria-current="page"]');
    if (current && el.scrollWidth > el.clientWidth) {
      // Centre the current tab without scrolling the page.
      el.scrollLeft = current.offsetLeft - (el.clientWidth - current.offsetWidth) / 2;
    }
    const measure = () =>
      setMore({
        before: el.scrollLeft > 1,
        after: el.scrollLeft + el.clientWidth < el.scrollWidth - 1,
      });
    measure();
    el.addEventListener("scroll", measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", measure);
      resize.disconnect();
    };
  }, []);
  const fade = "pointer-events-none absolute inset-y-1 flex w-12 items-center text-muted transition-opacity";
  return (
    <nav
      aria-label={label}
      className="relative w-fit max-w-full overflow-hidden rounded-full border border-line bg-white"
    >
      <div
        ref={scroller}
        className="overflow-x-auto overscroll-x-contain p-1 [scrollbar-width:none]"
        data-testid="account-tabs"
      >
        <ul className="flex w-max gap-1">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                className={({ isActive }) =>
                  cn(
                    "flex min-h-10 items-center rounded-full px-4 whitespace-nowrap",
                    isActive ? "bg-ink text-paper" : "text-muted hover:text-ink",
                  )
                }
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
      <span
        aria-hidden
        className={cn(
          fade,
          "left-0 justify-start rounded-l-full bg-gradient-to-r from-white from-40% pl-1.5",
          more.before ? "opacity-100" : "opacity-0",
        )}
      >
        <ChevronLeft className="size-4" />
      </span>
      <span
        aria-hidden
        className={cn(
          fade,
          "right-0 justify-end rounded-r-full bg-gradient-to-l from-white from-40% pr-1.5",
          more.after ? "opacity-100" : "opacity-0",
        )}
        data-testid="account-tabs-more"
      >
        <ChevronRight className="size-4" />
      </span>
    </nav>
  );
}

/** One block of an account page: a titled card with an optional lead. */
export function AccountSection({
  title,
  lead,
  children,
  id,
  tone = "default",
}: {
  title: ReactNode;
  lead?: ReactNode;
  children?: ReactNode;
  id?: string;
  tone?: "default" | "danger";
}) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section
      aria-labelledby={headingId}
      className={cn(
        "rounded-3xl border bg-white p-5 sm:p-7",
        tone === "danger" ? "border-danger-700/30" : "border-line",
      )}
    >
      <h2 id={headingId} className="font-serif text-xl font-semibold tracking-wide">
        {title}
      </h2>
      {lead ? <p className="mt-1.5 text-pretty text-muted">{lead}</p> : null}
      <div className="mt-5">{children}</div>
    </section>
  );
}
