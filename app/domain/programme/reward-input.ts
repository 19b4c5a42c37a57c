import { REWARD_KINDS, type RewardKind } from "@platform/db/schema/loyalty";
import { z } from "zod";
import type { MessageKey, Translate } from "~/lib/i18n";
import { addDays, fromTaipeiWallClock, lastValidTaipeiDay, parseIsoDate, taipeiIsoDate } from "~/lib/time";
import { normaliseDigits } from "./input";
import type { Reward } from "./rewards.server";

/**
 * What the console's reward and stock forms may contain (issue 14, ADR 029), as Zod schemas run by `parseForm`
 * (ADR 008) with the reader's catalog: every refusal is a message beside its field (`console.programme.error.*`).
 * Pure: shared by the domain and the routes, tested table-driven.
 */

export const REWARD_NAME_MAX = 60;
export const REWARD_TEXT_MAX = 120;
export const REASON_MAX = 200;
export const IMAGE_PATH_MAX = 300;
const MAX_POINTS = 1_000_000;
const MAX_STOCK = 1_000_000;

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

export type StockChange = { kind: "delta"; delta: number } | { kind: "set"; stock: number | null };

/** The ticked stores, a repeated field, as one comma-separated value (a form is parsed as one value per field). */
export function withStoreIds(form: FormData): FormData {
  const out = new FormData();
  for (const [key, value] of form) if (key !== "storeIds") out.append(key, value);
  out.set("storeIds", form.getAll("storeIds").map(String).join(","));
  return out;
}

