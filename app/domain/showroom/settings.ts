import { z } from "zod";
import type { Translate } from "~/lib/i18n";

/**
 * The showroom's settings (issue 37, PRODUCT.md §12, ADR 050), pure: the fields, their defaults (the values the
 * code had before they became settings) and their bounds, and the console form's schema. The bounds are the
 * table's check constraint too (platform/db/schema/appointments.ts).
 */

export type ShowroomSettings = {
  /** A booking may be made up to this many Taipei days ahead (today + N is the last day). */
  bookingHorizonDays: number;
  /** A booking may be made, moved or cancelled until this many minutes before it starts. */
  changeCutoffMinutes: number;
  /** The day-before reminder goes from this hour (Taipei, 0–23). */
  reminderHour: number;
  /** A booking nobody checked in becomes a no-show this many minutes after its slot ends. */
  noShowGraceMinutes: number;
  /** Open samples (requested, ready or out) a member may have at once. */
  sampleLimit: number;
  /** A sample handed out is due back this many Taipei days later. */
  sampleLoanDays: number;
  /** The "due back soon" reminder goes this many days before the due day. */
  sampleReminderDays: number;
};

export const SHOWROOM_FIELDS = [
  "bookingHorizonDays",
  "changeCutoffMinutes",
  "reminderHour",
  "noShowGraceMinutes",
  "sampleLimit",
  "sampleLoanDays",
  "sampleReminderDays",
] as const satisfies readonly (keyof ShowroomSettings)[];
export type ShowroomField = (typeof SHOWROOM_FIELDS)[number];

/** PRODUCT.md §12's defaults: in force while no admin has saved a version. */
export const DEFAULT_SHOWROOM_SETTINGS: Readonly<ShowroomSettings> = Object.freeze({
  bookingHorizonDays: 60,
  changeCutoffMinutes: 120,
  reminderHour: 10,
  noShowGraceMinutes: 30,
  sampleLimit: 5,
  sampleLoanDays: 14,
  sampleReminderDays: 2,
});

/**
 * Each field's whole-number range. The cut-off may be 0 (until the start); the reminder hour stays inside the
 * hours a text message may go (09:00–21:00); the sample reminder comes before the due day (checked apart).
 */
export const SHOWROOM_BOUNDS: Readonly<Record<ShowroomField, { min: number; max: number }>> = Object.freeze({
  bookingHorizonDays: { min: 1, max: 365 },
  changeCutoffMinutes: { min: 0, max: 4320 },
  reminderHour: { min: 9, max: 20 },
  noShowGraceMinutes: { min: 1, max: 1440 },
  sampleLimit: { min: 1, max: 50 },
  sampleLoanDays: { min: 1, max: 90 },
  sampleReminderDays: { min: 1, max: 30 },
});

/** Whether stored values are a valid set (a row written by hand is read as the defaults otherwise). */
export function validShowroomSettings(values: ShowroomSettings): boolean {
  return (
    SHOWROOM_FIELDS.every((f) => {
      const v = values[f];
      return Number.isSafeInteger(v) && v >= SHOWROOM_BOUNDS[f].min && v <= SHOWROOM_BOUNDS[f].max;
    }) && values.sampleReminderDays < values.sampleLoanDays
  );
}

/** The cut-off as people say it: "2 小時" / "2 hours" when whole hours, else "90 分鐘" / "90 minutes". */
export function cutoffText(minutes: number, t: Translate): string {
  return minutes > 0 && minutes % 60 === 0
    ? t("appointments.duration.hours", { n: minutes / 60 })
    : t("appointments.duration.minutes", { n: minutes });
}

const WHOLE = /^\d{1,6}$/;

function wholeNumber(field: ShowroomField, t: Translate) {
  const { min, max } = SHOWROOM_BOUNDS[field];
  return z
    .string()
    .optional()
    .transform((raw = "", ctx) => {
      const text = raw.trim();
      if (text === "") {
        ctx.addIssue({ code: "custom", message: t("common.required") });
        return z.NEVER;
      }
      const value = WHOLE.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < min || value > max) {
        ctx.addIssue({
          code: "custom",
          message: t("console.showroom.error.range", { min: String(min), max: String(max) }),
        });
        return z.NEVER;
      }
      return value;
    });
}

/** The console form: every field a whole number in its range, and the sample reminder before the due day. */
export function showroomSettingsSchema(t: Translate) {
  return z
    .object({
      bookingHorizonDays: wholeNumber("bookingHorizonDays", t),
      changeCutoffMinutes: wholeNumber("changeCutoffMinutes", t),
      reminderHour: wholeNumber("reminderHour", t),
      noShowGraceMinutes: wholeNumber("noShowGraceMinutes", t),
      sampleLimit: wholeNumber("sampleLimit", t),
      sampleLoanDays: wholeNumber("sampleLoanDays", t),
      sampleReminderDays: wholeNumber("sampleReminderDays", t),
      baseVersion: z
        .string()
        .optional()
        .transform((raw = "") => (/^\d{1,15}$/.test(raw) ? Number(raw) : -1)),
    })
    .superRefine((v, ctx) => {
      if (v.sampleReminderDays >= v.sampleLoanDays) {
        ctx.addIssue({
          code: "custom",
          path: ["sampleReminderDays"],
          message: t("console.showroom.error.reminderAfterDue"),
        });
      }
    });
}
