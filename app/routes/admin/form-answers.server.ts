import { data } from "react-router";
import type { Problems } from "~/domain/programme/input";
import { formValues } from "~/lib/forms.server";
import type { serverT } from "~/lib/i18n.server";

/**
 * What the console's sections answer an invalid form with, where more than one section reads the same fields
 * (materials and categories; staff and API keys; rewards and rules): one module at the console's root, so that no
 * section's folder imports another's (ADR 037). A refused change is answered by `consoleFailure`
 * (app/adapters/console-failure.server.ts), for every section.
 */

export function invalidForm(
  errors: Record<string, string[]>,
  values: Record<string, string>,
  t: ReturnType<typeof serverT>,
) {
  return data({ errors, values, formError: t("console.materials.error.form") }, { status: 400 });
}

/** The values typed, kept (never the step-up code): the stores ticked as one comma-separated value. */
export function staffFormValues(form: FormData): Record<string, string> {
  return { ...formValues(form, ["stepUpCode"]), storeIds: form.getAll("storeIds").map(String).join(",") };
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
