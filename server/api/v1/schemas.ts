import { z } from "zod";
import { MAX_AMOUNT } from "../../../app/domain/loyalty/purchases.server";
import { MAX_POINTS_TO_SPEND } from "../../../app/domain/loyalty/spend";

/**
 * The POS API's request and answer schemas: the handlers parse with them and the OpenAPI document
 * (openapi.ts) is generated from them, so the contract and the code cannot drift apart.
 */

const amount = z.number().int().min(1).max(MAX_AMOUNT).describe("NT$, a whole number");

/** Control characters (C0, DEL, C1): no identifier a till sends has one, and PostgreSQL refuses NUL in text. */
export const CONTROL_CHARACTER = /\p{Cc}/u;
/** A number or code a till sends: printable text only. */
const tillText = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((text) => !CONTROL_CHARACTER.test(text), "must not contain control characters");

export const PurchaseBody = z
  .object({
    memberNumber: tillText(20, 1).optional().describe("The member, by number (give this or cardToken)"),
    cardToken: tillText(100, 1)
      .optional()
      .describe(
        "The member, by their card's code as scanned (give this or memberNumber): points spent need no spendCode",
      ),
    receiptNumber: tillText(100, 1),
    netAmount: amount,
    purchasedAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe("Defaults to now; not in the future, nor older than the booking window (90 days unless configured)"),
    // The clerk on the sale (ADR 042)
    staffCode: z
      .string()
      .regex(/^[A-Za-z0-9]{4,6}$/, "must be 4–6 letters or digits")
      .optional()
      .describe(
        "The clerk's staff code (set in the console); the purchase records that staff member. " +
          "Unknown, disabled or not working at the key's store: 422 staff_code_unknown",
      ),
    pointsToSpend: z
      .number()
      .int()
      .min(0)
      .max(MAX_POINTS_TO_SPEND)
      .optional()
      .describe(
        "Points paying part of the purchase (default 0): at most the balance and the share of the net amount the programme allows (GET /members/{memberNumber}/points-quote). With memberNumber (no card scanned) it needs spendCode",
      ),
    // A spend the member confirms with a code (ADR 052).
    spendCode: z
      .string()
      .regex(/^\d{6}$/, "must be 6 digits")
      .optional()
      .describe(
        "The member's confirmation code (POST /members/{memberNumber}/spend-code sends it to the member) for pointsToSpend with memberNumber; bound to the points and the net amount, 5 minutes, once. Missing: 422 spend_code_required; wrong: spend_code_wrong",
      ),
  })
  .strict()
  .refine((b) => (b.memberNumber === undefined) !== (b.cardToken === undefined), {
    message: "Give exactly one of memberNumber, cardToken",
  });

/** POST /members/{memberNumber}/spend-code (ADR 052): the spend the member is asked to confirm. */
export const SpendCodeBody = z
  .object({
    netAmount: amount,
    pointsToSpend: z.number().int().min(1).max(MAX_POINTS_TO_SPEND).describe("The points the purchase will spend"),
  })
  .strict();
export const SpendCodeAnswer = z.object({
  memberNumber: z.string(),
  pointsToSpend: z.number().int(),
  netAmount: z.number().int(),
  expiresAt: z.string().describe("The code is good until then (5 minutes), for this till's key only, once"),
});
export const RefundBody = z.object({ amount }).strict();
export const RedeemCouponBody = z.object({}).strict();
export const LookupQuery = z
  .object({
    phone: tillText(20).optional(),
    memberNumber: tillText(20).optional(),
    cardToken: tillText(100).optional(),
  })
  .refine((q) => [q.phone, q.memberNumber, q.cardToken].filter(Boolean).length === 1, {
    message: "Give exactly one of phone, memberNumber, cardToken",
  });

// E-invoice carrier at the till (ADR 041).
export const EinvoiceQuery = z
  .object({
    memberNumber: tillText(20).optional(),
    cardToken: tillText(100).optional(),
  })
  .strict()
  .refine((q) => [q.memberNumber, q.cardToken].filter(Boolean).length === 1, {
    message: "Give exactly one of memberNumber, cardToken",
  });
export const EinvoiceAnswer = z.object({
  memberNumber: z.string(),
  sharing: z.boolean().describe("The member's switch: false = they chose not to give their carrier and 統編 to tills"),
  carrier: z
    .string()
    .nullable()
    .describe("Mobile barcode carrier 手機條碼, `/` + 7 of 0-9 A-Z . + -; null if none or not shared"),
  taxIdNumber: z.string().nullable().describe("統一編號, 8 digits; null if none or not shared"),
  companyName: z.string().nullable().describe("The company of the 統編; null without one"),
});

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export const MemberSummary = z.object({
  memberNumber: z.string(),
  maskedName: z.string(),
  tier: z.enum(["basic", "silver", "gold"]),
  balance: z.number().int(),
});
export const PurchaseAnswer = z.object({
  purchaseId: z.string(),
  receiptNumber: z.string(),
  pointsEarned: z.number().int(),
  pointsSpent: z.number().int().describe("Points that paid part of the purchase"),
  pointsSpentValue: z.number().int().describe("NT$ the points paid"),
  amountPaid: z
    .number()
    .int()
    .describe("NT$ left to pay in money (net amount − pointsSpentValue); it earns the points"),
  balance: z.number().int(),
  tier: z.string(),
});
export const RefundAnswer = z.object({
  refundId: z.string(),
  pointsReversed: z.number().int(),
  pointsReturned: z.number().int().describe("Points that paid part of the purchase, given back in proportion"),
  balance: z.number().int(),
  refundedAmount: z.number().int(),
});
export const CouponAnswer = z.object({ code: z.string(), status: z.literal("used"), usedAt: z.string() });
export const BalanceAnswer = z.object({
  memberNumber: z.string(),
  balance: z.number().int(),
  tier: z.string(),
  entries: z.array(z.object({ kind: z.string(), amount: z.number().int(), createdAt: z.string() })),
});

/** GET /members/{memberNumber}/points-quote (issue 36): how many points may pay for NT$ `amount`. */
export const PointsQuoteQuery = z
  .object({
    amount: z
      .string()
      .regex(/^\d{1,9}$/, "a whole number of NT$")
      .transform(Number)
      .pipe(amount),
    points: z
      .string()
      .regex(/^\d{1,9}$/, "a whole number of points, 0 or more")
      .transform(Number)
      .optional()
      .describe("Points the member would spend: checked, with their value and what is left to pay"),
  })
  .strict();
export const PointsQuoteAnswer = z.object({
  memberNumber: z.string(),
  amount: z.number().int(),
  balance: z.number().int(),
  maxPoints: z.number().int().describe("The most points this member may spend on this amount"),
  maxValue: z.number().int().describe("NT$ those points pay"),
  amountToPay: z.number().int().describe("NT$ left to pay in money when maxPoints are spent"),
  pointValue: z.number().describe("NT$ one point pays"),
  maxSharePercent: z.number().int().describe("At most this % of the net amount may be paid with points"),
  points: z.number().int().optional().describe("The points asked for (when `points` was given)"),
  value: z.number().int().optional().describe("NT$ they pay"),
  toPay: z.number().int().optional().describe("NT$ left to pay with them"),
});
