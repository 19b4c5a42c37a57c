import { Form, NavLink, Outlet, useLocation } from "react-router";
import { ConsoleError } from "~/components/console/console-error";
import { CONSOLE_NAV } from "~/components/console/nav";
import { useConsoleT } from "~/components/console/use-console-t";
import { inputClass } from "~/components/ui/input-class";
import { requireStaff } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { workableStores } from "~/domain/staff/sessions.server";
import { cn } from "~/lib/cn";
import { getApp } from "~/lib/context.server";
import { getLocale } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import type { Route } from "./+types/shell";

/**
 * The console's own layout (outside the public site): a sidebar on a desktop, a compact bar on a
 * tablet or phone; who is working, their role and store (switchable when they have several).
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

function StorePicker({
  stores,
  currentStoreId,
}: {
  stores: { id: string; name: string }[];
  currentStoreId: string | null;
}) {
  const t = useConsoleT();
  const location = useLocation();
  const current = stores.find((s) => s.id === currentStoreId);
  if (stores.length <= 1) {
    return (
      <p className="text-sm">
        <span className="text-muted">{t("console.store.label")}：</span>
        <span data-testid="console-store">{current?.name ?? t("console.store.none")}</span>
      </p>
    );
  }
  return (
    <Form method="post" action="/admin/store" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label className="min-w-40 flex-1 text-sm">
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
      <button type="submit" className="min-h-11 rounded-xl border border-line px-4 text-sm hover:bg-sand">
        {t("console.store.switch")}
      </button>
    </Form>
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
  return (
    <div className="min-h-dvh bg-sand/40 lg:grid lg:grid-cols-[16rem_1fr]">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t("console.skip")}
      </a>
      <header className="border-b border-line bg-white lg:min-h-dvh lg:border-r lg:border-b-0">
        <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 lg:flex-col lg:items-stretch lg:gap-6 lg:px-5 lg:py-6">
          <p className="font-serif text-lg tracking-wide text-brand-700">{t("console.brand")}</p>
          {loaderData ? (
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm lg:flex-col lg:items-stretch">
              <p>
                <span className="font-medium" data-testid="console-staff-name">
                  {loaderData.staff.name}
                </span>
                <span className="ml-2 rounded-full bg-sand px-2 py-0.5 text-xs" data-testid="console-role">
                  {t(`console.role.${loaderData.staff.role}`)}
                </span>
              </p>
              <StorePicker stores={loaderData.stores} currentStoreId={loaderData.staff.currentStoreId} />
            </div>
          ) : null}
          {loaderData ? (
            <nav aria-label={t("console.nav.label")} className="w-full lg:w-auto">
              <ul className="flex gap-1 overflow-x-auto lg:flex-col">
                {loaderData.nav.map((item) => (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      end={item.to === "/admin"}
                      className={({ isActive }) =>
                        cn(
                          "flex min-h-11 items-center rounded-xl px-3 whitespace-nowrap hover:bg-sand",
                          isActive && "bg-sand font-medium",
                        )
                      }
                    >
                      {t(item.label)}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <Form method="post" action="/admin/logout">
            <button
              type="submit"
              className="min-h-11 rounded-xl px-3 text-sm text-muted underline underline-offset-4 hover:text-ink"
            >
              {t("console.logout")}
            </button>
          </Form>
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
