import { REWARD_KINDS, type RewardKind } from "@platform/db/schema/loyalty";
import { addDays, type CalendarDate, fromTaipeiWallClock, parseIsoDate } from "~/lib/time";

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

export const REWARD_NAME_MAX = 60;
export const REWARD_TEXT_MAX = 120;
export const REASON_MAX = 200;
export const NOTE_MAX = 200;
export const IMAGE_PATH_MAX = 300;
const MAX_POINTS = 1_000_000;
const MAX_STOCK = 1_000_000;

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

// ---------------------------------------------------------------------------------------------
// Rewards

export type RewardFields = {
  name: string;
  kind: RewardKind;
  amountOff: number | null;
  pointsCost: number;
  perMemberLimit: number | null;
  /** First day it is offered (Taipei, from 00:00), null = now. */
  validFrom: Date | null;
  /** Last day it is offered (Taipei, to the end of the day), null = no end. */
  validUntil: Date | null;
  /** Null = every store. */
  storeIds: string[] | null;
  couponValidDays: number;
  /** A picture given as a same-origin path (rewards made before the image upload); null with `imageId`. */
  image: { src: string; alt: { "zh-TW": string; en: string } } | null;
  /** An uploaded image (ADR 028); its alt texts are the image's. The save checks it exists. */
  imageId: string | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The edit form; `stock` (null = unlimited) only when creating (afterwards it changes by adjustments). */
export function parseRewardForm(
  form: FormData | Record<string, string>,
  options: { knownStoreIds: readonly string[]; withStock: boolean },
): Parsed<RewardFields & { stock: number | null }> {
  const get = getter(form);
  const c = new Collector();
  const name = c.text(get, "name", REWARD_NAME_MAX, true);
  const kindRaw = get("kind");
  const kind = (REWARD_KINDS as readonly string[]).includes(kindRaw) ? (kindRaw as RewardKind) : null;
  if (!kind) c.add("kind", kindRaw ? "invalidChoice" : "required");
  const amountOff = kind === "amount-off" ? c.int(get, "amountOff", 1, 100_000, true) : null;
  const pointsCost = c.int(get, "pointsCost", 1, MAX_POINTS, true);
  const stock = options.withStock ? c.int(get, "stock", 0, MAX_STOCK, false) : null;
  const perMemberLimit = c.int(get, "perMemberLimit", 1, 1000, false);
  const couponValidDays = c.int(get, "couponValidDays", 1, 3650, true);
  const from = c.date(get, "validFrom", false);
  const until = c.date(get, "validUntil", false);
  if (from && until && taipeiIsoDateOf(until) < taipeiIsoDateOf(from)) c.add("validUntil", "untilBeforeFrom");
  const storeIds = form instanceof FormData ? form.getAll("storeIds").map(String) : (get("storeIds") || "").split(",");
  const chosen = [...new Set(storeIds.filter(Boolean))];
  if (chosen.some((id) => !options.knownStoreIds.includes(id))) c.add("storeIds", "invalidChoice");
  // An uploaded image wins; otherwise a path kept from before the upload (same-origin only: never a
  // scheme, a host or a quote) with its alt texts.
  const imageIdRaw = get("imageId").trim();
  const imageId = imageIdRaw ? imageIdRaw.toLowerCase() : null;
  if (imageId && !UUID.test(imageId)) c.add("imageId", "imageMissing");
  const src = imageId ? "" : c.text(get, "imageSrc", IMAGE_PATH_MAX, false);
  const altZh = src ? c.text(get, "imageAltZh", REWARD_TEXT_MAX, true) : "";
  const altEn = src ? c.text(get, "imageAltEn", REWARD_TEXT_MAX, true) : "";
  if (src && !/^\/(?!\/)[A-Za-z0-9._~\-/]+$/.test(src)) c.add("imageSrc", "invalidImagePath");
  if (!c.ok || !kind || pointsCost === null || couponValidDays === null) return { ok: false, problems: c.problems };
  return {
    ok: true,
    value: {
      name,
      kind,
      amountOff,
      pointsCost,
      stock,
      perMemberLimit,
      validFrom: from ? fromTaipeiWallClock(from) : null,
      validUntil: until ? fromTaipeiWallClock(addDays(until, 1)) : null,
      storeIds: chosen.length ? chosen : null,
      couponValidDays,
      image: src ? { src, alt: { "zh-TW": altZh, en: altEn } } : null,
      imageId,
    },
  };
}

function taipeiIsoDateOf(d: CalendarDate): string {
  return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
}

export type StockChange = { kind: "delta"; delta: number } | { kind: "set"; stock: number | null };

/** The stock form: change by a signed amount, or (for an unlimited reward) set one, or make it unlimited. */
export function parseStockForm(
  form: FormData | Record<string, string>,
  currentlyUnlimited: boolean,
): Parsed<{ change: StockChange; reason: string }> {
  const get = getter(form);
  const c = new Collector();
  const reason = c.text(get, "reason", REASON_MAX, true);
  let change: StockChange | null = null;
  if (get("unlimited") === "on") change = { kind: "set", stock: null };
  else if (currentlyUnlimited) {
    const n = c.int(get, "stock", 0, MAX_STOCK, true);
    if (n !== null) change = { kind: "set", stock: n };
  } else {
    const n = c.int(get, "delta", -MAX_STOCK, MAX_STOCK, true);
    if (n === 0) c.add("delta", "tooSmall", 1);
    if (n !== null) change = { kind: "delta", delta: n };
  }
  if (!c.ok || !change) return { ok: false, problems: c.problems };
  return { ok: true, value: { change, reason } };
}
