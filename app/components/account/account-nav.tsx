import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";
import { ChevronLeft } from "~/components/ui/icons";
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
      <nav aria-label={t("account.nav.label")} className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
        <ul className="flex w-max gap-1 rounded-full border border-line bg-white p-1">
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
      </nav>
    </div>
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
      {lead ? <p className="mt-1.5 text-muted">{lead}</p> : null}
      <div className="mt-5">{children}</div>
    </section>
  );
}
