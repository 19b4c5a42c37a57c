import { data } from "react-router";
import { z } from "zod";

/**
 * Server-side form handling. The Zod schema is the authority; the browser gets native constraint
 * attributes for instant hints (no validation library in the client bundle, see ADR 008). A bad
 * submission answers 400 with the messages per field and the values as typed, so nothing is lost.
 */
export type FieldErrors = Record<string, string[]>;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
// C0 controls and DEL, except tab, line feed and carriage return: a NUL byte would be refused by PostgreSQL
// (and none of them belongs in a name, an address or a code).
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** A text value without control characters. */
export function withoutControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTERS, "");
}

/**
 * The submitted form of an action. Anything but a form body (JSON, text/plain) is a 415 and a body that does
 * not parse (broken multipart) a 400, thrown as a response so the page shows its normal error view instead of a
 * 500. Control characters are removed from every key and text value, so a NUL byte never reaches the database
 * and what the person typed is kept.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.has(type)) throw data(null, { status: 415, statusText: "Unsupported Media Type" });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data(null, { status: 400, statusText: "Bad Request" });
  }
  const clean = new FormData();
  for (const [key, value] of form) {
    clean.append(withoutControlCharacters(key), typeof value === "string" ? withoutControlCharacters(value) : value);
  }
  return clean;
}

export type FormFailure = { errors: FieldErrors; values: Record<string, string>; formError?: string };

/** Passwords and codes (a sign-in code, the console's step-up code) are never sent back. */
const NEVER_ECHOED = ["password", "confirmPassword", "code", "stepUpCode"];

export function formValues(formData: FormData, omit: readonly string[] = NEVER_ECHOED) {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) {
    if (typeof value === "string" && !omit.includes(key)) values[key] = value;
  }
  return values;
}

/**
 * What reading a form gives, everywhere (member site and console, ADR 008): the schema's output, or the messages
 * per field with the values as typed.
 */
export type FormParse<T> = { ok: true; data: T } | { ok: false; failure: FormFailure };

export function parseForm<T extends z.ZodType>(schema: T, formData: FormData): FormParse<z.infer<T>> {
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

/** A form of one required `code` field (a sign-in or enrolment code), tidied as the step reads it. */
export function codeSchema(t: (key: "common.required") => string, tidy: (raw: string) => string) {
  return z.object({
    code: z
      .string()
      .default("")
      .transform(tidy)
      .pipe(z.string().min(1, t("common.required"))),
  });
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

type FormTranslate = (
  key:
    | "form.wait.seconds"
    | "form.wait.minutes"
    | "form.wait.hours"
    | "form.tooManyRequests"
    | "form.captchaFailed"
    | "auth.code.expired"
    | "auth.code.tooMany"
    | "auth.code.invalid",
  v?: Record<string, string | number>,
) => string;

/** "Too many tries, wait about N": the message a rate limit shows beside a field. */
export function tooManyRequestsText(retryAfterSeconds: number, t: FormTranslate): string {
  return t("form.tooManyRequests", { wait: waitText(retryAfterSeconds, (key, v) => t(key, v)) });
}

/** The 429 answer for a form whose field hit a rate limit. */
export function rateLimitedFailure(formData: FormData, field: string, retryAfterSeconds: number, t: FormTranslate) {
  return fieldFailure(formData, field, tooManyRequestsText(retryAfterSeconds, t), 429);
}

/** The answer when the invisible captcha did not verify (the form keeps its values). */
export function captchaFailure(formData: FormData, t: FormTranslate) {
  return formFailure({ errors: {}, values: formValues(formData), formError: t("form.captchaFailed") });
}

/** Why a one-time code was refused, for the code field: expired, tried too often, or wrong. */
export function codeFailureText(reason: string, t: FormTranslate): string {
  if (reason === "expired") return t("auth.code.expired");
  if (reason === "too_many_attempts") return t("auth.code.tooMany");
  return t("auth.code.invalid");
}
