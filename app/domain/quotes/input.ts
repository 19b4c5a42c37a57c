import { QUOTE_UNITS, type QuoteUnit } from "@platform/db/schema/quotes";
import { z } from "zod";
import type { Translate } from "~/lib/i18n";
import { addDays, parseIsoDate, taipeiDate } from "~/lib/time";

/**
 * The quote forms, read with Zod before any work (issue 37 part 4, ADR 047). Pure: the member's request (lines
 * from their favourites: a material, a quantity in m² or pieces, a note), the staff's answer (a price per line,
 * the validity, a message), and the arithmetic of a line total in whole NT$.
 *
 * Field names carry the material id (`pick.<id>`, `qty.<id>`, `unit.<id>`, `note.<id>`) or the line's position
 * (`price.<n>`), so a refused form comes back with each message beside its own line and every value as typed.
 */

/** Open quotes (requested or answered) a member may have at once. */
export const OPEN_QUOTE_LIMIT = 10;
/** Lines in one quote. */
export const QUOTE_LINES_MAX = 20;
export const QUANTITY_MAX = 100_000;
/** A unit price, NT$. */
export const UNIT_PRICE_MAX = 10_000_000;
export const MESSAGE_MAX = 1000;
export const NOTE_MAX = 200;
/** How far ahead staff may set the validity (Taipei days). */
export const VALIDITY_MAX_DAYS = 365;

const MATERIAL_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const STORE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export type QuoteRequestLine = { materialId: string; quantity: string; unit: QuoteUnit; note: string };
export type QuoteRequestInput = { storeId: string; message: string; lines: QuoteRequestLine[] };

export type FieldErrors = Record<string, string[]>;
export type Parsed<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * A quantity as typed, as the exact decimal text stored (`numeric(10,2)`): m² with up to two decimals, pieces
 * whole; more than 0 and at most 100,000. Returns the message key of the problem, or the normalised text.
 */
