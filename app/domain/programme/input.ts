import { type CalendarDate, fromTaipeiWallClock, parseIsoDate, taipeiIsoDate } from "~/lib/time";

/**
 * What the console's reward and rules forms may contain (issue 14, ADR 029): pure, shared by the
 * domain and the routes, tested table-driven. Problems come back per field as stable codes
 * (`required`, `tooLong`…) with a parameter; the page turns them into words in its language.
 */

export type InputProblem = { code: ProblemCode; param?: number | string };
export type ProblemCode =
  | "required"
  | "tooLong"
  | "notWholeNumber"
  | "tooSmall"
  | "tooLarge"
  | "invalidChoice"
  | "invalidDate"
  | "untilBeforeFrom"
  | "invalidImagePath"
  | "imageMissing"
  | "thresholdsOrder"
  | "multipliersOrder"
  | "dateInPast"
  | "beforeScheduled"
  | "dateTaken"
  | "invalidMoney";
export type Problems = Record<string, InputProblem[]>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: Problems };

export const NOTE_MAX = 200;

type Get = (name: string) => string;

function getter(form: FormData | Record<string, string>): Get {
  return form instanceof FormData
    ? (name) => {
        const v = form.get(name);
        return typeof v === "string" ? v : "";
      }
    : (name) => form[name] ?? "";
}

class Collector {
  problems: Problems = {};
  add(field: string, code: ProblemCode, param?: number | string) {
    this.problems[field] ??= [];
    this.problems[field].push(param === undefined ? { code } : { code, param });
  }
  get ok() {
    return Object.keys(this.problems).length === 0;
  }

  text(get: Get, field: string, max: number, required: boolean): string {
    const value = get(field).trim();
    if (!value) {
      if (required) this.add(field, "required");
      return "";
    }
    if ([...value].length > max) this.add(field, "tooLong", max);
    return value;
  }

  /** A whole number typed as people type it ("1,200", full-width digits); empty → null. */
  int(get: Get, field: string, min: number, max: number, required: boolean): number | null {
    const raw = normaliseDigits(get(field)).replace(/[,\s]/g, "");
    if (!raw) {
      if (required) this.add(field, "required");
      return null;
    }
    if (!/^[+-]?\d+$/.test(raw)) {
      this.add(field, "notWholeNumber");
      return null;
    }
    const n = Number(raw);
    if (n < min) this.add(field, "tooSmall", min);
    else if (n > max) this.add(field, "tooLarge", max);
    return n;
  }

  /** A Taipei calendar day "YYYY-MM-DD"; empty → null. */
  date(get: Get, field: string, required: boolean): CalendarDate | null {
    const raw = get(field).trim();
    if (!raw) {
      if (required) this.add(field, "required");
      return null;
    }
    const date = parseIsoDate(raw, 2000);
    if (!date) this.add(field, "invalidDate");
    return date;
  }
}

export function normaliseDigits(value: string): string {
  return value.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)).replace(/[−－]/g, "-");
}

function taipeiIsoDateOf(d: CalendarDate): string {
  return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
}

// ---------------------------------------------------------------------------------------------
// Rules

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
};

export const RULE_FIELDS = [
  "amountPerPoint",
  "silverSpend",
  "goldSpend",
  "basicMultiplier",
  "silverMultiplier",
  "goldMultiplier",
  "welcomePoints",
  "birthdayPoints",
  "pointValue",
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

/**
 * A new version of the rules and the Taipei day it applies from: today or later, and not before a
 * version already scheduled (which would otherwise take over again at its own date).
 */
export function parseRulesForm(
  form: FormData | Record<string, string>,
  context: { now: Date; latestScheduled: Date | null },
): Parsed<{ rules: RuleFields; effectiveDate: CalendarDate; note: string }> {
  const get = getter(form);
  const c = new Collector();
  const amountPerPoint = c.int(get, "amountPerPoint", 1, 100_000, true);
  const silverSpend = c.int(get, "silverSpend", 1, 100_000_000, true);
  const goldSpend = c.int(get, "goldSpend", 1, 100_000_000, true);
  if (silverSpend !== null && goldSpend !== null && goldSpend <= silverSpend) c.add("goldSpend", "thresholdsOrder");
  const multipliers = (["basic", "silver", "gold"] as const).map((tier) => {
    const field = `${tier}Multiplier`;
    const raw = get(field);
    if (!raw.trim()) {
      c.add(field, "required");
      return null;
    }
    const value = parsePermille(raw);
    if (value === null) c.add(field, "invalidMoney");
    else if (value < 100) c.add(field, "tooSmall", "0.1");
    else if (value > 10_000) c.add(field, "tooLarge", "10");
    return value;
  });
  const [basic, silver, gold] = multipliers;
  if (basic != null && silver != null && gold != null && !(basic <= silver && silver <= gold)) {
    c.add("goldMultiplier", "multipliersOrder");
  }
  const welcomeEnabled = get("welcomeEnabled") === "on";
  const birthdayEnabled = get("birthdayEnabled") === "on";
  const welcomePoints = c.int(get, "welcomePoints", 0, 100_000, true);
  const birthdayPoints = c.int(get, "birthdayPoints", 0, 100_000, true);
  const pointValueRaw = get("pointValue");
  let pointValueCents: number | null = null;
  if (!pointValueRaw.trim()) c.add("pointValue", "required");
  else {
    pointValueCents = parseCents(pointValueRaw);
    if (pointValueCents === null) c.add("pointValue", "invalidMoney");
    else if (pointValueCents < 1) c.add("pointValue", "tooSmall", "0.01");
  }
  const note = c.text(get, "note", NOTE_MAX, false);
  const effectiveDate = c.date(get, "effectiveDate", true);
  if (effectiveDate) {
    const iso = taipeiIsoDateOf(effectiveDate);
    if (iso < taipeiIsoDate(context.now)) c.add("effectiveDate", "dateInPast");
    else if (context.latestScheduled && iso <= taipeiIsoDate(context.latestScheduled)) {
      // One version per date: the save itself refuses a taken date atomically (scheduleRules); this tells at once.
      const latest = taipeiIsoDate(context.latestScheduled);
      c.add("effectiveDate", iso === latest ? "dateTaken" : "beforeScheduled", latest);
    }
  }
  if (
    !c.ok ||
    amountPerPoint === null ||
    silverSpend === null ||
    goldSpend === null ||
    basic == null ||
    silver == null ||
    gold == null ||
    welcomePoints === null ||
    birthdayPoints === null ||
    pointValueCents === null ||
    !effectiveDate
  ) {
    return { ok: false, problems: c.problems };
  }
  return {
    ok: true,
    value: {
      rules: {
        amountPerPoint,
        silverSpend,
        goldSpend,
        basicMultiplierPermille: basic,
        silverMultiplierPermille: silver,
        goldMultiplierPermille: gold,
        welcomeEnabled,
        welcomePoints,
        birthdayEnabled,
        birthdayPoints,
        pointValueCents,
      },
      effectiveDate,
      note,
    },
  };
}

/** When a version for that Taipei day starts: at once if it is today, else at 00:00 that day. */
export function effectiveInstant(date: CalendarDate, now: Date): Date {
  const start = fromTaipeiWallClock(date);
  return start <= now ? now : start;
}
