import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { LoyaltyError } from "~/domain/loyalty/errors";
import { bindConsultant } from "~/domain/staff/clerk.server";
import { StaffError } from "~/domain/staff/errors";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { parseForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { consoleAudit } from "./console.server";
import { getApp } from "./context.server";

/** The consultant form (ADR 042): `intent=consultant`, the chosen staff member's id, or empty to remove. */
export const consultantSchema = z.object({
  intent: z.literal("consultant"),
  consultant: z
    .string()
    .default("")
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .max(100)
        .refine((value) => !/\p{Cc}/u.test(value)),
    ),
});

export function isConsultantForm(form: FormData): boolean {
  return form.get("intent") === "consultant";
}

/**
 * The consultant form's action on the counter's member summary and the console's member page: the form is checked,
 * the binding made by the one domain function (permission, audit); a bad form or an unknown consultant is answered
 * beside the field, a refusal is the console's 403.
 */
export async function consultantAction(
  context: Readonly<RouterContextProvider>,
  request: Request,
  memberId: string,
  form: FormData,
) {
  const actor = requirePermission(context, "member.consultant");
  const t = serverT(request);
  const parsed = parseForm(consultantSchema, form);
  if (!parsed.ok) {
    return data({ consultant: { error: t("console.clerk.consultant.invalid") } }, { status: 400 });
  }
  const app = getApp(context);
  try {
    const { changed } = await bindConsultant(
      app.db,
      actor,
      memberId,
      parsed.data.consultant || null,
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
    return { consultant: { saved: true, changed } };
  } catch (error) {
    if (error instanceof LoyaltyError) throw data(null, { status: 404, statusText: "Not Found" });
    if (error instanceof StaffError) {
      return data({ consultant: { error: t("console.clerk.consultant.invalid") } }, { status: 400 });
    }
    throw error;
  }
}
