import { data } from "react-router";
import { MaterialError } from "~/domain/materials/console.server";
import type { serverT } from "~/lib/i18n.server";

/**
 * What the console's sections answer a refused or invalid form with, where more than one section refuses the same
 * errors (materials and categories here): one module at the console's root, so that no section's folder imports
 * another's (ADR 037). Issue 34's one refusal model is to replace these with one `consoleFailure`.
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
