import { Outlet } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsoleError } from "~/components/console/console-error";
import { CONSOLE_NAV } from "~/components/console/nav";
import { ConsoleFrame, type ShellData } from "~/components/console/shell/console-frame";
import { requireStaff } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { workableStores } from "~/domain/staff/store-choices.server";
import { getLocale } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import type { Route } from "./+types/shell";

/** The console's layout (components/console/shell): who is working, their stores, the navigation their role sees. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<ShellData> {
  const actor = requireStaff(context);
  const locale = getLocale(request);
  const stores = await workableStores(getApp(context).db, actor);
  return {
    staff: { name: actor.displayName, role: actor.role, currentStoreId: actor.currentStoreId },
    stores: stores.map((s) => ({ id: s.id, name: pick(s.name, locale) })),
    nav: CONSOLE_NAV.filter((item) => item.permission === null || hasPermission(actor, item.permission)),
  };
}

export default function ConsoleShell({ loaderData }: Route.ComponentProps) {
  return (
    <ConsoleFrame shell={loaderData}>
      <Outlet />
    </ConsoleFrame>
  );
}

export function ErrorBoundary({ loaderData }: Route.ErrorBoundaryProps) {
  return (
    <ConsoleFrame shell={loaderData as ShellData | undefined}>
      <ConsoleError />
    </ConsoleFrame>
  );
}
