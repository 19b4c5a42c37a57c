import type { StaffRole } from "~/domain/staff/permissions";
import { cn } from "~/lib/cn";
import type { ConsoleNavItem } from "../nav";
import { useConsoleT } from "../use-console-t";
import { ConsoleNav, LogoutButton } from "./console-nav";
import { MobileMenu } from "./mobile-menu";
import { Sidebar } from "./sidebar";
import { type StoreOption, StoreSwitch } from "./store-switch";

/** What the shell shows: who is working, the stores they may switch between, the navigation their role sees. */
export type ShellData = {
  staff: { name: string; role: StaffRole; currentStoreId: string | null };
  stores: StoreOption[];
  nav: readonly ConsoleNavItem[];
};

/** Who is working: name, role, and (unless the switch shows it on a desktop) the current store. */
function StaffIdentity({ shell }: { shell: ShellData }) {
  const t = useConsoleT();
  const multiStore = shell.stores.length > 1;
  const currentStore = shell.stores.find((s) => s.id === shell.staff.currentStoreId);
  return (
    <div className="mt-0.5 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm lg:mt-3 lg:flex-col lg:items-start">
      <p className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium" data-testid="console-staff-name">
          {shell.staff.name}
        </span>
        <span className="shrink-0 rounded-full bg-sand px-2 py-0.5 text-xs" data-testid="console-role">
          {t(`console.role.${shell.staff.role}`)}
        </span>
      </p>
      <p className={cn("flex min-w-0 items-center text-muted", multiStore && "lg:hidden")}>
        <span className="sr-only lg:not-sr-only">{t("console.store.label")}：</span>
        <span aria-hidden className="mr-2 lg:hidden">
          ·
        </span>
        <span className="truncate text-ink" data-testid="console-store">
          {currentStore?.name ?? t(multiStore ? "console.store.choose" : "console.store.none")}
        </span>
      </p>
    </div>
  );
}

/**
 * The console's own layout (outside the public site): a sidebar on a desktop; below `lg` a compact top bar
 * (brand, who is working, their role and store) with a 選單 button that opens the whole navigation, the
 * store switch and logout as a list. The button is a native <details> disclosure, so it works before
 * hydration; once hydrated it also closes on navigation, on Escape and on a tap outside it. Without `shell`
 * (an error before the shell's data) only the brand and 登出後台 are shown.
 */
export function ConsoleFrame({ shell, children }: { shell: ShellData | undefined; children: React.ReactNode }) {
  const t = useConsoleT();
  const { staff, stores = [], nav = [] } = shell ?? {};
  return (
    <div className="min-h-dvh bg-sand/40 lg:grid lg:grid-cols-[16rem_minmax(0,1fr)]">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t("console.skip")}
      </a>
      <header className="relative border-b border-line bg-white lg:sticky lg:top-0 lg:h-dvh lg:overflow-y-auto lg:border-r lg:border-b-0">
        <div className="flex items-center gap-3 px-4 py-2.5 sm:px-6 lg:h-full lg:flex-col lg:items-stretch lg:gap-5 lg:px-4 lg:py-5">
          <div className="min-w-0 flex-1 lg:flex-none lg:px-1">
            <p className="font-serif text-base tracking-wide text-brand-700 lg:text-lg">{t("console.brand")}</p>
            {shell ? <StaffIdentity shell={shell} /> : null}
          </div>
          {staff ? (
            <>
              <MobileMenu>
                {stores.length > 1 ? <StoreSwitch stores={stores} currentStoreId={staff.currentStoreId} /> : null}
                <ConsoleNav items={nav} idPrefix="console-menu" layout="menu" />
                <div className="border-t border-line pt-2">
                  <LogoutButton />
                </div>
              </MobileMenu>
              <Sidebar nav={nav} stores={stores} currentStoreId={staff.currentStoreId} />
            </>
          ) : (
            <LogoutButton />
          )}
        </div>
      </header>
      <main id="main" className="min-w-0">
        {children}
      </main>
    </div>
  );
}
