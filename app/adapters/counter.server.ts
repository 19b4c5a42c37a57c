import { data, type RouterContextProvider } from "react-router";
import type { LoyaltyErrorCode } from "~/domain/loyalty/errors";
import { LoyaltyError } from "~/domain/loyalty/errors";
import { MAX_AMOUNT } from "~/domain/loyalty/purchases.server";
import type { StaffActor } from "~/domain/staff/actor";
import { requirePermission } from "~/domain/staff/guard.server";
import type { Permission } from "~/domain/staff/permissions";
import type { MessageKey } from "~/lib/i18n";

/**
 * The counter's HTTP side (ADR 022): who acts at which store, and how the engine's refusals read at
 * the counter.
 */

/**
 * The staff member, if they hold `permission` at the store they are working at now; otherwise the
 * console's 403 (or the login for a visitor). Without a current store (an admin who has not chosen
 * one), `storeId` is null and the page asks for one; actions refuse with `requireStore`.
 */
export function counterActor(
  context: Readonly<RouterContextProvider>,
  permission: Permission,
): { actor: StaffActor; storeId: string | null } {
  const actor = requirePermission(context, permission);
  const storeId = actor.currentStoreId;
  if (storeId !== null) requirePermission(actor, permission, { storeId });
  return { actor, storeId };
}

/** For actions: the store the booking happens at; a 409 when no store was chosen. */
export function requireStore(storeId: string | null): string {
  if (storeId === null) throw data({ code: "store_required" }, { status: 409, statusText: "Choose a store" });
  return storeId;
}

/** The counter's wording of an engine refusal (some say it the way a clerk repeats it to a member). */
const COUNTER_MESSAGES: Partial<Record<LoyaltyErrorCode, MessageKey>> = {
  card_token_expired: "console.counter.error.tokenExpired",
  card_token_forged: "console.counter.error.tokenForged",
  card_token_malformed: "console.counter.error.tokenForged",
  member_not_found: "console.counter.error.memberNotFound",
  member_disabled: "console.counter.error.memberDisabled",
  purchase_not_found: "console.counter.error.receiptNotFound",
  receipt_conflict: "console.counter.error.receiptConflict",
  coupon_not_found: "console.counter.error.couponNotFound",
  coupon_used: "console.counter.error.couponUsed",
  coupon_expired: "console.counter.error.couponExpired",
  coupon_cancelled: "console.counter.error.couponCancelled",
  coupon_wrong_store: "console.counter.error.couponWrongStore",
  refund_exceeds_purchase: "console.counter.error.refundExceeds",
};

export function refusalKey(code: LoyaltyErrorCode): MessageKey {
  return COUNTER_MESSAGES[code] ?? (`loyalty.error.${code}` as MessageKey);
}

/** The engine's refusal as { code, status, message key }; anything else is rethrown (a real failure). */
export function asRefusal(error: unknown): { code: LoyaltyErrorCode; status: number; key: MessageKey } {
  if (error instanceof LoyaltyError) return { code: error.code, status: error.status, key: refusalKey(error.code) };
  throw error;
}

/**
 * An amount typed at the counter: whole NT$ between 1 and the engine's maximum, digits only
 * (spaces and thousands separators allowed). Each wrong kind has its own message.
 */
export function parseAmount(raw: unknown): { ok: true; value: number } | { ok: false; key: MessageKey } {
  const text = String(raw ?? "")
    .trim()
    .replace(/[\s,]/g, "")
    // Full-width digits from a Chinese keyboard.
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (!text) return { ok: false, key: "console.counter.amount.required" };
  if (/^-\d+(\.\d+)?$/.test(text)) return { ok: false, key: "console.counter.amount.notPositive" };
  if (/^\d+\.\d+$/.test(text)) {
    return /^\d+\.0+$/.test(text)
      ? parseAmount(text.replace(/\.0+$/, ""))
      : { ok: false, key: "console.counter.amount.fraction" };
  }
  if (!/^\d+$/.test(text)) return { ok: false, key: "console.counter.amount.notNumber" };
  if (text.length > 12 || Number(text) > MAX_AMOUNT) return { ok: false, key: "console.counter.amount.tooLarge" };
  const value = Number(text);
  if (value <= 0) return { ok: false, key: "console.counter.amount.notPositive" };
  return { ok: true, value };
}

/** A receipt number as printed: letters, digits, - and /, up to 40 characters (kept as typed, the POS's too). */
export function parseReceipt(raw: unknown): { ok: true; value: string } | { ok: false; key: MessageKey } {
  const text = String(raw ?? "").trim();
  if (!text) return { ok: false, key: "console.counter.receipt.required" };
  if (!/^[A-Za-z0-9][A-Za-z0-9/-]{0,39}$/.test(text)) return { ok: false, key: "console.counter.receipt.invalid" };
  return { ok: true, value: text };
}
