import type { loyaltyZhTW } from "~/locales/loyalty.zh-TW";

/**
 * The loyalty area's refusals: one table, code → HTTP status → message key. The POS API answers the
 * status and the code, the member center and the console show the message (catalogs
 * app/locales/loyalty.*.ts, which TypeScript holds to every code here). Modelled on Documenso's
 * AppError code → status table: a caller never chooses a status for a domain code itself.
 *
 * 400 the input itself is wrong; 404 the thing does not exist (or is not this caller's to see);
 * 409 it conflicts with what the thing is now (retrying later may work); 422 the request is well
 * formed but the rules refuse it.
 */
export const LOYALTY_ERRORS = {
  invalid_amount: { status: 400 },
  invalid_input: { status: 400 },
  member_not_found: { status: 404 },
  purchase_not_found: { status: 404 },
  reward_not_found: { status: 404 },
  coupon_not_found: { status: 404 },
  receipt_conflict: { status: 409 },
  idempotency_conflict: { status: 409 },
  insufficient_points: { status: 409 },
  reward_unavailable: { status: 409 },
  out_of_stock: { status: 409 },
  limit_reached: { status: 409 },
  coupon_used: { status: 409 },
  coupon_cancelled: { status: 409 },
  coupon_revoked: { status: 409 },
  member_disabled: { status: 422 },
  purchase_too_old: { status: 422 },
  refund_exceeds_purchase: { status: 422 },
  coupon_expired: { status: 422 },
  coupon_wrong_store: { status: 422 },
  card_token_expired: { status: 422 },
  card_token_forged: { status: 422 },
  card_token_malformed: { status: 422 },
  // The offline member card (ADR 043).
  card_token_future: { status: 422 },
  card_token_replayed: { status: 409 },
  card_device_revoked: { status: 422 },
  card_device_unknown: { status: 422 },
  /** The clerk on the sale (ADR 042): no enabled staff member with this code works at the till's store. */
  staff_code_unknown: { status: 422 },
  // Paying with points (issue 36, ADR 040).
  invalid_points: { status: 400 },
  points_exceed_balance: { status: 409 },
  points_exceed_share: { status: 422 },
  // A spend the member confirms with a code (ADR 052): the member was not identified by their card.
  spend_code_required: { status: 422 },
  spend_code_wrong: { status: 422 },
  spend_code_expired: { status: 422 },
  spend_code_mismatch: { status: 422 },
  spend_code_used: { status: 409 },
  spend_code_locked: { status: 409 },
  spend_code_send_limit: { status: 409 },
} as const satisfies Record<string, { status: 400 | 404 | 409 | 422 }>;

/** Stable codes: the POS API answers them as `error.code`, the console and the member center map them to messages. */
export type LoyaltyErrorCode = keyof typeof LOYALTY_ERRORS;

/** Codes without a message in app/locales/loyalty.zh-TW.ts (the English catalog follows the Chinese one). */
type Unmessaged = Exclude<`loyalty.error.${LoyaltyErrorCode}`, keyof typeof loyaltyZhTW>;

/**
 * The catalog key of a code's message (`{balance}` is the member's balance where a message uses it). A code
 * without a message turns it into `{ missingMessage }`, so `loyaltyErrorMessage` fails to compile, naming it.
 */
export type LoyaltyErrorMessageKey = [Unmessaged] extends [never]
  ? `loyalty.error.${LoyaltyErrorCode}`
  : { missingMessage: Unmessaged };

export function isLoyaltyErrorCode(code: string): code is LoyaltyErrorCode {
  return Object.hasOwn(LOYALTY_ERRORS, code);
}

export function loyaltyErrorStatus(code: LoyaltyErrorCode): number {
  return LOYALTY_ERRORS[code].status;
}

export function loyaltyErrorMessage(code: LoyaltyErrorCode): LoyaltyErrorMessageKey {
  return `loyalty.error.${code}`;
}

/** A business rule refused the operation; nothing was booked. */
export class LoyaltyError extends Error {
  readonly code: LoyaltyErrorCode;
  constructor(code: LoyaltyErrorCode, message: string) {
    super(message);
    this.name = "LoyaltyError";
    this.code = code;
  }

  get status(): number {
    return loyaltyErrorStatus(this.code);
  }
}
