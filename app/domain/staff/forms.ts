import { z } from "zod";
import type { Translate } from "~/lib/i18n";
import { MAX_MANAGER_LIMIT, parsePoints } from "../loyalty/adjustment-input";

/**
 * The console's staff, API key and settings forms as Zod schemas (ADR 008: the route reads them with `parseForm`).
 * They read the form's shape only: the rules (a valid contact, a known store, a name of 1–50 characters) are the
 * domain functions' refusals (`StaffError`), answered by `consoleFailure` beside their fields.
 */

const text = (max = 300) =>
  z
    .string()
    .default("")
    .transform((value) => value.slice(0, max));

/** The stores ticked: repeated checkboxes, which the form's single values do not carry. */
export function storeIdsOf(form: FormData): string[] {
  return form.getAll("storeIds").map(String).slice(0, 200);
}

/** The stores ticked as one comma-separated value: what a refused staff form keeps to show them ticked again. */
export function storesKept(form: FormData): { storeIds: string } {
  return { storeIds: storeIdsOf(form).join(",") };
}

const access = (form: FormData) => ({
  role: text(),
  storeIds: z.preprocess(() => storeIdsOf(form), z.array(z.string())),
});

/** An invitation: contact, name, role and stores. */
export function invitationSchema(form: FormData) {
  return z.object({ contact: text(), displayName: text(), ...access(form) });
}

export const STAFF_INTENTS = ["access", "disable", "enable", "reset", "unlock", "code"] as const;
export type StaffIntent = (typeof STAFF_INTENTS)[number];

/** A change on a staff member's page: which one (an unknown intent is refused), and for access the role and stores. */
export function staffChangeSchema(form: FormData, t: Translate) {
  return z.object({
    intent: z.enum(STAFF_INTENTS, { error: t("console.staff.error.intent") }),
    ...access(form),
    // The clerk on the sale (ADR 042): the staff code, checked by setStaffCode.
    staffCode: text(20),
  });
}

/** Revoking an invitation (an unknown or malformed id is the domain's "already gone"). */
export const revokeInvitationSchema = z.object({ invitationId: text(100) });

/** The API keys page: a new key for a store (any intent but `revoke`), or revoking one. */
export const apiKeySchema = z.object({
  intent: text(20),
  keyId: text(100),
  storeId: text(),
  name: text(),
  // The `einvoice:read` scope (ADR 041): a ticked box on creation; "on"/"off" when changing a key's scopes.
  einvoiceRead: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});

/** The settings form: the manager's daily limit, 0 allowed (every manager adjustment then waits for an admin). */
export function settingsSchema(t: Translate) {
  return z.object({
    managerLimit: z
      .string()
      .optional()
      .transform((raw = "", ctx) => {
        const parsed = raw.trim() === "0" ? ({ ok: true, value: 0 } as const) : parsePoints(raw, MAX_MANAGER_LIMIT);
        if (parsed.ok && parsed.value >= 0) return parsed.value;
        const code = parsed.ok ? "negative" : parsed.error;
        const messages: Record<string, string> = {
          amount_too_large: t("console.settings.error.tooLarge", { max: MAX_MANAGER_LIMIT.toLocaleString("en-US") }),
          amount_required: t("common.required"),
        };
        ctx.addIssue({ code: "custom", message: messages[code] ?? t("console.settings.error.invalid") });
        return z.NEVER;
      }),
  });
}
