import { data } from "react-router";
import { StaffError } from "~/domain/staff/errors";
import { formValues } from "~/lib/forms.server";
import type { serverT } from "~/lib/i18n.server";

/** What the staff pages share on the server: the access a form asks for and a refused change as a form answer. */

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
