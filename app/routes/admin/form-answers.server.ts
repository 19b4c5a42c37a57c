import { data } from "react-router";
import { MaterialError } from "~/domain/materials/console.server";
import type { Problems } from "~/domain/programme/input";
import { StaffError } from "~/domain/staff/errors";
import { formValues } from "~/lib/forms.server";
import type { serverT } from "~/lib/i18n.server";

/**
 * What the console's sections answer a refused or invalid form with, where more than one section refuses the same
 * errors (materials and categories; staff and API keys; rewards and rules): one module at the console's root, so
 * that no section's folder imports another's (ADR 037). Issue 34's one refusal model is to replace these with one
 * `consoleFailure`.
 */

/**
 * A refused catalogue change as the form's 4xx: the message beside its field (or above the form), what was
 * typed kept. A version conflict is a 409 whose form still holds everything the admin typed.
 */
export function materialFailure(error: unknown, values: Record<string, string>, t: ReturnType<typeof serverT>) {
  if (!(error instanceof MaterialError)) throw error;
  const message = t(`console.materials.error.${error.code}`);
  const status =
    error.code === "not_found" ? 404 : error.code === "conflict" || error.code === "duplicate_id" ? 409 : 400;
  return error.field
    ? data({ errors: { [error.field]: [message] }, values, formError: t("console.materials.error.form") }, { status })
    : data({ formError: message, values, conflict: error.code === "conflict" }, { status });
}

export function invalidForm(
  errors: Record<string, string[]>,
  values: Record<string, string>,
  t: ReturnType<typeof serverT>,
) {
  return data({ errors, values, formError: t("console.materials.error.form") }, { status: 400 });
}

/** The values typed, kept: the stores ticked as one comma-separated value. */
function staffFormValues(form: FormData): Record<string, string> {
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

/** The form's problems as messages in the page's language, per field. */
export function problemMessages(problems: Problems, t: ReturnType<typeof serverT>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(problems)) {
    out[field] = list.map((p) =>
      // A date parameter (2026-12-28) as the console writes dates (2026/12/28).
      t(
        `console.programme.error.${p.code}`,
        p.param === undefined ? undefined : { max: String(p.param).replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$1/$2/$3") },
      ),
    );
  }
  return out;
}
