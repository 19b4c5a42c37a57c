import { z } from "zod";
import type { Translate } from "~/lib/i18n";
import { VISIT_NOTE_MAX } from "./limits";

/**
 * The appointment page's forms (issue 37, ADR 045; ADR 008: one parse path): each names its `intent` and carries
 * the version it was opened at. A forged or malformed id, an unknown intent or a version that is not a number is a
 * 400 before any work; a note over its length and a day that is not a day are told beside their fields.
 */
export function visitActionSchema(t: Translate) {
  const version = z.coerce.number().int().min(1).max(1_000_000);
  return z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal("consultant"),
      version,
      // Empty: no consultant. Anything else must be a staff member of the store (checked by the domain).
      consultant: z
        .string()
        .trim()
        .max(64, t("console.visits.error.unknown_consultant"))
        .transform((v) => (v === "" ? null : v)),
    }),
    z.object({ intent: z.literal("cancel"), version }),
    z.object({ intent: z.literal("call"), version }),
    z.object({ intent: z.literal("followUpDone"), version }),
    z.object({
      intent: z.literal("note"),
      version,
      visitNote: z
        .string()
        .default("")
        .refine(
          (v) => v.length <= VISIT_NOTE_MAX,
          t("console.visits.error.noteTooLong", { max: String(VISIT_NOTE_MAX) }),
        ),
      followUpOn: z
        .string()
        .trim()
        .default("")
        .refine((v) => v === "" || /^\d{4}-\d{2}-\d{2}$/.test(v), t("console.visits.error.follow_up_date")),
    }),
  ]);
}

export type VisitAction = z.infer<ReturnType<typeof visitActionSchema>>;
