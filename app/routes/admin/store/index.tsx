import { data, redirect } from "react-router";
import { z } from "zod";
import { CONSOLE_HOME } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { requireStaff } from "~/domain/staff/guard.server";
import { switchCurrentStore } from "~/domain/staff/sessions.server";
import { parseForm, readForm } from "~/lib/forms.server";
import { safeRedirectPath } from "~/lib/links";
import type { Route } from "./+types/index";

const switchSchema = z.object({ storeId: z.string().default(""), redirectTo: z.string().default("") });

/** Switches the store the staff member works at on this session (one of theirs; any for an admin). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireStaff(context);
  const parsed = parseForm(switchSchema, await readForm(request));
  // Both fields default to empty: an unknown store is refused below, an unsafe place goes to the console home.
  const { storeId, redirectTo } = parsed.ok ? parsed.data : { storeId: "", redirectTo: "" };
  if (!(await switchCurrentStore(getApp(context).db, actor, storeId))) {
    throw data({ storeId }, { status: 403, statusText: "Forbidden" });
  }
  return redirect(safeRedirectPath(redirectTo, CONSOLE_HOME));
}

export function loader() {
  return redirect(CONSOLE_HOME);
}

/** A page route (not a resource route), so a refused switch renders the console's 403 view. */
export default function StoreSwitch() {
  return null;
}
