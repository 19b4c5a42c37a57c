import type { Database } from "@platform/db/client";
import { isUniqueViolation } from "@platform/db/errors";
import { purchase, purchaseRefund, type Tier } from "@platform/db/schema";
import { countLedgerReplay } from "@platform/metrics";
import { and, eq } from "drizzle-orm";
import { type AuditContext, recordAudit } from "../audit/audit.server";
import { refundReversal } from "./earn";
import { LoyaltyError } from "./errors";
import { activeMember, credit, debit, entryByKey, inTransaction, lockAccount, type Source } from "./ledger.server";
import { currentRules, lotExpiry, pointsForAmount, TIER_ORDER, tierForSpend } from "./rules.server";
import { changeTier, spend12Months } from "./tiers.server";

export type Purchase = typeof purchase.$inferSelect;
export type Refund = typeof purchaseRefund.$inferSelect;

/**
 * How far back a purchase may be booked (days before now; PURCHASE_WINDOW_DAYS configures it): a
 * till that was offline catches up, but a receipt from 1970 earns nothing. Taiwan keeps no daylight
 * saving, so a day is always 24 hours.
 */
export const DEFAULT_PURCHASE_WINDOW_DAYS = 90;

/** The largest amount one receipt may carry (NT$100,000,000): anything above is a typo or an attack. */
export const MAX_AMOUNT = 100_000_000;

export function assertAmount(amount: unknown): asserts amount is number {
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_AMOUNT) {
    throw new LoyaltyError("invalid_amount", `The amount must be a whole number of NT$ between 1 and ${MAX_AMOUNT}`);
  }
}

function assertText(value: unknown, name: string): asserts value is string {
  if (typeof value !== "string" || value.trim() === "" || value.length > 100) {
    throw new LoyaltyError("invalid_input", `${name} must be 1–100 characters`);
  }
}

export type PurchaseInput = Source & {
  memberId: string;
  storeId: string;
  receiptNumber: string;
  netAmount: number;
  purchasedAt: Date;
  /** Who booked it and from where: an audit row is written in the same transaction (not on a replay). */
  audit?: AuditContext;
};

export type PurchaseResult = {
  purchase: Purchase;
  pointsEarned: number;
  balance: number;
  tier: Tier;
  /** True when this receipt was already booked (a retry): nothing new was booked. */
  replayed: boolean;
};

/**
 * Books a purchase and its points (at the member's tier before it); the purchase that crosses a
 * tier threshold upgrades the member at once. The same receipt at the same store is one purchase:
 * a retry answers the first result; the same receipt for another member or amount is a conflict.
 * A purchase older than the booking window (default 90 days) is refused: purchase_too_old.
 */
export async function recordPurchase(
  db: Database,
  input: PurchaseInput,
  now = new Date(),
  options: { windowDays?: number } = {},
): Promise<PurchaseResult> {
  assertAmount(input.netAmount);
  assertText(input.storeId, "storeId");
  assertText(input.receiptNumber, "receiptNumber");
  if (!(input.purchasedAt instanceof Date) || Number.isNaN(input.purchasedAt.getTime()) || input.purchasedAt > now) {
    throw new LoyaltyError("invalid_input", "purchasedAt must be a valid time, not in the future");
  }
  const windowDays = options.windowDays ?? DEFAULT_PURCHASE_WINDOW_DAYS;
  const oldest = new Date(now.getTime() - windowDays * 86_400_000);
  const attempt = () =>
    inTransaction(db, async (tx) => {
      const account = await lockAccount(tx, input.memberId);
      const [existing] = await tx
        .select()
        .from(purchase)
        .where(and(eq(purchase.storeId, input.storeId), eq(purchase.receiptNumber, input.receiptNumber)));
      if (existing) {
        if (existing.memberId !== input.memberId || existing.netAmount !== input.netAmount) {
          throw new LoyaltyError("receipt_conflict", "This receipt was already booked with other details");
        }
        countLedgerReplay("purchase");
        return {
          purchase: existing,
          pointsEarned: existing.pointsEarned,
          balance: account.balance,
          tier: account.tier,
          replayed: true,
        };
      }
      // After the replay above: a retry of a booked receipt still answers its first result.
      if (input.purchasedAt < oldest) {
        throw new LoyaltyError(
          "purchase_too_old",
          `purchasedAt is more than ${windowDays} days ago; such purchases cannot be booked`,
        );
      }
      await activeMember(tx, input.memberId);
      const rules = await currentRules(tx, now);
      const points = pointsForAmount(rules, account.tier, input.netAmount);
      const [created] = await tx
        .insert(purchase)
        .values({
          storeId: input.storeId,
          receiptNumber: input.receiptNumber,
          memberId: input.memberId,
          netAmount: input.netAmount,
          purchasedAt: input.purchasedAt,
          pointsEarned: points,
          staffUserId: input.staffUserId ?? null,
          apiKeyId: input.apiKeyId ?? null,
          createdAt: now,
        })
        .returning();
      if (!created) throw new Error("purchase insert returned nothing");
      if (points > 0) {
        await credit(
          tx,
          account,
          {
            kind: "earn-purchase",
            key: `purchase:${created.id}`,
            amount: points,
            expiresAt: lotExpiry(now),
            purchaseId: created.id,
            storeId: input.storeId,
            receiptNumber: input.receiptNumber,
            staffUserId: input.staffUserId,
            apiKeyId: input.apiKeyId,
          },
          now,
        );
      }
      const spend = await spend12Months(tx, input.memberId, now);
      const target = tierForSpend(rules, spend);
      if (TIER_ORDER[target] > TIER_ORDER[account.tier]) {
        await changeTier(tx, account, target, `purchase ${input.storeId}/${input.receiptNumber}`, spend, rules, now);
      }
      if (input.audit) {
        await recordAudit(
          tx,
          {
            context: input.audit,
            action: "purchase.recorded",
            targetType: "purchase",
            targetId: created.id,
            after: {
              memberId: input.memberId,
              storeId: input.storeId,
              receiptNumber: input.receiptNumber,
              netAmount: input.netAmount,
              pointsEarned: points,
              tier: account.tier,
            },
          },
          now,
        );
      }
      return { purchase: created, pointsEarned: points, balance: account.balance, tier: account.tier, replayed: false };
    });
  try {
    return await attempt();
  } catch (error) {
    // Two members' transactions raced for one receipt: the loser re-reads and answers conflict or replay.
    if (isUniqueViolation(error, "purchase_store_receipt_unique")) return attempt();
    throw error;
  }
}

