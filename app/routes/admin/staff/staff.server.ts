import type { Database } from "@platform/db/client";
import { data } from "react-router";
import type { StaffActor } from "~/domain/staff/actor";
import { StaffError } from "~/domain/staff/errors";
import { workableStores } from "~/domain/staff/sessions.server";
import { formValues } from "~/lib/forms.server";
import type { Locale } from "~/lib/i18n";
import type { serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";

/** What the staff pages share on the server: the store choices and a refused change as a form answer. */

/** Every store (an admin's choice of stores for someone), by name in the page's language. */
export async function storeChoices(db: Database, actor: StaffActor, locale: Locale) {
  return (await workableStores(db, actor)).map((s) => ({ id: s.id, name: pick(s.name, locale) }));
}

/** The role and stores of a staff form (stores are repeated checkboxes). */
export function accessFromForm(form: FormData): { role: string; storeIds: string[] } {
  return {
    role: String(form.get("role") ?? ""),
    storeIds: form.getAll("storeIds").map(String).slice(0, 200),
  };
}

/** The values typed, kept: the stores ticked as one comma-separated value. */
export function staffFormValues(form: FormData): Record<string, string> {
  return { ...formValues(form, ["stepUpCode"]), storeIds: form.getAll("storeIds").map(String).join(",") };
}

/**
 * A refused staff change (StaffError) as the form's 4xx: the message beside its field (or above the form),
 * what was typed kept. Anything else is not ours to answer and is thrown on.
 */
export function staffFailure(error: unknown, form: FormData, t: ReturnType<typeof serverT>) {
  if (!(error instanceof StaffError)) throw error;
  const message = t(`console.staff.error.${error.code}`);
  const status =
    error.code === "staff_not_found"
      ? 404
      : error.code === "cannot_change_self"
        ? 403
        : error.code === "already_staff" || error.code === "last_admin"
          ? 409
          : 400;
  const values = staffFormValues(form);
  return error.field
    ? data({ errors: { [error.field]: [message] }, values }, { status })
    : data({ formError: message, values }, { status });
}
