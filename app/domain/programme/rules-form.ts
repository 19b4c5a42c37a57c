import { z } from "zod";
import type { Translate } from "~/lib/i18n";
import { type CalendarDate, fromTaipeiWallClock, parseIsoDate, taipeiIsoDate } from "~/lib/time";
import { NOTE_MAX, normaliseDigits, type ProblemCode } from "./input";

/**
 * The programme rules form (issue 14, ADR 029; ADR 008: one parse path): a new version of the rules and the
 * Taipei day it applies from: today or later, and not before a version already scheduled (which would otherwise
 * take over again at its own date). A Zod schema built with the reader's catalog, run by `parseForm`; every
 * field's problems are told at once, the orderings (thresholds, multipliers) too.
 */

export type RuleFields = {
  amountPerPoint: number;
  silverSpend: number;
  goldSpend: number;
  basicMultiplierPermille: number;
  silverMultiplierPermille: number;
  goldMultiplierPermille: number;
  welcomeEnabled: boolean;
  welcomePoints: number;
  birthdayEnabled: boolean;
  birthdayPoints: number;
  pointValueCents: number;
  /** Paying with points (issue 36): at most this % of a purchase's net amount. */
  maxSpendPercent: number;
  /** Points for a kept showroom visit (issue 37, ADR 045); absent: as in the version before. */
  keptVisitEnabled?: boolean;
  keptVisitPoints?: number;
  /** The referral programme (issue 38, ADR 053); absent: as in the version before. */
  referralEnabled?: boolean;
  referralPoints?: number;
  referralMinAmount?: number;
  referralMonthlyCap?: number;
  referralWindowDays?: number;
  /** Trade accounts' multiplier on their own purchases (issue 38 part 2, ADR 057), ‰; absent: as before. */
  tradeMultiplierPermille?: number;
  /** The referral's reward (ADR 053): points, or a coupon of a catalogue reward (its id). */
  referralRewardKind?: "points" | "coupon";
  referralRewardId?: string | null;
};

export type RulesInput = { rules: RuleFields; effectiveDate: CalendarDate; note: string };

/** The form's fields (every one read as text; a checkbox is "on" or absent). */
const FIELDS = [
  "amountPerPoint",
  "silverSpend",
  "goldSpend",
  "basicMultiplier",
  "silverMultiplier",
  "goldMultiplier",
  "welcomeEnabled",
  "welcomePoints",
  "birthdayEnabled",
  "birthdayPoints",
  "pointValue",
  "maxSpendPercent",
  "keptVisitEnabled",
  "keptVisitPoints",
  "referralEnabled",
  "referralPoints",
  "referralMinAmount",
  "referralMonthlyCap",
  "referralWindowDays",
  "tradeMultiplier",
  "referralRewardKind",
  "referralRewardId",
  "note",
  "effectiveDate",
] as const;

/** "1.2" → 1200 (three decimals at most); null when it is not such a number. */
export function parsePermille(raw: string): number | null {
  const m = /^(\d{1,2})(?:\.(\d{1,3}))?$/.exec(normaliseDigits(raw).trim());
  if (!m) return null;
  return Number(m[1]) * 1000 + Number((m[2] ?? "").padEnd(3, "0"));
}

