import { useRouteLoaderData } from "react-router";
import { CircleUserRound } from "~/components/ui/icons";
import { NavLink } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import { type MessageKey, useT } from "~/lib/i18n";
import { links } from "~/lib/links";

const navItem = ({ isActive }: { isActive: boolean }) =>
  cn(
    "rounded-full px-3 py-2 text-[0.95rem] transition-colors hover:bg-sand focus-visible:outline-2 focus-visible:outline-brand-700",
    isActive ? "font-semibold text-ink" : "text-muted",
  );

type RootMember = { member?: { name: string; level: string } | null } | undefined;

export function SiteHeader() {
  const t = useT();
  const member = (useRouteLoaderData("root") as RootMember)?.member;
  return (
    <header
      className="sticky top-0 z-30 border-b border-line/70 bg-paper/90 backdrop-blur"
      data-sticky-top="site-header"
    >
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:rounded-full focus:bg-ink focus:px-4 focus:py-2 focus:text-paper"
      >
        {t("nav.skip")}
      </a>
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <NavLink to={links.home()} className="group flex items-baseline gap-2" aria-label={t("brand.name")}>
          <span className="font-serif text-2xl font-semibold tracking-[0.12em] text-ink">{t("brand.name")}</span>
          <span className="hidden text-xs tracking-[0.3em] text-muted uppercase sm:inline">Han Living</span>
        </NavLink>
        <nav aria-label={t("nav.label")} className="flex items-center gap-1">
          <ul className="hidden items-center gap-1 md:flex">
            <MainNavItems />
          </ul>
          <NavLink
            to={links["member-center"]()}
            className={({ isActive }) =>
              cn(
                "ml-1 inline-flex min-h-10 items-center gap-2 rounded-full border border-line px-4 text-[0.95rem] hover:bg-sand focus-visible:outline-2 focus-visible:outline-brand-700",
                isActive && "border-ink font-semibold",
              )
            }
          >
            <CircleUserRound aria-hidden className="size-4" />
            {member ? (
              <span className="flex items-baseline gap-2" data-testid="header-member">
                <span className="max-w-[8em] truncate">{member.name}</span>
                <span className="hidden text-xs text-brand-700 sm:inline">
                  {t(`member.level.${member.level}` as MessageKey)}
                </span>
              </span>
            ) : (
              t("nav.member")
            )}
          </NavLink>
        </nav>
      </div>
      {/* Phones: the three main places stay one tap away. */}
      <nav aria-label={t("nav.label")} className="border-t border-line/60 md:hidden">
        <ul className="mx-auto flex max-w-6xl justify-around px-2 py-1">
          <MainNavItems />
        </ul>
      </nav>
    </header>
  );
}

/** The three main places: in the header on wide screens, in a second row on phones. */
function MainNavItems() {
  const t = useT();
  return (
    <>
      <li>
        <NavLink to={links.home()} end className={navItem}>
          {t("nav.home")}
        </NavLink>
      </li>
      <li>
        <NavLink to={links.stores()} className={navItem}>
          {t("nav.stores")}
        </NavLink>
      </li>
      <li>
        <NavLink to={links.materials()} className={navItem}>
          {t("nav.materials")}
        </NavLink>
      </li>
    </>
  );
}