export function parseQuantity(
  raw: string,
  unit: QuoteUnit,
): { ok: true; value: string } | { ok: false; problem: "required" | "number" | "whole" | "positive" | "max" } {
  const text = raw.trim().replace(/,/g, "");
  if (!text) return { ok: false, problem: "required" };
  if (!/^-?\d{1,9}(\.\d+)?$/.test(text)) return { ok: false, problem: "number" };
  const [whole = "0", fraction = ""] = text.replace(/^-/, "").split(".");
  if (text.startsWith("-") || /^0*$/.test(whole + fraction)) return { ok: false, problem: "positive" };
  if (unit === "piece" && /[1-9]/.test(fraction)) return { ok: false, problem: "whole" };
  if (fraction.replace(/0+$/, "").length > 2) return { ok: false, problem: "number" };
  const cents = Number(whole) * 100 + Number(fraction.replace(/0+$/, "").padEnd(2, "0"));
  if (cents > QUANTITY_MAX * 100) return { ok: false, problem: "max" };
  return { ok: true, value: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}` };
}

/** quantity (decimal text, two places) × unit price, rounded half up to whole NT$; exact (integer arithmetic). */
export function lineTotal(quantity: string, unitPrice: number): number {
  const [whole = "0", fraction = "0"] = quantity.split(".");
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
  return Number((cents * BigInt(unitPrice) + 50n) / 100n);
}

/** A quantity for people: "12.5", "3" (no trailing zeros). */
export function displayQuantity(quantity: string): string {
  return quantity.includes(".") ? quantity.replace(/\.?0+$/, "") : quantity;
}

const text = (max: number, t: Translate) =>
  z
    .string()
    .default("")
    .transform((v) => v.trim())
    .pipe(z.string().max(max, t("member.center.quotes.error.tooLong", { max })));

/** The member's request: the chosen lines in the order of the form, a store and a message. */
export function parseQuoteRequest(raw: Record<string, string>, t: Translate): Parsed<QuoteRequestInput> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };
  const storeId = (raw.storeId ?? "").trim();
  if (!storeId) add("storeId", t("member.center.quotes.error.storeRequired"));
  else if (storeId.length > 64 || !STORE_ID.test(storeId)) add("storeId", t("member.center.quotes.error.unknownStore"));
  const message = text(MESSAGE_MAX, t).safeParse(raw.message);
  if (!message.success) add("message", message.error.issues[0]?.message ?? "");

  const picked = Object.keys(raw)
    .filter((key) => key.startsWith("pick.") && raw[key] === "on")
    .map((key) => key.slice("pick.".length));
  const lines: QuoteRequestLine[] = [];
  if (picked.length === 0) add("lines", t("member.center.quotes.error.noLines"));
  if (picked.length > QUOTE_LINES_MAX)
    add("lines", t("member.center.quotes.error.tooManyLines", { max: QUOTE_LINES_MAX }));
  for (const id of picked.slice(0, QUOTE_LINES_MAX)) {
    if (id.length > 64 || !MATERIAL_ID.test(id)) {
      add("lines", t("member.center.quotes.error.unknownMaterial"));
      continue;
    }
    const unitRaw = raw[`unit.${id}`] ?? "";
    const unit = (QUOTE_UNITS as readonly string[]).includes(unitRaw) ? (unitRaw as QuoteUnit) : null;
    if (!unit) add(`unit.${id}`, t("member.center.quotes.error.unit"));
    const quantity = parseQuantity(raw[`qty.${id}`] ?? "", unit ?? "m2");
    if (!quantity.ok)
      add(`qty.${id}`, t(`member.center.quotes.error.quantity.${quantity.problem}`, { max: "100,000" }));
    const note = text(NOTE_MAX, t).safeParse(raw[`note.${id}`]);
    if (!note.success) add(`note.${id}`, note.error.issues[0]?.message ?? "");
    if (unit && quantity.ok && note.success)
      lines.push({ materialId: id, quantity: quantity.value, unit, note: note.data });
  }
  if (Object.keys(errors).length > 0 || !message.success) return { ok: false, errors };
  return { ok: true, data: { storeId, message: message.data, lines } };
}

export type QuoteAnswerInput = {
  version: number;
  prices: Map<number, number>;
  validUntil: string;
  staffMessage: string;
};

/**
 * Staff's answer: a whole NT$ price (0 or more) for each of the quote's lines, the last day it holds (from today
 * to a year ahead, Taipei) and a message. `positions` are the quote's lines.
 */
export function parseQuoteAnswer(
  raw: Record<string, string>,
  positions: readonly number[],
  now: Date,
  t: Translate,
): Parsed<QuoteAnswerInput> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };
  const prices = new Map<number, number>();
  for (const position of positions) {
    const field = `price.${position}`;
    const value = (raw[field] ?? "").trim().replace(/,/g, "");
    if (!value) add(field, t("console.quotes.error.priceRequired"));
    else if (/^-\d/.test(value)) add(field, t("console.quotes.error.priceNegative"));
    else if (!/^\d{1,9}$/.test(value)) add(field, t("console.quotes.error.priceWhole"));
    else if (Number(value) > UNIT_PRICE_MAX) add(field, t("console.quotes.error.priceMax", { max: "10,000,000" }));
    else prices.set(position, Number(value));
  }
  const validRaw = (raw.validUntil ?? "").trim();
  const valid = parseIsoDate(validRaw, 2000);
  const today = taipeiDate(now);
  const iso = (d: { year: number; month: number; day: number }) =>
    `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
  if (!validRaw) add("validUntil", t("console.quotes.error.validRequired"));
  else if (!valid) add("validUntil", t("console.quotes.error.validDate"));
  else if (iso(valid) < iso(today) || iso(valid) > iso(addDays(today, VALIDITY_MAX_DAYS)))
    add("validUntil", t("console.quotes.error.validRange", { days: VALIDITY_MAX_DAYS }));
  const staffMessage = (raw.staffMessage ?? "").trim();
  if (staffMessage.length > MESSAGE_MAX) add("staffMessage", t("console.quotes.error.tooLong", { max: MESSAGE_MAX }));
  const version = Number(raw.version ?? "");
  if (!Number.isSafeInteger(version) || version < 1) add("form", t("console.quotes.error.version"));
  if (Object.keys(errors).length > 0 || !valid) return { ok: false, errors };
  return { ok: true, data: { version, prices, validUntil: iso(valid), staffMessage } };
}
