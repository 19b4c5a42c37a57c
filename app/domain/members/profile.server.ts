import { z } from "zod";
import type { Translate } from "~/lib/i18n";
import { taipeiIsoDate } from "~/lib/time";
import { findDistrict } from "./address";
import { isValidEinvoiceCarrier, isValidTaxIdNumber } from "./taiwan";

export const GENDERS = ["male", "female", "undisclosed"] as const;
export type Gender = (typeof GENDERS)[number];

const optionalText = (max: number, t: Translate) =>
  z
    .string()
    .trim()
    .max(max, t("form.tooLong", { max }))
    .optional()
    .transform((v) => (v ? v : undefined));

/**
 * The member profile (sign-up step 3 and edit-info): one schema for the browser and the server.
 * Text is stored as typed (HTML is only ever rendered escaped).
 */
export function profileSchema(t: Translate, today = taipeiIsoDate(new Date())) {
  return z
    .object({
      nameZh: z
        .string({ error: t("profile.name.required") })
        .trim()
        .min(1, t("profile.name.required"))
        .max(50, t("form.tooLong", { max: 50 })),
      gender: z.enum(GENDERS, { error: t("profile.gender.invalid") }).default("male"),
      birthday: z
        .string()
        .optional()
        .transform((v) => (v ? v : undefined))
        .refine((v) => v === undefined || /^\d{4}-\d{2}-\d{2}$/.test(v), t("profile.birthday.invalid"))
        .refine((v) => v === undefined || !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), t("profile.birthday.invalid"))
        .refine((v) => v === undefined || v <= today, t("profile.birthday.future"))
        .refine((v) => v === undefined || v >= "1900-01-01", t("profile.birthday.invalid")),
      email: z
        .string()
        .trim()
        .max(254, t("form.tooLong", { max: 254 }))
        .optional()
        .transform((v) => (v ? v.toLowerCase() : undefined))
        .refine((v) => v === undefined || z.email().safeParse(v).success, t("auth.email.invalid")),
      companyName: optionalText(100, t),
      taxIdNumber: z
        .string()
        .trim()
        .optional()
        .transform((v) => (v ? v : undefined))
        .refine((v) => v === undefined || isValidTaxIdNumber(v), t("profile.taxId.invalid")),
      einvoiceCarrier: z
        .string()
        .trim()
        .optional()
        .transform((v) => (v ? v.toUpperCase() : undefined))
        .refine((v) => v === undefined || isValidEinvoiceCarrier(v), t("profile.carrier.invalid")),
      city: optionalText(10, t),
      district: optionalText(10, t),
      street: optionalText(200, t),
      marketingSms: z.literal("on").optional(),
      marketingEmail: z.literal("on").optional(),
      marketingLine: z.literal("on").optional(),
    })
    .superRefine((value, ctx) => {
      if (value.city && !value.district) {
        ctx.addIssue({ code: "custom", path: ["district"], message: t("profile.district.required") });
      }
      if (value.city && value.district && !findDistrict(value.city, value.district)) {
        ctx.addIssue({ code: "custom", path: ["district"], message: t("profile.district.invalid") });
      }
      if (value.street && !value.city) {
        ctx.addIssue({ code: "custom", path: ["city"], message: t("profile.city.requiredForStreet") });
      }
    });
}

export type ProfileInput = z.infer<ReturnType<typeof profileSchema>>;
