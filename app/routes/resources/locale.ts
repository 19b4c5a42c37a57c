import { member } from "@platform/db/schema";
import { and, eq, ne } from "drizzle-orm";
import { redirect } from "react-router";
import { getApp } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
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
  // A member's messages follow the language they use the site in (issue 16).
  const memberId = getMemberSession(context)?.member?.id;
  if (memberId) {
    await getApp(context)
      .db.update(member)
      .set({ locale })
      .where(and(eq(member.id, memberId), ne(member.locale, locale)));
  }
  return redirect(target, { headers: { "Set-Cookie": localeCookie(locale, config.isProduction) } });
}

export function loader() {
  return redirect("/");
}
