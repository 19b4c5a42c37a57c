import { redirect } from "react-router";
import { clearConsoleCookie, readConsoleToken } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { endConsoleSession } from "~/domain/staff/sessions.server";
import type { Route } from "./+types/index";

/** Ends this console session (the member session, if any, is untouched: two hats, two sessions). */
export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  await endConsoleSession(app.db, readConsoleToken(request));
  return redirect("/admin/login", { headers: { "Set-Cookie": clearConsoleCookie(app.config.isProduction) } });
}

export function loader() {
  return redirect("/admin");
}
