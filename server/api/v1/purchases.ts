import { activeMemberByNumber, storePurchase } from "../../../app/domain/loyalty/member-lookup.server";
import {
  type PurchaseResult,
  recordPurchaseInTransaction,
  refundPurchase,
} from "../../../app/domain/loyalty/purchases.server";
import { clerkOfStaffCode } from "../../../app/domain/staff/clerk.server";
import { apiHandler, posAudit } from "./context";
import { parseBody, send } from "./errors";
import { storeAnswerEarly } from "./middleware/idempotency";
import { PurchaseBody, RefundBody } from "./schemas";

const purchaseAnswer = (result: PurchaseResult) => ({
  purchaseId: result.purchase.id,
  receiptNumber: result.purchase.receiptNumber,
  pointsEarned: result.pointsEarned,
  pointsSpent: result.pointsSpent,
  pointsSpentValue: result.pointsSpentValue,
  amountPaid: result.purchase.netAmount - result.pointsSpentValue,
  balance: result.balance,
  tier: result.tier,
});

/**
 * POST /purchases — books a purchase for the key's store; the same receipt again answers 200 with the first
 * result. It runs in the request's transaction (no savepoint: any error rolls the whole request back).
 */
export const bookPurchase = apiHandler(async function bookPurchase({ db, purchaseWindowDays, clock }, req, res, key) {
  const body = parseBody(PurchaseBody, req.body);
  // The clerk's code is resolved in the member lookup's round trip (pipelined; none when no code is sent).
  const [found, staffUserId] = await Promise.all([
    activeMemberByNumber(db, body.memberNumber),
    body.staffCode ? clerkOfStaffCode(db, body.staffCode, key.storeId) : undefined,
  ]);
  const now = clock();
  const result = await recordPurchaseInTransaction(
    db,
    {
      memberId: found.id,
      storeId: key.storeId,
      receiptNumber: body.receiptNumber,
      netAmount: body.netAmount,
      purchasedAt: body.purchasedAt ? new Date(body.purchasedAt) : now,
      pointsToSpend: body.pointsToSpend ?? 0,
      apiKeyId: key.id,
      staffUserId,
      audit: posAudit(req, res, key),
    },
    now,
    // The answer is stored before the audit row, the last statement before the commit (ADR 030).
    { windowDays: purchaseWindowDays, beforeAudit: (booked) => storeAnswerEarly(res, 201, purchaseAnswer(booked)) },
  );
  send(res, result.replayed ? 200 : 201, purchaseAnswer(result));
});

/** POST /purchases/{id}/refunds — a full or partial refund of one of the key's store's purchases. */
export const bookRefund = apiHandler(async function bookRefund({ db }, req, res, key) {
  const body = parseBody(RefundBody, req.body);
  const found = await storePurchase(db, key.storeId, String(req.params.id));
  const result = await refundPurchase(db, {
    purchaseId: found.id,
    amount: body.amount,
    idempotencyKey: `api:${key.id}:${req.get("idempotency-key")}`,
    apiKeyId: key.id,
    audit: posAudit(req, res, key),
  });
  send(res, 201, {
    refundId: result.refund.id,
    pointsReversed: result.pointsReversed,
    pointsReturned: result.pointsReturned,
    balance: result.balance,
    refundedAmount: result.purchase.refundedAmount,
  });
});
