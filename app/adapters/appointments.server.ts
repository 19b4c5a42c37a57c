import { APPOINTMENT_KINDS } from "@platform/db/schema/appointments";
import { z } from "zod";
import { isRefusal } from "~/domain/refusals";
import { cutoffText } from "~/domain/showroom/settings";
import { formFailure, formValues } from "~/lib/forms.server";
import { slugId } from "~/lib/http.server";
import type { Translate } from "~/lib/i18n";

/**
 * Where a booking request meets the appointments domain (issue 37): the Zod schemas of the booking, reschedule
 * and cancel forms and of the booking page's query, and a domain refusal as the form's answer (the message beside
 * its field, the values as typed, the refusal's status).
 */

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

/** The booking page's query: each value on its own, a malformed one is dropped (the step asks again). */
export function bookingQuery(url: URL) {
  const pick = <T extends z.ZodType>(schema: T, name: string): z.infer<T> | null => {
    const parsed = schema.safeParse(url.searchParams.get(name) ?? undefined);
    return parsed.success ? parsed.data : null;
  };
  return {
    store: pick(slugId, "store"),
    kind: pick(z.enum(APPOINTMENT_KINDS), "kind"),
    date: pick(day, "date"),
    material: pick(slugId, "material"),
  };
}

export function bookingSchema(t: Translate) {
  const choose = t("appointments.error.choose");
  return z.object({
    store: z
      .string({ message: choose })
      .max(64, choose)
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, choose),
    kind: z.enum(APPOINTMENT_KINDS, { message: choose }),
    date: z.string({ message: choose }).regex(/^\d{4}-\d{2}-\d{2}$/, choose),
    time: z
      .string({ message: choose })
      .pipe(time.or(z.string().max(0)))
      .refine((v) => v !== "", choose),
    note: z
      .string()
      .max(500, t("appointments.error.noteTooLong"))
      .transform((v) => v.trim() || null)
      .optional()
      .transform((v) => v ?? null),
    city: z.string().max(40).optional(),
    district: z.string().max(40).optional(),
    street: z.string().max(160).optional(),
  });
}

export function rescheduleSchema(t: Translate) {
  const choose = t("appointments.error.choose");
  return z.object({
    version: z.coerce.number().int().min(1),
    date: z.string({ message: choose }).regex(/^\d{4}-\d{2}-\d{2}$/, choose),
    time: z
      .string({ message: choose })
      .pipe(time.or(z.string().max(0)))
      .refine((v) => v !== "", choose),
  });
}

/** Material ids from the form's checkboxes: slugs only, at most 10 (the domain checks they exist). */
export function materialIdsOf(form: FormData): string[] | null {
  const ids = form.getAll("materials").filter((v): v is string => typeof v === "string");
  const parsed = z.array(slugId).max(10).safeParse(ids);
  return parsed.success ? parsed.data : null;
}

/** A booking refusal as the form's answer; anything else is thrown on. */
export function appointmentFailure(error: unknown, form: FormData, t: Translate) {
  if (!isRefusal(error, "appointments")) throw error;
  // The cut-off in words ("2 小時" / "90 minutes") where the refusal names it.
  const minutes = Number(error.params?.cutoffMinutes ?? "");
  const message = t(error.messageKey, {
    ...error.params,
    ...(error.params && Number.isSafeInteger(minutes) ? { cutoff: cutoffText(minutes, t) } : {}),
  });
  const values = formValues(form);
  if (error.field) {
    return formFailure(
      {
        errors: { [error.field]: [message] },
        values,
        formError: error.fixKey ? t(error.fixKey) : undefined,
      },
      error.status,
    );
  }
  return formFailure({ errors: {}, values, formError: message }, error.status);
}
