import { data } from "react-router";
import { LoyaltyError, type LoyaltyErrorCode, loyaltyErrorMessage } from "~/domain/loyalty/errors";
import { isRefusal, type RefusalArea, type RefusalCode } from "~/domain/refusals";
import { formValues } from "~/lib/forms.server";
import type { MessageKey } from "~/lib/i18n";
import type { serverT } from "~/lib/i18n.server";

type T = ReturnType<typeof serverT>;

/** Passwords and codes are never sent back (ADR 008). */
const NEVER_ECHOED = ["password", "confirmPassword", "code", "stepUpCode"];
type AnyCode = RefusalCode<RefusalArea> | LoyaltyErrorCode | "*";

export type ConsoleFailureOptions = {
  /** The values as typed, when the page keeps more (or other) than the form's text fields. */
  values?: Record<string, string>;
  /** This page's wording of a code, where it is not the area's (`*` for every other code of the loyalty area). */
  wording?: Partial<Record<AnyCode, MessageKey>>;
  /** The field a code's message goes beside on this page (the loyalty area's codes have none of their own). */
  fields?: Partial<Record<AnyCode, string>>;
  /** Values for the message's placeholders. */
  params?: Record<string, string>;
  /** The status this step answers every refusal with, where it is not the table's. */
  status?: number;
};

/**
 * A refused console change as the page's answer (ADR 037, "One refusal model"): the message beside its field (with
 * the area's "fix the fields" line above the form) or above the form, the values as typed kept, the status from the
 * code table (`CONSOLE_REFUSALS`, or `LOYALTY_ERRORS` for the loyalty area). A version conflict also says
 * `conflict: true`, so the page can show the version saved now. Anything that is not a refusal is thrown on.
 * `form` is null where the page keeps no values (a button, not a form) or passes its own (`values`); `answer` adds
 * the rest of the page's answer (the latest version, a picture).
 */
export function consoleFailure<X extends Record<string, unknown> = Record<never, never>>(
  error: unknown,
  form: FormData | null,
  t: T,
  options: ConsoleFailureOptions & { answer?: X } = {},
) {
  const refusal = asRefusal(error, options);
  if (!refusal) throw error;
  const message = t(refusal.message, refusal.params);
  const values = form ? { ...formValues(form, NEVER_ECHOED), ...options.values } : options.values;
  const answer: ConsoleAnswer = {
    errors: refusal.field ? { [refusal.field]: [message] } : {},
    ...(values ? { values } : {}),
    ...(refusal.field ? (refusal.fix ? { formError: t(refusal.fix) } : {}) : { formError: message }),
    ...(refusal.code === "version_conflict" ? { conflict: true } : {}),
  };
  return data({ ...answer, ...options.answer } as ConsoleAnswer & X, { status: options.status ?? refusal.status });
}

/** What a refused form answers: messages beside fields, the line above the form, the values as typed. */
export type ConsoleAnswer = {
  errors: Record<string, string[]>;
  values?: Record<string, string>;
  formError?: string;
  conflict?: boolean;
};

type Resolved = {
  code: string;
  field: string | null;
  status: number;
  message: MessageKey;
  fix: MessageKey | undefined;
  params: Record<string, string> | undefined;
};

function asRefusal(error: unknown, options: ConsoleFailureOptions): Resolved | null {
  const wording = options.wording as Record<string, MessageKey | undefined> | undefined;
  const fields = options.fields as Record<string, string | undefined> | undefined;
  if (isRefusal(error)) {
    return {
      code: error.code,
      field: fields?.[error.code] ?? error.field,
      status: error.status,
      message: wording?.[error.code] ?? error.messageKey,
      fix: error.fixKey,
      params: { ...error.params, ...options.params },
    };
  }
  if (error instanceof LoyaltyError) {
    return {
      code: error.code,
      field: fields?.[error.code] ?? null,
      status: error.status,
      message: wording?.[error.code] ?? wording?.["*"] ?? (loyaltyErrorMessage(error.code) as MessageKey),
      fix: undefined,
      params: options.params,
    };
  }
  return null;
}

/** Whether the error is the loyalty area's refusal with this code (for a page that answers it otherwise). */
export function isLoyaltyRefusal(error: unknown, code: LoyaltyErrorCode): error is LoyaltyError {
  return error instanceof LoyaltyError && error.code === code;
}
