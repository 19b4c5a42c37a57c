import type { loyaltyZhTW } from "./loyalty.zh-TW";

export const loyaltyEn = {
  "loyalty.error.invalid_amount": "The amount must be a whole number of NT$, at least 1",
  "loyalty.error.invalid_input": "The input was not valid and nothing was changed. Please check it and try again.",
  "loyalty.error.member_not_found": "Unknown member",
  "loyalty.error.purchase_not_found": "Unknown purchase (or another store's)",
  "loyalty.error.reward_not_found": "This reward no longer exists. Please reload the page.",
  "loyalty.error.coupon_not_found": "Unknown coupon",
  "loyalty.error.receipt_conflict": "This receipt was booked with other details",
  "loyalty.error.idempotency_conflict": "A retry did not match the first request",
  "loyalty.error.insufficient_points": "Not enough points to redeem this. You have {balance} points.",
  "loyalty.error.reward_unavailable": "This reward cannot be redeemed right now.",
  "loyalty.error.out_of_stock": "This reward has all been redeemed.",
  "loyalty.error.limit_reached": "You have redeemed this reward as often as allowed.",
  "loyalty.error.coupon_used": "The coupon was already used",
  "loyalty.error.coupon_cancelled": "The coupon was cancelled",
  "loyalty.error.coupon_revoked": "The coupon was revoked",
  "loyalty.error.member_disabled": "This member account is disabled",
  "loyalty.error.purchase_too_old": "The purchase is older than the window for booking it; no points can be earned",
  "loyalty.error.refund_exceeds_purchase": "Refunds would exceed the purchase",
  "loyalty.error.coupon_expired": "The coupon has expired",
  "loyalty.error.coupon_wrong_store": "The coupon is not valid at this store",
  "loyalty.error.card_token_expired": "The card QR has expired; ask for a fresh one",
  "loyalty.error.card_token_forged": "The card QR is not genuine",
  "loyalty.error.card_token_malformed": "The card QR is malformed",
  // The offline member card (ADR 043).
  "loyalty.error.card_token_future": "The card QR is from the future: the phone's clock is wrong",
  "loyalty.error.card_token_replayed": "This card QR has been used already; ask for the next one",
  "loyalty.error.card_device_revoked":
    "This phone's member card was removed; the member must open the card online again",
  "loyalty.error.card_device_unknown": "The card QR is not genuine",
  // The clerk on the sale (ADR 042)
  "loyalty.error.staff_code_unknown": "No enabled staff member with this staff code works at this store",
  // Paying with points (issue 36, ADR 040)
  "loyalty.error.invalid_points": "Points to spend must be a whole number, 0 or more",
  "loyalty.error.points_exceed_balance": "More points than the member has",
  "loyalty.error.points_exceed_share": "More points than may pay for this purchase",
  "loyalty.error.spend_code_required":
    "Without a scanned member card, spending points needs the member's confirmation code",
  "loyalty.error.spend_code_wrong": "That confirmation code is not right; ask the member to check it",
  "loyalty.error.spend_code_expired": "The confirmation code has expired or was not sent; send a new one",
  "loyalty.error.spend_code_mismatch":
    "The confirmation code was made for another amount or number of points; send a new one",
  "loyalty.error.spend_code_used": "This confirmation code has already been used",
  "loyalty.error.spend_code_locked": "Too many wrong confirmation codes; try again later or scan the member card",
  "loyalty.error.spend_code_send_limit": "Too many confirmation codes sent; try again later or scan the member card",
} as const satisfies Record<keyof typeof loyaltyZhTW, string>;
