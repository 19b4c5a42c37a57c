import { z } from "zod";
import { normalizeTaiwanMobile } from "~/domain/members/taiwan";
import type { Translate } from "~/lib/i18n";

/** Schemas of the account forms; messages come from the reader's catalog. */
export const phoneSchema = (t: Translate) =>
  z
    .string({ error: t("auth.phone.invalid") })
    .max(20, t("auth.phone.invalid"))
    .transform((v, ctx) => {
      const normalized = normalizeTaiwanMobile(v);
      if (!normalized) {
        ctx.addIssue({ code: "custom", message: t("auth.phone.invalid") });
        return z.NEVER;
      }
      return normalized;
    });

export const emailSchema = (t: Translate) =>
  z
    .string({ error: t("auth.email.invalid") })
    .trim()
    .toLowerCase()
    .max(254, t("auth.email.invalid"))
    .pipe(z.email({ error: t("auth.email.invalid") }));

export const codeSchema = (t: Translate) =>
  z
    .string({ error: t("auth.code.format") })
    .trim()
    .regex(/^\d{6}$/, t("auth.code.format"));

export const newPasswordSchema = (t: Translate) =>
  z
    .object({
      password: z
        .string({ error: t("auth.password.tooShort") })
        .min(8, t("auth.password.tooShort"))
        .max(128, t("auth.password.tooLong")),
      confirmPassword: z.string({ error: t("auth.password.mismatch") }),
    })
    .refine((v) => v.password === v.confirmPassword, {
      path: ["confirmPassword"],
      message: t("auth.password.mismatch"),
    });

export const signupSendSchema = (t: Translate) =>
  z.object({
    phone: phoneSchema(t),
    consent: z.literal("on", { error: t("auth.consent.required") }),
  });

export const loginSchema = (t: Translate) =>
  z.discriminatedUnion("method", [
    z.object({
      method: z.literal("phone"),
      phone: phoneSchema(t),
      password: z.string().min(1, t("form.required")).max(128),
    }),
    z.object({
      method: z.literal("email"),
      email: emailSchema(t),
      password: z.string().min(1, t("form.required")).max(128),
    }),
  ]);