export type RefundInput = Source & {
  purchaseId: string;
  amount: number;
  /** Unique per refund; a retry with the same key answers the first result. */
  idempotencyKey: string;
  /** Who refunded and from where: an audit row is written in the same transaction (not on a replay). */
  audit?: AuditContext;
};

export type RefundResult = {
  refund: Refund;
  purchase: Purchase;
  pointsReversed: number;
  balance: number;
  /** True when the balance is below zero after the refund (it is flagged on the account). */
  negative: boolean;
  replayed: boolean;
};

/**
 * A full or partial refund: reverses the points in proportion to the refunded share of the
 * purchase (rounded so that refunding everything reverses exactly what was earned). The points
 * come from the purchase's own lot first; if they were spent, from the other lots; if there are
 * not enough, the balance goes negative and the account is flagged.
 */
export async function refundPurchase(db: Database, input: RefundInput, now = new Date()): Promise<RefundResult> {
  assertAmount(input.amount);
  assertText(input.idempotencyKey, "idempotencyKey");
  const attempt = () =>
    inTransaction(db, async (tx) => {
      const [found] = await tx.select().from(purchase).where(eq(purchase.id, input.purchaseId));
      if (!found) throw new LoyaltyError("purchase_not_found", "Unknown purchase");
      const account = await lockAccount(tx, found.memberId);
      const [current] = await tx.select().from(purchase).where(eq(purchase.id, input.purchaseId)).for("update");
      if (!current) throw new LoyaltyError("purchase_not_found", "Unknown purchase");
      const [previous] = await tx
        .select()
        .from(purchaseRefund)
        .where(eq(purchaseRefund.idempotencyKey, input.idempotencyKey));
      if (previous) {
        if (previous.purchaseId !== input.purchaseId || previous.amount !== input.amount) {
          throw new LoyaltyError("idempotency_conflict", "This idempotency key was used for another refund");
        }
        countLedgerReplay("refund");
        return {
          refund: previous,
          purchase: current,
          pointsReversed: previous.pointsReversed,
          balance: account.balance,
          negative: account.balance < 0,
          replayed: true,
        };
      }
      const refunded = current.refundedAmount + input.amount;
      if (refunded > current.netAmount) {
        throw new LoyaltyError(
          "refund_exceeds_purchase",
          `Only NT$${current.netAmount - current.refundedAmount} of this purchase can still be refunded`,
        );
      }
      const { reverse, target } = refundReversal(current, input.amount);
      const [refund] = await tx
        .insert(purchaseRefund)
        .values({
          purchaseId: current.id,
          amount: input.amount,
          pointsReversed: reverse,
          idempotencyKey: input.idempotencyKey,
          staffUserId: input.staffUserId ?? null,
          apiKeyId: input.apiKeyId ?? null,
          createdAt: now,
        })
        .returning();
      if (!refund) throw new Error("refund insert returned nothing");
      if (reverse > 0) {
        const earned = await entryByKey(tx, `purchase:${current.id}`);
        await debit(
          tx,
          account,
          {
            kind: "refund-reversal",
            key: `refund:${refund.id}`,
            amount: reverse,
            allowNegative: true,
            preferLot: earned?.id ?? null,
            purchaseId: current.id,
            storeId: current.storeId,
            receiptNumber: current.receiptNumber,
            staffUserId: input.staffUserId,
            apiKeyId: input.apiKeyId,
            reason: `refund of NT$${input.amount}`,
          },
          now,
        );
      }
      const [updated] = await tx
        .update(purchase)
        .set({ refundedAmount: refunded, pointsReversed: target })
        .where(eq(purchase.id, current.id))
        .returning();
      if (input.audit) {
        await recordAudit(
          tx,
          {
            context: input.audit,
            action: "purchase.refunded",
            targetType: "purchase",
            targetId: current.id,
            before: { refundedAmount: current.refundedAmount, pointsReversed: current.pointsReversed },
            after: {
              refundedAmount: refunded,
              pointsReversed: target,
              refundId: refund.id,
              refundAmount: input.amount,
            },
          },
          now,
        );
      }
      return {
        refund,
        purchase: updated ?? current,
        pointsReversed: reverse,
        balance: account.balance,
        negative: account.balance < 0,
        replayed: false,
      };
    });
  try {
    return await attempt();
  } catch (error) {
    if (isUniqueViolation(error, "purchase_refund_idempotency_key_unique")) return attempt();
    throw error;
  }
}
