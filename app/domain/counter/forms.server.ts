import { z } from "zod";
import { isCardCode } from "~/lib/card-code";
import type { MessageKey, Translate } from "~/lib/i18n";
import type { MemberQuery } from "../loyalty/member-lookup.server";
import { MAX_AMOUNT } from "../loyalty/purchases.server";
import { normalizeTaiwanMobile } from "../members/taiwan";
import { isFormKey } from "./idempotency.server";

/**
 * The counter's forms (ADR 022, ADR 008): one Zod schema each, read with `parseForm`, in the reader's words. Each
 * field's rule stays here once: an amount, a receipt number, a coupon code, the form's key.
 */

/** A text field: `read` tidies what was typed, `problem` names what is wrong with it (null when it is right). */
function field<T>(t: Translate, read: (raw: string) => T, problem: (value: T) => MessageKey | null) {
  return z
    .string()
    .default("")
    .transform((raw, ctx) => {
      const value = read(raw);
      const key = problem(value);
      if (!key) return value;
      ctx.addIssue({ code: "custom", message: t(key) });
      return z.NEVER;
    });
}

/** Digits as typed: spaces and thousands separators dropped, full-width digits (a Chinese keyboard) made plain. */
function amountText(raw: string): string {
  return raw
    .trim()
    .replace(/[\s,]/g, "")
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/^(\d+)\.0+$/, "$1");
}

/** Whole NT$ between 1 and the engine's maximum; each wrong kind has its own message. */
function amountProblem(text: string): MessageKey | null {
  if (!text) return "console.counter.amount.required";
  if (/^-\d+(\.\d+)?$/.test(text)) return "console.counter.amount.notPositive";
  if (/^\d+\.\d+$/.test(text)) return "console.counter.amount.fraction";
  if (!/^\d+$/.test(text)) return "console.counter.amount.notNumber";
  if (text.length > 12 || Number(text) > MAX_AMOUNT) return "console.counter.amount.tooLarge";
  if (Number(text) <= 0) return "console.counter.amount.notPositive";
  return null;
}

/** An amount typed at the counter, as a number. */
export const amountField = (t: Translate) => field(t, amountText, amountProblem).transform(Number);

/** A receipt number as printed: letters, digits, - and /, up to 40 characters (kept as typed, the POS's too). */
export const receiptField = (t: Translate) =>
  field(
    t,
    (raw) => raw.trim(),
    (text) => {
      if (!text) return "console.counter.receipt.required";
      return /^[A-Za-z0-9][A-Za-z0-9/-]{0,39}$/.test(text) ? null : "console.counter.receipt.invalid";
    },
  );

/** The key the form was rendered with (one booking per form); a missing or strange one: the form has expired. */
const formKeyField = (t: Translate) =>
  field(
    t,
    (raw) => raw,
    (key) => (isFormKey(key) ? null : "console.counter.form.expired"),
  );

const CARD_TOKEN = /^[A-Za-z0-9_-]{27}\.[A-Za-z0-9_-]{22}$/;

/**
 * Finding a member: a scanned card token, or what was typed (a card token, a phone in any spelling sign-up
 * accepts, or a member number). `scanned` says whether a refusal belongs above the form or beside the field.
 */
export function lookupSchema(t: Translate) {
  const text = z
    .string()
    .default("")
    .transform((raw) => raw.trim());
  return z.object({ cardToken: text, query: text }).transform((form, ctx) => {
    if (form.cardToken) return { scanned: true, query: { cardToken: form.cardToken.slice(0, 200) } as MemberQuery };
    const typed = form.query;
    if (!typed) {
      ctx.addIssue({ code: "custom", path: ["query"], message: t("common.required") });
      return z.NEVER;
    }
    let query: MemberQuery = { memberNumber: typed.slice(0, 40) };
    // A card's code typed (or sent by a handheld scanner that types): the server's token or an offline card's (ADR 043).
    if (CARD_TOKEN.test(typed) || isCardCode(typed)) query = { cardToken: typed.slice(0, 200) };
    else if (normalizeTaiwanMobile(typed)) query = { phone: typed };
    return { scanned: false, query };
  });
}

/**
 * Points to spend on the purchase (issue 36): empty is none; a whole number of points otherwise. Whether the member
 * may spend them (balance, share) the engine decides when it books (decideSpend), beside this field too.
 */
function pointsProblem(text: string): MessageKey | null {
  if (!text) return null;
  if (/^-\d+(\.\d+)?$/.test(text)) return "console.counter.points.negative";
  if (/^\d+\.\d+$/.test(text)) return "console.counter.points.fraction";
  if (!/^\d+$/.test(text)) return "console.counter.points.notNumber";
  if (text.length > 9) return "console.counter.points.tooLarge";
  return null;
}
export const pointsField = (t: Translate) =>
  field(t, amountText, pointsProblem).transform((text) => (text ? Number(text) : 0));

export const purchaseSchema = (t: Translate) =>
  z.object({
    receiptNumber: receiptField(t),
    netAmount: amountField(t),
    pointsToSpend: pointsField(t),
    // The member's confirmation code (ADR 052): empty, or 6 digits (spaces and full-width digits tidied).
    spendCode: field(t, amountText, (text) =>
      text === "" || /^\d{6}$/.test(text) ? null : "console.counter.spendCode.format",
    ),
    formKey: formKeyField(t),
  });

/** The refund's two looks before the booking (the address's `?receipt=` and then `&amount=`). */
export const receiptQuerySchema = (t: Translate) => z.object({ receipt: receiptField(t) });
export const amountQuerySchema = (t: Translate) => z.object({ amount: amountField(t) });

export const refundSchema = (t: Translate) =>
  z.object({ purchaseId: z.string().default(""), amount: amountField(t), formKey: formKeyField(t) });

/** A coupon code found (`intent=find`, the default) or used (`intent=use`, with the form's key). */
export function couponSchema(t: Translate) {
  const code = field(
    t,
    (raw) => raw.trim().slice(0, 64),
    (text) => (text ? null : "console.counter.code.required"),
  );
  return z
    .object({ code, intent: z.string().optional(), formKey: z.string().optional() })
    .transform(({ code, intent, formKey }, ctx) => {
      if (intent !== "use") return { code, key: null };
      if (isFormKey(formKey)) return { code, key: formKey };
      ctx.addIssue({ code: "custom", path: ["formKey"], message: t("console.counter.form.expired") });
      return z.NEVER;
    });
}

/** The member page's one form: reveal the phone number. */
export const revealSchema = z.object({ intent: z.literal("reveal") });
