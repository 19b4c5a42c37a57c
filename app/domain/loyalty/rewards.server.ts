import { randomBytes } from "node:crypto";
import type { Database } from "@platform/db/client";
import { coupon, pointEntry, reward } from "@platform/db/schema";
import { countLedgerReplay } from "@platform/metrics";
import { and, eq, isNull, notInArray, sql } from "drizzle-orm";
import { addDays, fromTaipeiWallClock, taipeiDate } from "~/lib/time";
import { type AuditContext, audited } from "../audit/audit.server";
import { COUPON_STATUSES_OUTSIDE_LIMIT, couponState } from "./coupon-state";
import { LoyaltyError } from "./errors";
import {
  activeMember,
  debit,
  entryByKey,
  inTransaction,
  lockAccount,
  reverseDebit,
  type Source,
} from "./ledger.server";

export type Reward = typeof reward.$inferSelect;
export type Coupon = typeof coupon.$inferSelect;

const BASE32 = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I

/** 130 random bits as 26 characters of an unambiguous alphabet (QR alphanumeric mode, upper case). */
export function newCouponCode(): string {
  // 256 is a multiple of 32, so `byte & 31` is uniform.
  return Array.from(randomBytes(26), (b) => BASE32[b & 31]).join("");
}

export type RedeemResult = { coupon: Coupon; balance: number; replayed: boolean };

/**
 * Spends the reward's points and issues a coupon. `idempotencyKey` (per member) makes a retry
 * answer the first coupon. Checks the reward's validity, stock and per-member limit (countsTowardRewardLimit) under locks
 * (the member's account, then the reward row), so concurrent redemptions never oversell or overspend.
 */
export async function redeemReward(
  db: Database,
  input: Source & { memberId: string; rewardId: string; idempotencyKey: string },
  now = new Date(),
): Promise<RedeemResult> {
  if (!input.idempotencyKey) throw new LoyaltyError("invalid_input", "An idempotency key is required");
  const key = `redeem:${input.memberId}:${input.idempotencyKey}`;
  return inTransaction(db, async (tx) => {
    const account = await lockAccount(tx, input.memberId);
    const previous = await entryByKey(tx, key);
    if (previous) {
      const [issued] = await tx.select().from(coupon).where(eq(coupon.redeemEntryId, previous.id));
      if (!issued || issued.rewardId !== input.rewardId) {
        throw new LoyaltyError("idempotency_conflict", "This idempotency key was used for another redemption");
      }
      countLedgerReplay("redeem");
      return { coupon: issued, balance: account.balance, replayed: true };
    }
    await activeMember(tx, input.memberId);
    const [item] = await tx.select().from(reward).where(eq(reward.id, input.rewardId)).for("update");
    if (!item) throw new LoyaltyError("reward_not_found", "Unknown reward");
    if (!item.active || (item.validFrom && item.validFrom > now) || (item.validUntil && item.validUntil <= now)) {
      throw new LoyaltyError("reward_unavailable", "This reward cannot be redeemed now");
    }
    if (item.stock !== null && item.stock <= 0) throw new LoyaltyError("out_of_stock", "This reward is out of stock");
    if (item.perMemberLimit !== null) {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(coupon)
        .where(
          and(
            eq(coupon.memberId, input.memberId),
            eq(coupon.rewardId, item.id),
            notInArray(coupon.status, [...COUPON_STATUSES_OUTSIDE_LIMIT]),
            isNull(coupon.referralId),
          ),
        );
      if ((row?.n ?? 0) >= item.perMemberLimit) {
        throw new LoyaltyError("limit_reached", "The member has redeemed this reward as often as allowed");
      }
    }
    const entry = await debit(
      tx,
      account,
      { ...sourceOf(input), kind: "redeem", key, amount: item.pointsCost, reason: `reward ${item.name}` },
      now,
    );
    if (item.stock !== null) {
      await tx
        .update(reward)
        .set({ stock: item.stock - 1 })
        .where(eq(reward.id, item.id));
    }
    // Valid to the end of the Taipei day couponValidDays from now, and never past the reward's end.
    let expiresAt = fromTaipeiWallClock(addDays(taipeiDate(now), item.couponValidDays + 1));
    if (item.validUntil && item.validUntil < expiresAt) expiresAt = item.validUntil;
    const [issued] = await tx
      .insert(coupon)
      .values({
        code: newCouponCode(),
        rewardId: item.id,
        memberId: input.memberId,
        pointsCost: item.pointsCost,
        redeemEntryId: entry.id,
        issuedAt: now,
        expiresAt,
      })
      .returning();
    if (!issued) throw new Error("coupon insert returned nothing");
    return { coupon: issued, balance: account.balance, replayed: false };
  });
}

function sourceOf(s: Source): Source {
  return { storeId: s.storeId, receiptNumber: s.receiptNumber, staffUserId: s.staffUserId, apiKeyId: s.apiKeyId };
}

