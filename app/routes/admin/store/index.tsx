import { data, redirect } from "react-router";
import { CONSOLE_HOME } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { requireStaff } from "~/domain/staff/guard.server";
import { switchCurrentStore } from "~/domain/staff/sessions.server";
import { readForm } from "~/lib/forms.server";
import { safeRedirectPath } from "~/lib/links";
import type { Route } from "./+types/index";

/** Switches the store the staff member works at on this session (one of theirs; any for an admin). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireStaff(context);
  const form = await readForm(request);
  const storeId = String(form.get("storeId") ?? "");
  if (!(await switchCurrentStore(getApp(context).db, actor, storeId))) {
    throw data({ storeId }, { status: 403, statusText: "Forbidden" });
  }
  return redirect(safeRedirectPath(String(form.get("redirectTo") ?? ""), CONSOLE_HOME));
}

export function loader() {
  return redirect(CONSOLE_HOME);
}

/** A page route (not a resource route), so a refused switch renders the console's 403 view. */
export default function StoreSwitch() {
  return null;
}
