/**
 * What a point adjustment form may contain (issue 13, ADR 023): pure, shared by the domain and the
 * console's routes, tested table-driven. Amounts are whole points, either sign, typed as people type
 * them ("1,200", "+500", "−300", full-width digits); anything else is refused with a stable code.
 */

/** The fixed list of reasons; `other` needs the free text. */
export const ADJUSTMENT_REASONS = ["goodwill", "correction", "missed_purchase", "promotion", "other"] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

/** The largest adjustment either way in one go (a typo guard; the manager's limit is a separate setting). */
export const MAX_ADJUSTMENT = 1_000_000;
export const MAX_DETAIL_LENGTH = 200;
/** The manager's limit can be set between 0 (every manager adjustment waits) and this. */
export const MAX_MANAGER_LIMIT = MAX_ADJUSTMENT;

export type AdjustmentInputError =
  | "amount_required"
  | "amount_not_number"
  | "amount_fraction"
  | "amount_zero"
  | "amount_too_large"
  | "reason_invalid"
  | "detail_required"
  | "detail_too_long";

export type AdjustmentFields = { amount: number; reason: AdjustmentReason; detail: string };

export function isAdjustmentReason(value: unknown): value is AdjustmentReason {
  return typeof value === "string" && (ADJUSTMENT_REASONS as readonly string[]).includes(value);
}

/** Full-width digits and signs, thousands separators and spaces as typed; the text of a number or null. */
function normalizeNumber(raw: string): string {
  return raw
    .trim()
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
    .replace(/[−－–]/g, "-")
    .replace(/＋/g, "+")
    .replace(/[,，\s]/g, "");
}

/** A whole number of points, or why not. */
export function parsePoints(
  raw: string,
  max = MAX_ADJUSTMENT,
): { ok: true; value: number } | { ok: false; error: AdjustmentInputError } {
  const text = normalizeNumber(raw);
  if (text === "") return { ok: false, error: "amount_required" };
  if (/^[+-]?(\d+[.．]\d*|[.．]\d+)$/.test(text)) {
    return /^[+-]?\d+[.．]0*$/.test(text)
      ? parsePoints(text.replace(/[.．]0*$/, ""), max)
      : { ok: false, error: "amount_fraction" };
  }
  if (!/^[+-]?\d+$/.test(text)) return { ok: false, error: "amount_not_number" };
  const digits = text.replace(/^[+-]/, "").replace(/^0+(?=\d)/, "");
  if (digits.length > 12) return { ok: false, error: "amount_too_large" };
  const value = Number(text);
  if (value === 0) return { ok: false, error: "amount_zero" };
  if (Math.abs(value) > max) return { ok: false, error: "amount_too_large" };
  return { ok: true, value };
}

/** The adjustment form: amount, reason from the list, free text (required for `other`). */
export function parseAdjustment(raw: {
  amount?: unknown;
  reason?: unknown;
  detail?: unknown;
}):
  | { ok: true; value: AdjustmentFields }
  | { ok: false; errors: Partial<Record<keyof AdjustmentFields, AdjustmentInputError>> } {
  const errors: Partial<Record<keyof AdjustmentFields, AdjustmentInputError>> = {};
  const amount = parsePoints(typeof raw.amount === "string" ? raw.amount : "");
  if (!amount.ok) errors.amount = amount.error;
  const reason = typeof raw.reason === "string" ? raw.reason : "";
  if (!isAdjustmentReason(reason)) errors.reason = "reason_invalid";
  const detail = (typeof raw.detail === "string" ? raw.detail : "").trim();
  if (detail.length > MAX_DETAIL_LENGTH) errors.detail = "detail_too_long";
  else if (reason === "other" && detail === "") errors.detail = "detail_required";
  if (!amount.ok || !isAdjustmentReason(reason) || errors.detail) return { ok: false, errors };
  return { ok: true, value: { amount: amount.value, reason, detail } };
}
