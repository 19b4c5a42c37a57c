import { data } from "react-router";
import type { z } from "zod";

/**
 * Server-side form handling. The Zod schema is the authority; the browser gets native constraint
 * attributes for instant hints (no validation library in the client bundle, see ADR 008). A bad
 * submission answers 400 with the messages per field and the values as typed, so nothing is lost.
 */
export type FieldErrors = Record<string, string[]>;
export type FormFailure = { errors: FieldErrors; values: Record<string, string>; formError?: string };

export function formValues(formData: FormData, omit: readonly string[] = ["password", "confirmPassword", "code"]) {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) {
    if (typeof value === "string" && !omit.includes(key)) values[key] = value;
  }
  return values;
}

export function parseForm<T extends z.ZodType>(
  schema: T,
  formData: FormData,
): { ok: true; data: z.infer<T> } | { ok: false; failure: FormFailure } {
  const raw = Object.fromEntries([...formData].filter(([, v]) => typeof v === "string"));
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= [];
    if (!errors[field].includes(issue.message)) errors[field].push(issue.message);
  }
  return { ok: false, failure: { errors, values: formValues(formData) } };
}

/** The 400 (or other 4xx) answer for a form: errors beside fields, values kept. */
export function formFailure(failure: FormFailure, status = 400) {
  return data({ ok: false as const, ...failure }, { status });
}

export function fieldFailure(formData: FormData, field: string, message: string, status = 400) {
  return formFailure({ errors: { [field]: [message] }, values: formValues(formData) }, status);
}

/** "約 5 分鐘" style wait text for rate-limit messages. */
export function waitText(
  seconds: number,
  t: (key: "form.wait.seconds" | "form.wait.minutes" | "form.wait.hours", v: { n: number }) => string,
) {
  if (seconds < 60) return t("form.wait.seconds", { n: seconds });
  if (seconds < 3600) return t("form.wait.minutes", { n: Math.ceil(seconds / 60) });
  return t("form.wait.hours", { n: Math.ceil(seconds / 3600) });
}
