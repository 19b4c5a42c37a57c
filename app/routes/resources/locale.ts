import { redirect } from "react-router";
import { getApp } from "~/lib/context.server";
import { readForm } from "~/lib/forms.server";
import { isLocale, localeCookie } from "~/lib/i18n";
import { safeRedirectPath } from "~/lib/links";
import type { Route } from "./+types/locale";

/** Sets the locale cookie and returns to the page the visitor was on. Works without JavaScript. */
export async function action({ request, context }: Route.ActionArgs) {
  const { config } = getApp(context);
  const form = await readForm(request);
  const locale = form.get("locale");
  const target = safeRedirectPath(form.get("redirectTo"));
  if (!isLocale(locale)) return redirect(target);
  return redirect(target, { headers: { "Set-Cookie": localeCookie(locale, config.isProduction) } });
}

export function loader() {
  return redirect("/");
}