/** "1" or "0.5" NT$ → hundredths (two decimals at most); null when it is not such an amount. */
export function parseCents(raw: string): number | null {
  const m = /^(\d{1,5})(?:\.(\d{1,2}))?$/.exec(normaliseDigits(raw).replace(/,/g, "").trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

export function formatPermille(permille: number): string {
  return (permille / 1000).toString();
}

export function formatCents(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/** A problem's words: `console.programme.error.<code>`, a date parameter written as the console writes dates. */
export function problemText(t: Translate, code: ProblemCode, param?: number | string): string {
  const max = param === undefined ? undefined : String(param).replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$1/$2/$3");
  return t(`console.programme.error.${code}`, max === undefined ? undefined : { max });
}

/** The schema of the rules form, for the reader's language and this moment (today, the version scheduled last). */
export function rulesSchema(t: Translate, context: { now: Date; latestScheduled: Date | null }) {
  const raw = z.object(
    Object.fromEntries(FIELDS.map((f) => [f, z.string().default("")])) as Record<
      (typeof FIELDS)[number],
      z.ZodDefault<z.ZodString>
    >,
  );
  return raw.transform((form, ctx): RulesInput => {
    let ok = true;
    const add = (field: string, code: ProblemCode, param?: number | string) => {
      ok = false;
      ctx.addIssue({ code: "custom", path: [field], message: problemText(t, code, param) });
    };
    /** A whole number typed as people type it ("1,200", full-width digits). */
    const int = (field: (typeof FIELDS)[number], min: number, max: number): number | null => {
      const value = normaliseDigits(form[field]).replace(/[,\s]/g, "");
      if (!value || !/^[+-]?\d+$/.test(value)) {
        add(field, value ? "notWholeNumber" : "required");
        return null;
      }
      const n = Number(value);
      if (n < min) add(field, "tooSmall", min);
      else if (n > max) add(field, "tooLarge", max);
      return n;
    };
    const amountPerPoint = int("amountPerPoint", 1, 100_000);
    const silverSpend = int("silverSpend", 1, 100_000_000);
    const goldSpend = int("goldSpend", 1, 100_000_000);
    if (silverSpend !== null && goldSpend !== null && goldSpend <= silverSpend) add("goldSpend", "thresholdsOrder");
    const [basic, silver, gold] = (["basicMultiplier", "silverMultiplier", "goldMultiplier"] as const).map((field) => {
      const value = parsePermille(form[field]);
      if (!form[field].trim()) add(field, "required");
      else if (value === null) add(field, "invalidMoney");
      else if (value < 100) add(field, "tooSmall", "0.1");
      else if (value > 10_000) add(field, "tooLarge", "10");
      return value;
    });
    if (basic != null && silver != null && gold != null && !(basic <= silver && silver <= gold)) {
      add("goldMultiplier", "multipliersOrder");
    }
    const welcomePoints = int("welcomePoints", 0, 100_000);
    const birthdayPoints = int("birthdayPoints", 0, 100_000);
    let pointValueCents: number | null = null;
    if (!form.pointValue.trim()) add("pointValue", "required");
    else {
      pointValueCents = parseCents(form.pointValue);
      if (pointValueCents === null) add("pointValue", "invalidMoney");
      else if (pointValueCents < 1) add("pointValue", "tooSmall", "0.01");
    }
    const maxSpendPercent = int("maxSpendPercent", 0, 100);
    // Points for a kept visit (issue 37): a number when the rule is on; left empty while off, it stays as it was.
    const keptVisitEnabled = form.keptVisitEnabled === "on";
    const keptVisitPoints =
      keptVisitEnabled || form.keptVisitPoints.trim() ? int("keptVisitPoints", 0, 100_000) : undefined;
    // The referral programme (issue 38): read when the form sends it (a form without it keeps it as it was).
    const referralSent = form.referralPoints.trim() !== "";
    // The reward's kind (a form without it keeps it as it was) and, for a coupon, the reward:
    // a uuid here; that it is one the catalogue offers is checked by the save (referralRewardChoices).
    const referralReward = (): Pick<RuleFields, "referralRewardKind" | "referralRewardId"> => {
      const kind = form.referralRewardKind.trim();
      if (!kind) return {};
      if (kind !== "points" && kind !== "coupon") {
        add("referralRewardKind", "invalidChoice");
        return {};
      }
      if (kind === "points") return { referralRewardKind: "points", referralRewardId: null };
      const id = form.referralRewardId.trim();
      if (!id) add("referralRewardId", "required");
      else if (!z.string().uuid().safeParse(id).success) add("referralRewardId", "invalidChoice");
      return { referralRewardKind: "coupon", referralRewardId: id };
    };
    const referral = referralSent
      ? {
          referralEnabled: form.referralEnabled === "on",
          referralPoints: int("referralPoints", 0, 100_000),
          referralMinAmount: int("referralMinAmount", 1, 100_000_000),
          referralMonthlyCap: int("referralMonthlyCap", 0, 1_000),
          referralWindowDays: int("referralWindowDays", 0, 365),
          ...referralReward(),
        }
      : null;
    // The trade accounts' multiplier (issue 38 part 2, ADR 057), a setting of the referral programme: 1–3, read when
    // the form sends it (a form without it keeps it as it was).
    let tradeMultiplierPermille: number | undefined;
    if (form.tradeMultiplier.trim()) {
      const value = parsePermille(form.tradeMultiplier);
      if (value === null) add("tradeMultiplier", "invalidMoney");
      else if (value < 1000) add("tradeMultiplier", "tooSmall", "1");
      else if (value > 3000) add("tradeMultiplier", "tooLarge", "3");
      else tradeMultiplierPermille = value;
    }
    const note = form.note.trim();
    if ([...note].length > NOTE_MAX) add("note", "tooLong", NOTE_MAX);
    const effectiveDate = form.effectiveDate.trim() ? parseIsoDate(form.effectiveDate.trim(), 2000) : null;
    if (!form.effectiveDate.trim()) add("effectiveDate", "required");
    else if (!effectiveDate) add("effectiveDate", "invalidDate");
    else {
      const iso = isoOf(effectiveDate);
      const latest = context.latestScheduled ? taipeiIsoDate(context.latestScheduled) : null;
      if (iso < taipeiIsoDate(context.now)) add("effectiveDate", "dateInPast");
      // One version per date: the save itself refuses a taken date atomically (scheduleRules); this tells at once.
      else if (latest && iso <= latest) add("effectiveDate", iso === latest ? "dateTaken" : "beforeScheduled", latest);
    }
    if (!ok) return z.NEVER;
    return {
      rules: {
        amountPerPoint: amountPerPoint as number,
        silverSpend: silverSpend as number,
        goldSpend: goldSpend as number,
        basicMultiplierPermille: basic as number,
        silverMultiplierPermille: silver as number,
        goldMultiplierPermille: gold as number,
        welcomeEnabled: form.welcomeEnabled === "on",
        welcomePoints: welcomePoints as number,
        birthdayEnabled: form.birthdayEnabled === "on",
        birthdayPoints: birthdayPoints as number,
        pointValueCents: pointValueCents as number,
        maxSpendPercent: maxSpendPercent as number,
        keptVisitEnabled,
        ...(keptVisitPoints === undefined ? {} : { keptVisitPoints: keptVisitPoints as number }),
        ...(referral
          ? {
              referralEnabled: referral.referralEnabled,
              referralPoints: referral.referralPoints as number,
              referralMinAmount: referral.referralMinAmount as number,
              referralMonthlyCap: referral.referralMonthlyCap as number,
              referralWindowDays: referral.referralWindowDays as number,
              ...(referral.referralRewardKind
                ? {
                    referralRewardKind: referral.referralRewardKind,
                    referralRewardId: referral.referralRewardId ?? null,
                  }
                : {}),
            }
          : {}),
        ...(tradeMultiplierPermille === undefined ? {} : { tradeMultiplierPermille }),
      },
      effectiveDate: effectiveDate as CalendarDate,
      note,
    };
  });
}

function isoOf(d: CalendarDate): string {
  return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
}

/** When a version for that Taipei day starts: at once if it is today, else at 00:00 that day. */
export function effectiveInstant(date: CalendarDate, now: Date): Date {
  const start = fromTaipeiWallClock(date);
  return start <= now ? now : start;
}
