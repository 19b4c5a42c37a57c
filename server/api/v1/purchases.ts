import { isUniqueViolation } from "@platform/db/errors";
import {
  activeMemberIdByNumber,
  findMemberAtCounter,
  storePurchase,
} from "../../../app/domain/loyalty/member-lookup.server";
import {
  type PurchaseResult,
  recordPurchaseInTransaction,
  refundPurchase,
} from "../../../app/domain/loyalty/purchases.server";
import { confirmSpend } from "../../../app/domain/loyalty/spend-codes.server";
import { clerkOfStaffCode } from "../../../app/domain/staff/clerk.server";
import { apiHandler, posAudit } from "./context";
import { ApiError, JsonText, parseBody, send } from "./errors";
import { commitWithLastBatch, keepAfterRollback, replayPurchase, writeRequestOf } from "./middleware/idempotency";
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
 * result. It runs in the request's transaction (no savepoint: any error rolls the whole request back). The
 * Idempotency-Key, the request's hash and the answer are kept in the purchase row (ADR 039): a retry with the
 * same key and body gets that answer (201, Idempotent-Replayed), the key with another request 409.
 */
export const bookPurchase = apiHandler(async function bookPurchase(
  { db, purchaseWindowDays, clock, cardSecret },
  req,
  res,
  key,
) {
  const body = parseBody(PurchaseBody, req.body);
  const now = clock();
  const audit = posAudit(req, res, key);
  // The member by number, or by the card's code as scanned (no spend code needed then, ADR 052). The clerk's code
  // is resolved in the member lookup's round trip (pipelined; none when no code is sent).
  const [found, staffUserId] = await Promise.all([
    body.cardToken
      ? findMemberAtCounter(db, { cardToken: body.cardToken }, { cardSecret, now, audit })
      : activeMemberIdByNumber(db, body.memberNumber ?? ""),
    body.staffCode ? clerkOfStaffCode(db, body.staffCode, key.storeId) : undefined,
  ]);
  const points = body.pointsToSpend ?? 0;
  const asker = { storeId: key.storeId, requester: `key:${key.id}`, audit };
  const spend = { memberId: found.id, points, netAmount: body.netAmount, code: body.spendCode };
  const spendTicket = await confirmSpend(
    db,
    cardSecret,
    asker,
    { ...spend, identifiedBy: body.cardToken ? "card" : "typed" },
    now,
    { keepAfterRollback: (work) => keepAfterRollback(res, work) },
  );
  const write = writeRequestOf(res);
  let result: PurchaseResult;
  try {
    result = await recordPurchaseInTransaction(
      db,
      {
        memberId: found.id,
        storeId: key.storeId,
        receiptNumber: body.receiptNumber,
        netAmount: body.netAmount,
        purchasedAt: body.purchasedAt ? new Date(body.purchasedAt) : now,
        pointsToSpend: points,
        spendTicket,
        apiKeyId: key.id,
        staffUserId,
        audit,
        idempotencyKey: write?.key,
        requestHash: write?.requestHash,
      },
      now,
      {
        windowDays: purchaseWindowDays,
        // The answer goes into the purchase row with its insert, serialised once: the same text is sent below
        // (ADR 039, "Later (2026-12-07, the answer)"). COMMIT goes with the last batch (ADR 030, 039).
        answer: (booked) => JSON.stringify(purchaseAnswer(booked)),
        afterAudit: () => commitWithLastBatch(res),
      },
    );
  } catch (error) {
    // Another purchase holds this Idempotency-Key (committed, or we waited for it): the key was reused.
    if (isUniqueViolation(error, "purchase_idempotency_key_unique")) {
      throw new ApiError("idempotency_key_reused", "This Idempotency-Key was used with a different request");
    }
    throw error;
  }
  const booked = result.purchase;
  if (result.replayed && write && booked.apiKeyId === key.id && booked.idempotencyKey === write.key) {
    replayPurchase(res, booked, write.requestHash);
    return;
  }
  if (result.answer !== undefined && !result.replayed) {
    send(res, 201, new JsonText(result.answer));
    return;
  }
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
