/** Stable codes: the POS API answers them as `error.code`, the console maps them to messages. */
export type LoyaltyErrorCode =
  | "invalid_amount"
  | "invalid_input"
  | "member_not_found"
  | "member_disabled"
  | "receipt_conflict"
  | "purchase_not_found"
  | "refund_exceeds_purchase"
  | "idempotency_conflict"
  | "insufficient_points"
  | "reward_not_found"
  | "reward_unavailable"
  | "out_of_stock"
  | "limit_reached"
  | "coupon_not_found"
  | "coupon_used"
  | "coupon_cancelled"
  | "coupon_expired"
  | "coupon_wrong_store";

/** A business rule refused the operation; nothing was booked. */
export class LoyaltyError extends Error {
  readonly code: LoyaltyErrorCode;
  constructor(code: LoyaltyErrorCode, message: string) {
    super(message);
    this.name = "LoyaltyError";
    this.code = code;
  }
}

/** True for a PostgreSQL unique violation (drizzle wraps driver errors in `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const {
      code,
      constraint_name,
      constraint: c,
    } = e as { code?: string; constraint_name?: string; constraint?: string };
    if (code === "23505") return !constraint || constraint_name === constraint || c === constraint;
    if (e === (e as { cause?: unknown }).cause) break;
  }
  return false;
}
