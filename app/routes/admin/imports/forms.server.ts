import { z } from "zod";
import { CSV_TARGETS, type CsvMapping, type CsvTarget } from "~/domain/imports/record";
import type { serverT } from "~/lib/i18n.server";

/** The import pages' forms (ADR 008): Zod first, every message in the page's language beside its field. */

type T = ReturnType<typeof serverT>;

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on");

/** The options of a run (both off unless ticked). */
export const optionsShape = { welcome: checkbox, evaluateTiers: checkbox };

/** The Firebase upload's text fields: a sample sign-in is both fields or neither. */
export function firebaseSchema(t: T) {
  return z
    .object({
      sampleIdentifier: z.string().trim().max(254).default(""),
      samplePassword: z.string().max(200).default(""),
      ...optionsShape,
    })
    .superRefine((v, ctx) => {
      if (v.samplePassword && !v.sampleIdentifier) {
        ctx.addIssue({
          code: "custom",
          path: ["sampleIdentifier"],
          message: t("console.import.error.sampleIdentifier"),
        });
      }
      if (v.sampleIdentifier && !v.samplePassword) {
        ctx.addIssue({ code: "custom", path: ["samplePassword"], message: t("console.import.error.samplePassword") });
      }
    });
}

/** A source label: a short lowercase slug (it is half of every member's import key). */
export const SOURCE_PATTERN = /^[a-z0-9][a-z0-9-]{1,31}$/;

export function csvSchema(t: T) {
  return z.object({
    source: z
      .string()
      .trim()
      .transform((v) => v.toLowerCase())
      .pipe(
        z
          .string()
          .regex(SOURCE_PATTERN, t("console.import.error.source"))
          .refine((v) => v !== "firebase", t("console.import.error.sourceReserved")),
      ),
    encoding: z.enum(["auto", "utf-8", "big5"], { message: t("console.import.error.encoding") }).default("auto"),
  });
}

/**
 * The mapping form: field `col<i>` is the target of header i ("ignore" or a CSV target), each target at most once
 * (the second and later columns that chose it are told, beside their select), the phone required.
 */
export function mappingSchema(t: T, headers: readonly string[]) {
  const target = z.enum(["ignore", ...CSV_TARGETS], { message: t("console.import.error.mappingUnknown") });
  const columns = Object.fromEntries(headers.map((_, i) => [`col${i}`, target.default("ignore")]));
  return z
    .object({ intent: z.enum(["check", "preview"]).default("check"), ...columns, ...optionsShape })
    .superRefine((v, ctx) => {
      const values = v as unknown as Record<string, string>;
      const seen = new Set<string>();
      headers.forEach((_, i) => {
        const chosen = values[`col${i}`];
        if (!chosen || chosen === "ignore") return;
        if (seen.has(chosen)) {
          const words = t(`console.import.target.${chosen as CsvTarget}`);
          ctx.addIssue({
            code: "custom",
            path: [`col${i}`],
            message: t("console.import.error.mappingTwice", { target: words }),
          });
        }
        seen.add(chosen);
      });
      if (!seen.has("phoneNumber") && headers.length > 0) {
        ctx.addIssue({ code: "custom", path: ["col0"], message: t("console.import.error.mappingPhone") });
      }
    })
    .transform((v) => {
      const values = v as unknown as Record<string, string>;
      const mapping: CsvMapping = {};
      headers.forEach((header, i) => {
        mapping[header] = (values[`col${i}`] ?? "ignore") as CsvTarget | "ignore";
      });
      return { intent: v.intent, mapping, options: { welcome: v.welcome, evaluateTiers: v.evaluateTiers } };
    });
}
