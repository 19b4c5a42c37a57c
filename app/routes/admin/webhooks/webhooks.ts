import type { EndpointProblems } from "~/domain/webhooks/input";
import type { Translate } from "~/lib/i18n";

/** The endpoint form's problem codes in words, per field (shared by the section's two pages). */
export function problemMessages(problems: EndpointProblems, t: Translate): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, codes] of Object.entries(problems)) {
    errors[field] = (codes ?? []).map((code) =>
      code === "required"
        ? t(field === "events" ? "console.webhooks.problem.noEvents" : "console.webhooks.problem.required")
        : code === "tooLong"
          ? t("console.webhooks.problem.tooLong")
          : t("console.webhooks.problem.invalid"),
    );
  }
  return errors;
}