/** Finds a coupon by its code (as scanned), normalised to upper case without spaces or dashes. */
export async function couponByCode(db: Database, code: string): Promise<Coupon | null> {
  const normalised = code.toUpperCase().replace(/[\s-]/g, "");
  const [found] = await db.select().from(coupon).where(eq(coupon.code, normalised));
  return found ?? null;
}

/**
 * Marks a coupon used at a store, once: a conditional update (status issued → used) decides
 * between concurrent uses. Used, cancelled, expired or another store's coupons are refused.
 */
export async function useCoupon(
  db: Database,
  input: {
    code: string;
    storeId: string;
    staffUserId?: string | null;
    apiKeyId?: string | null;
    /** Who used it and from where: an audit row is written in the same transaction. */
    audit?: AuditContext;
  },
  now = new Date(),
): Promise<Coupon> {
  return inTransaction(db, async (tx) => {
    const found = await couponByCode(tx, input.code);
    if (!found) throw new LoyaltyError("coupon_not_found", "Unknown coupon");
    const [item] = await tx.select().from(reward).where(eq(reward.id, found.rewardId));
    if (item?.storeIds && !item.storeIds.includes(input.storeId)) {
      throw new LoyaltyError("coupon_wrong_store", "This coupon cannot be used at this store");
    }
    const [used] = await tx
      .update(coupon)
      .set({
        status: "used",
        usedAt: now,
        usedStoreId: input.storeId,
        usedByStaffUserId: input.staffUserId ?? null,
        usedByApiKeyId: input.apiKeyId ?? null,
      })
      .where(
        and(
          eq(coupon.id, found.id),
          eq(coupon.status, "issued"),
          sql`${coupon.expiresAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .returning();
    if (used) {
      if (input.audit) {
        await audited(tx, input.audit, now)("coupon.used", ["coupon", used.id], {
          before: { status: found.status },
          after: { status: used.status, usedStoreId: used.usedStoreId, memberId: used.memberId },
        });
      }
      return used;
    }
    const [latest] = await tx.select().from(coupon).where(eq(coupon.id, found.id));
    if (latest?.status === "used") throw new LoyaltyError("coupon_used", "This coupon was already used");
    if (latest?.status === "cancelled") throw new LoyaltyError("coupon_cancelled", "This coupon was cancelled");
    if (latest?.status === "revoked") throw new LoyaltyError("coupon_revoked", "This coupon was revoked");
    throw new LoyaltyError("coupon_expired", "This coupon has expired");
  });
}

/**
 * Cancels an unused coupon and returns its points to the lots they came from (a coupon-cancel
 * entry). Cancelling twice answers the first result; a used coupon cannot be cancelled, nor an
 * expired one (its points are spent: `coupon_expired`). The status is couponState's, as the member
 * center and the console show it; the row is locked, so a use or a cancel beside it waits.
 */
export async function cancelCoupon(
  db: Database,
  input: { couponId: string; reason?: string; staffUserId?: string | null },
  now = new Date(),
): Promise<{ coupon: Coupon; balance: number; replayed: boolean }> {
  return inTransaction(db, async (tx) => {
    const [found] = await tx.select().from(coupon).where(eq(coupon.id, input.couponId));
    if (!found) throw new LoyaltyError("coupon_not_found", "Unknown coupon");
    const account = await lockAccount(tx, found.memberId);
    const [current] = await tx.select().from(coupon).where(eq(coupon.id, found.id)).for("update");
    if (!current) throw new LoyaltyError("coupon_not_found", "Unknown coupon");
    const state = couponState(current, now);
    if (state === "cancelled") return { coupon: current, balance: account.balance, replayed: true };
    if (state === "used") throw new LoyaltyError("coupon_used", "A used coupon cannot be cancelled");
    if (state === "expired") throw new LoyaltyError("coupon_expired", "An expired coupon cannot be cancelled");
    if (state === "revoked") throw new LoyaltyError("coupon_revoked", "A revoked coupon cannot be cancelled");
    const markCancelled = async () => {
      const [cancelled] = await tx
        .update(coupon)
        .set({ status: "cancelled", cancelledAt: now })
        .where(eq(coupon.id, current.id))
        .returning();
      return cancelled ?? current;
    };
    if (current.redeemEntryId === null) {
      // A points-free coupon (a referral's, ADR 053): nothing to give back, no stock was taken.
      return { coupon: await markCancelled(), balance: account.balance, replayed: false };
    }
    const [debitEntry] = await tx.select().from(pointEntry).where(eq(pointEntry.id, current.redeemEntryId));
    if (!debitEntry) throw new Error("coupon without its redeem entry");
    await reverseDebit(
      tx,
      account,
      debitEntry,
      {
        kind: "coupon-cancel",
        key: `coupon-cancel:${current.id}`,
        couponId: current.id,
        staffUserId: input.staffUserId,
        reason: input.reason ?? "coupon cancelled",
      },
      now,
    );
    await tx
      .update(reward)
      .set({ stock: sql`${reward.stock} + 1` })
      .where(and(eq(reward.id, current.rewardId), sql`${reward.stock} is not null`));
    return { coupon: await markCancelled(), balance: account.balance, replayed: false };
  });
}