/** A saved reward as the edit form's values (dates as Taipei days; the last day is the day before the end). */
export function rewardValues(r: Reward): Record<string, string> {
  return {
    name: r.name,
    kind: r.kind,
    amountOff: r.amountOff === null ? "" : String(r.amountOff),
    pointsCost: String(r.pointsCost),
    stock: r.stock === null ? "" : String(r.stock),
    perMemberLimit: r.perMemberLimit === null ? "" : String(r.perMemberLimit),
    validFrom: r.validFrom ? taipeiIsoDate(r.validFrom) : "",
    validUntil: r.validUntil ? lastValidTaipeiDay(r.validUntil) : "",
    couponValidDays: String(r.couponValidDays),
    storeIds: (r.storeIds ?? []).join(","),
    imageId: r.imageId ?? "",
    imageSrc: r.image?.src ?? "",
    imageAltZh: r.image?.alt["zh-TW"] ?? "",
    imageAltEn: r.image?.alt.en ?? "",
    version: String(r.version),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SAME_ORIGIN_PATH = /^\/(?!\/)[A-Za-z0-9._~\-/]+$/;

type Say = (code: string, param?: number) => string;
type Ctx = z.RefinementCtx;

function sayer(t: Translate): Say {
  return (code, param) =>
    t(`console.programme.error.${code}` as MessageKey, param === undefined ? undefined : { max: String(param) });
}

/** A whole number typed as people type it ("1,200", full-width digits): its problem, if any; empty is null. */
function intOf(raw: string, min: number, max: number, required: boolean, say: Say) {
  const text = normaliseDigits(raw).replace(/[,\s]/g, "");
  if (!text) return { value: null, problem: required ? say("required") : null };
  if (!/^[+-]?\d+$/.test(text)) return { value: null, problem: say("notWholeNumber") };
  const n = Number(text);
  if (n < min) return { value: n, problem: say("tooSmall", min) };
  return { value: n, problem: n > max ? say("tooLarge", max) : null };
}

/** The field's value checked, its message beside it. */
function check(ctx: Ctx, field: string, problem: string | null) {
  if (problem) ctx.addIssue({ code: "custom", path: [field], message: problem });
}

function textOf(raw: string, max: number, required: boolean, say: Say) {
  const value = raw.trim();
  if (!value) return { value, problem: required ? say("required") : null };
  return { value, problem: [...value].length > max ? say("tooLong", max) : null };
}

const raw = z.string().default("");

/**
 * The reward form; `stock` (null = unlimited) only when creating (afterwards it changes by adjustments). Run it
 * on `withStoreIds(form)`.
 */
export function rewardSchema(t: Translate, options: { knownStoreIds: readonly string[]; withStock: boolean }) {
  const say = sayer(t);
  const shape = {
    name: raw,
    kind: raw,
    amountOff: raw,
    pointsCost: raw,
    stock: raw,
    perMemberLimit: raw,
    couponValidDays: raw,
    validFrom: raw,
    validUntil: raw,
    storeIds: raw,
    imageId: raw,
    imageSrc: raw,
    imageAltZh: raw,
    imageAltEn: raw,
  };
  /** Every field read and checked at once; `ctx` given: its problems reported. */
  const read = (form: Record<keyof typeof shape, string>, ctx?: Ctx) => {
    const report = (field: string, problem: string | null) => (ctx ? check(ctx, field, problem) : undefined);
    const field = <V>(name: string, result: { value: V; problem: string | null }) => {
      report(name, result.problem);
      return result.value;
    };
    const name = field("name", textOf(form.name, REWARD_NAME_MAX, true, say));
    const kind = (REWARD_KINDS as readonly string[]).includes(form.kind) ? (form.kind as RewardKind) : null;
    if (!kind) report("kind", say(form.kind ? "invalidChoice" : "required"));
    const amountOff = kind === "amount-off" ? field("amountOff", intOf(form.amountOff, 1, 100_000, true, say)) : null;
    const pointsCost = field("pointsCost", intOf(form.pointsCost, 1, MAX_POINTS, true, say));
    const stock = options.withStock ? field("stock", intOf(form.stock, 0, MAX_STOCK, false, say)) : null;
    const perMemberLimit = field("perMemberLimit", intOf(form.perMemberLimit, 1, 1000, false, say));
    const couponValidDays = field("couponValidDays", intOf(form.couponValidDays, 1, 3650, true, say));
    const day = (name: "validFrom" | "validUntil") => {
      const date = form[name].trim() ? parseIsoDate(form[name].trim(), 2000) : null;
      if (form[name].trim() && !date) report(name, say("invalidDate"));
      return date;
    };
    const from = day("validFrom");
    const until = day("validUntil");
    if (from && until && fromTaipeiWallClock(until) < fromTaipeiWallClock(from))
      report("validUntil", say("untilBeforeFrom"));
    const chosen = [...new Set(form.storeIds.split(",").filter(Boolean))];
    if (chosen.some((id) => !options.knownStoreIds.includes(id))) report("storeIds", say("invalidChoice"));
    // An uploaded image wins; otherwise a path kept from before the upload (same-origin only: never a scheme, a
    // host or a quote) with its alt texts.
    const imageId = form.imageId.trim().toLowerCase() || null;
    if (imageId && !UUID.test(imageId)) report("imageId", say("imageMissing"));
    const src = imageId ? "" : field("imageSrc", textOf(form.imageSrc, IMAGE_PATH_MAX, false, say));
    const altZh = src ? field("imageAltZh", textOf(form.imageAltZh, REWARD_TEXT_MAX, true, say)) : "";
    const altEn = src ? field("imageAltEn", textOf(form.imageAltEn, REWARD_TEXT_MAX, true, say)) : "";
    if (src && !SAME_ORIGIN_PATH.test(src)) report("imageSrc", say("invalidImagePath"));
    return {
      name,
      kind: kind as RewardKind,
      amountOff,
      pointsCost: pointsCost as number,
      stock,
      perMemberLimit,
      validFrom: from ? fromTaipeiWallClock(from) : null,
      // The end of the offer (exclusive): the day after the last day offered, from 00:00 Taipei.
      validUntil: until ? fromTaipeiWallClock(addDays(until, 1)) : null,
      storeIds: chosen.length ? chosen : null,
      couponValidDays: couponValidDays as number,
      image: src ? { src, alt: { "zh-TW": altZh, en: altEn } } : null,
      imageId,
    } satisfies RewardFields & { stock: number | null };
  };
  return z
    .object(shape)
    .superRefine((form, ctx) => void read(form, ctx))
    .transform((form) => read(form));
}

/** The stock form: change by a signed amount, or (for an unlimited reward) set one, or make it unlimited. */
export function stockSchema(t: Translate, currentlyUnlimited: boolean) {
  const say = sayer(t);
  const read = (form: { reason: string; unlimited: string; stock: string; delta: string }, ctx?: Ctx) => {
    const report = (field: string, problem: string | null) => (ctx ? check(ctx, field, problem) : undefined);
    const reason = textOf(form.reason, REASON_MAX, true, say);
    report("reason", reason.problem);
    let change: StockChange = { kind: "set", stock: null };
    if (form.unlimited !== "on" && currentlyUnlimited) {
      const n = intOf(form.stock, 0, MAX_STOCK, true, say);
      report("stock", n.problem);
      change = { kind: "set", stock: n.value };
    } else if (form.unlimited !== "on") {
      const n = intOf(form.delta, -MAX_STOCK, MAX_STOCK, true, say);
      report("delta", n.value === 0 ? say("tooSmall", 1) : n.problem);
      change = { kind: "delta", delta: n.value ?? 0 };
    }
    return { change, reason: reason.value };
  };
  return z
    .object({ reason: raw, unlimited: raw, stock: raw, delta: raw })
    .superRefine((form, ctx) => void read(form, ctx))
    .transform((form) => read(form));
}
