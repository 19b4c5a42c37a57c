import { Outlet } from "react-router";
import { consoleMiddleware } from "~/adapters/console.server";
import { ConsoleError } from "~/components/console/console-error";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import type { Route } from "./+types/route";

/** Every /admin request: the console session is loaded once here (ADR 020); the pages below decide. */
export const middleware: Route.MiddlewareFunction[] = [consoleMiddleware];

export function loader({ request }: Route.LoaderArgs) {
  return { messages: routeMessages(getLocale(request), "console.") };
}

export default function ConsoleRoot() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main id="main">
      <ConsoleError />
    </main>
  );
}
