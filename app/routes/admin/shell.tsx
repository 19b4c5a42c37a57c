import { useEffect, useRef } from "react";
import { Form, Outlet, useLocation } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsoleError } from "~/components/console/console-error";
import { CONSOLE_NAV, type ConsoleNavItem, groupConsoleNav } from "~/components/console/nav";
import { useConsoleT } from "~/components/console/use-console-t";
import { Menu, X } from "~/components/ui/icons";
import { inputClass } from "~/components/ui/input-class";
import { NavLink } from "~/components/ui/link";
import { requireStaff } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { workableStores } from "~/domain/staff/store-choices.server";
import { cn } from "~/lib/cn";
import { getLocale } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import type { Route } from "./+types/shell";

/**
 * The console's own layout (outside the public site): a sidebar on a desktop; below `lg` a compact top bar
 * (brand, who is working, their role and store) with a 選單 button that opens the whole navigation, the
 * store switch and logout as a list. The button is a native <details> disclosure, so it works before
 * hydration; once hydrated it also closes on navigation, on Escape and on a tap outside it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requireStaff(context);
  const locale = getLocale(request);
  const stores = (await workableStores(getApp(context).db, actor)).map((s) => ({
    id: s.id,
    name: pick(s.name, locale),
  }));
  return {
    staff: { name: actor.displayName, role: actor.role, currentStoreId: actor.currentStoreId },
    stores,
    nav: CONSOLE_NAV.filter((item) => item.permission === null || hasPermission(actor, item.permission)),
  };
}

type StoreOption = { id: string; name: string };

/** The switch between the stores a person works at (only when they have more than one). */
function StoreSwitch({ stores, currentStoreId }: { stores: StoreOption[]; currentStoreId: string | null }) {
  const t = useConsoleT();
  const location = useLocation();
  return (
    <Form method="post" action="/admin/store" className="flex items-end gap-2">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label className="min-w-0 flex-1 text-sm">
        <span className="block text-muted">{t("console.store.label")}</span>
        <select
          name="storeId"
          defaultValue={currentStoreId ?? ""}
          className={cn(inputClass, "mt-1 min-h-11 py-0")}
          data-testid="console-store-select"
        >
          {currentStoreId ? null : <option value="">{t("console.store.choose")}</option>}
          {stores.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="min-h-11 shrink-0 rounded-xl border border-line px-4 text-sm hover:bg-sand">
        {t("console.store.switch")}
      </button>
    </Form>
  );
}

/** The navigation, grouped (日常 / 目錄與方案 / 管理); the current page is marked (aria-current="page"). */
function ConsoleNav({
  items,
  idPrefix,
  layout,
}: {
  items: readonly ConsoleNavItem[];
  idPrefix: string;
  /** "menu": the groups side by side from `sm` up; "sidebar": one column, denser. */
  layout: "menu" | "sidebar";
}) {
  const t = useConsoleT();
  return (
    <nav aria-label={t("console.nav.label")}>
      <div
        className={layout === "menu" ? "flex flex-col gap-5 sm:grid sm:grid-cols-3 sm:gap-6" : "flex flex-col gap-4"}
      >
        {groupConsoleNav(items).map(({ group, items: groupItems }) => (
          <div key={group}>
            <p
              id={`${idPrefix}-${group}`}
              className="px-3 pb-1 text-xs font-medium tracking-[0.15em] text-muted uppercase"
            >
              {t(`console.shell.group.${group}`)}
            </p>
            <ul aria-labelledby={`${idPrefix}-${group}`} className="flex flex-col gap-0.5">
              {groupItems.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.to === "/admin"}
                    className={({ isActive }) =>
                      cn(
                        "relative flex items-center rounded-xl px-3 text-[0.95rem] hover:bg-sand",
                        layout === "menu" ? "min-h-11" : "min-h-9",
                        isActive &&
                          "bg-sand font-medium text-ink before:absolute before:inset-y-2 before:left-0 before:w-1 before:rounded-full before:bg-brand-700",
                      )
                    }
                  >
                    {t(item.label)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}

function LogoutButton() {
  const t = useConsoleT();
  return (
    <Form method="post" action="/admin/logout">
      <button
        type="submit"
        className="min-h-11 rounded-xl px-3 text-sm text-muted underline underline-offset-4 hover:text-ink"
      >
        {t("console.logout")}
      </button>
    </Form>
  );
}

/**
 * The phone and tablet menu: a <details> disclosure (its <summary> is a button with an expanded state for
 * screen readers, and opens and closes without JavaScript). Closes on navigation, Escape and a tap outside.
 */
function MobileMenu({ children }: { children: React.ReactNode }) {
  const t = useConsoleT();
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // A new page (or a store switch): the menu closes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const details = ref.current;
      if (details?.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, []);
  return (
    <details
      ref={ref}
      className="group lg:hidden"
      data-testid="console-menu"
      onKeyDown={(event) => {
        if (event.key === "Escape" && ref.current?.open) {
          ref.current.open = false;
          ref.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-xl border border-line bg-white px-3 text-sm font-medium select-none hover:bg-sand group-open:bg-sand [&::-webkit-details-marker]:hidden">
        <Menu className="size-5 group-open:hidden" />
        <X className="hidden size-5 group-open:block" />
        {t("console.nav.menu")}
      </summary>
      <div className="absolute inset-x-0 top-full z-40 max-h-[calc(100dvh-5rem)] overflow-y-auto border-y border-line bg-white px-4 pt-4 pb-3 shadow-[0_0_0_100vmax_rgb(31_28_24/0.28)] [clip-path:inset(0_0_-100vmax_0)] sm:px-6">
        <div className="mx-auto flex max-w-2xl flex-col gap-5">{children}</div>
      </div>
    </details>
  );
}

export default function ConsoleShell({ loaderData }: Route.ComponentProps) {
  return (
    <ConsoleFrame loaderData={loaderData}>
      <Outlet />
    </ConsoleFrame>
  );
}

function ConsoleFrame({
  loaderData,
  children,
}: {
  loaderData: Route.ComponentProps["loaderData"] | undefined;
  children: React.ReactNode;
}) {
  const t = useConsoleT();
  const multiStore = (loaderData?.stores.length ?? 0) > 1;
  const currentStore = loaderData?.stores.find((s) => s.id === loaderData.staff.currentStoreId);
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
            {loaderData ? (
              <div className="mt-0.5 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm lg:mt-3 lg:flex-col lg:items-start">
                <p className="flex min-w-0 items-center gap-2">
                  <span className="truncate font-medium" data-testid="console-staff-name">
                    {loaderData.staff.name}
                  </span>
                  <span className="shrink-0 rounded-full bg-sand px-2 py-0.5 text-xs" data-testid="console-role">
                    {t(`console.role.${loaderData.staff.role}`)}
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
            ) : null}
          </div>
          {loaderData ? (
            <>
              <MobileMenu>
                {multiStore ? (
                  <StoreSwitch stores={loaderData.stores} currentStoreId={loaderData.staff.currentStoreId} />
                ) : null}
                <ConsoleNav items={loaderData.nav} idPrefix="console-menu" layout="menu" />
                <div className="border-t border-line pt-2">
                  <LogoutButton />
                </div>
              </MobileMenu>
              <div className="hidden lg:flex lg:min-h-0 lg:flex-1 lg:flex-col lg:gap-5">
                {multiStore ? (
                  <div className="px-1">
                    <StoreSwitch stores={loaderData.stores} currentStoreId={loaderData.staff.currentStoreId} />
                  </div>
                ) : null}
                {/* The list scrolls on a short screen; 登出後台 stays in view below it. */}
                <div className="lg:-mx-1 lg:min-h-0 lg:flex-1 lg:overflow-y-auto lg:px-1">
                  <ConsoleNav items={loaderData.nav} idPrefix="console-sidebar" layout="sidebar" />
                </div>
                <div className="border-t border-line pt-3">
                  <LogoutButton />
                </div>
              </div>
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

export function ErrorBoundary({ loaderData }: Route.ErrorBoundaryProps) {
  return (
    <ConsoleFrame loaderData={loaderData as Route.ComponentProps["loaderData"] | undefined}>
      <ConsoleError />
    </ConsoleFrame>
  );
}
