import type { Database } from "@platform/db/client";
import {
  coupon,
  loyaltyAccount,
  member,
  purchase,
  purchaseRefund,
  type RewardKind,
  reward,
  store,
  type Tier,
} from "@platform/db/schema";
import type { LocalizedText } from "@platform/db/schema/catalog";
import { and, asc, desc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { endOfTaipeiDay, startOfTaipeiDay } from "~/lib/time";
import { type AuditContext, recordPersonalDataView } from "../audit/audit.server";
import type { EarnRules } from "../loyalty/earn";
import { LoyaltyError } from "../loyalty/errors";
import { inTransaction } from "../loyalty/ledger.server";
import { maskName } from "../loyalty/member-lookup.server";
import { pointsExpiringSoon } from "../loyalty/points.server";
import type { Purchase } from "../loyalty/purchases.server";
import { type Coupon, couponByCode } from "../loyalty/rewards.server";
import { currentRules } from "../loyalty/rules.server";
import type { SpendRules } from "../loyalty/spend";

/**
 * What the staff counter reads (PRODUCT.md §5, ADR 022). Every booking goes through the loyalty
 * engine (recordPurchase, refundPurchase, useCoupon); this module only reads what the counter shows
 * and writes the audit row of a reveal.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** +886912345678 → ••••-•••-678: only the last three digits show until a reveal. */
export function maskPhone(e164: string): string {
  const digits = e164.replace(/\D/g, "");
  return `••••-•••-${digits.slice(-3)}`;
}

/** +886912345678 → 0912-345-678 (a revealed number, as people write it). */
export function nationalPhone(e164: string): string {
  const local = e164.startsWith("+886") ? `0${e164.slice(4)}` : e164;
  return /^09\d{8}$/.test(local) ? `${local.slice(0, 4)}-${local.slice(4, 7)}-${local.slice(7)}` : local;
}

export type CounterCoupon = {
  id: string;
  code: string;
  rewardName: string;
  kind: RewardKind;
  amountOff: number | null;
  expiresAt: string;
  /** False when the reward is limited to other stores. */
  usableHere: boolean;
};

export type CounterVisit = {
  purchaseId: string;
  storeId: string;
  storeName: LocalizedText | null;
  receiptNumber: string;
  netAmount: number;
  refundedAmount: number;
  pointsEarned: number;
  purchasedAt: string;
};

export type CounterSummary = {
  member: {
    id: string;
    memberNumber: string;
    name: string;
    maskedPhone: string;
    disabled: boolean;
    /** The member's consultant's user id (ADR 042). */
    consultantUserId: string | null;
  };
  tier: Tier;
  /** An approved trade account (ADR 057): its own purchases earn the trade multiplier too. */
  trade: boolean;
  balance: number;
  expiring: { points: number; expiresAt: string } | null;
  coupons: CounterCoupon[];
  visits: CounterVisit[];
  /** The rules' earn part, for the purchase preview (the engine's own pointsForAmount). */
  earn: EarnRules;
  /** The rules' paying-with-points part, for "最多可折抵 N 點" (the engine's own decideSpend; issue 36). */
  spend: SpendRules;
};

export const VISITS_LIMIT = 5;

/** The member as the counter shows them: null for an unknown id (a disabled member is returned, flagged). */
export async function counterSummary(
  db: Database,
  memberId: string,
  storeId: string | null,
  now = new Date(),
): Promise<CounterSummary | null> {
  if (!UUID.test(memberId)) return null;
  const [found] = await db
    .select({
      id: member.id,
      memberNumber: member.memberNumber,
      nameZh: member.nameZh,
      phoneNumber: member.phoneNumber,
      disabled: member.disabled,
      consultantUserId: member.consultantUserId,
      tier: loyaltyAccount.tier,
      trade: loyaltyAccount.trade,
      balance: loyaltyAccount.balance,
    })
    .from(member)
    .leftJoin(loyaltyAccount, eq(loyaltyAccount.memberId, member.id))
    .where(eq(member.id, memberId));
  if (!found) return null;
  const [expiring, coupons, visits, rules] = await Promise.all([
    pointsExpiringSoon(db, memberId, now),
    db
      .select({
        id: coupon.id,
        code: coupon.code,
        expiresAt: coupon.expiresAt,
        rewardName: reward.name,
        kind: reward.kind,
        amountOff: reward.amountOff,
        storeIds: reward.storeIds,
      })
      .from(coupon)
      .innerJoin(reward, eq(reward.id, coupon.rewardId))
      .where(and(eq(coupon.memberId, memberId), eq(coupon.status, "issued"), gt(coupon.expiresAt, now)))
      .orderBy(asc(coupon.expiresAt))
      .limit(30),
    db
      .select({
        purchaseId: purchase.id,
        storeId: purchase.storeId,
        storeName: store.name,
        receiptNumber: purchase.receiptNumber,
        netAmount: purchase.netAmount,
        refundedAmount: purchase.refundedAmount,
        pointsEarned: purchase.pointsEarned,
        purchasedAt: purchase.purchasedAt,
      })
      .from(purchase)
      .leftJoin(store, eq(store.id, purchase.storeId))
      .where(eq(purchase.memberId, memberId))
      .orderBy(desc(purchase.purchasedAt))
      .limit(VISITS_LIMIT),
    currentRules(db, now),
  ]);
  const soonest = expiring[0];
  return {
    member: {
      id: found.id,
      memberNumber: found.memberNumber,
      name: found.nameZh,
      maskedPhone: maskPhone(found.phoneNumber),
      disabled: found.disabled,
      consultantUserId: found.consultantUserId,
    },
    tier: found.tier ?? "basic",
    trade: found.trade ?? false,
    balance: found.balance ?? 0,
    expiring: soonest ? { points: soonest.points, expiresAt: soonest.expiresAt.toISOString() } : null,
    coupons: coupons.map((c) => ({
      id: c.id,
      code: c.code,
      rewardName: c.rewardName,
      kind: c.kind,
      amountOff: c.amountOff,
      expiresAt: c.expiresAt.toISOString(),
      usableHere: !c.storeIds || (storeId !== null && c.storeIds.includes(storeId)),
    })),
    visits: visits.map((v) => ({ ...v, purchasedAt: v.purchasedAt.toISOString() })),
    earn: {
      amountPerPoint: rules.amountPerPoint,
      basicMultiplierPermille: rules.basicMultiplierPermille,
      silverMultiplierPermille: rules.silverMultiplierPermille,
      goldMultiplierPermille: rules.goldMultiplierPermille,
      tradeMultiplierPermille: rules.tradeMultiplierPermille,
    },
    spend: { pointValueCents: rules.pointValueCents, maxSpendPercent: rules.maxSpendPercent },
  };
}

/**
 * The member's full phone number, for a staff member allowed to see it: the view is written to the
 * audit log (which fields, never the value) in the same transaction as the read.
 */
export async function revealPhone(
  db: Database,
  memberId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<string> {
  if (!UUID.test(memberId)) throw new LoyaltyError("member_not_found", "Unknown member");
  return inTransaction(db, async (tx) => {
    const [found] = await tx.select({ phone: member.phoneNumber }).from(member).where(eq(member.id, memberId));
    if (!found) throw new LoyaltyError("member_not_found", "Unknown member");
    await recordPersonalDataView(tx, audit, { memberId, fields: ["phoneNumber"], purpose: "counter" }, now);
    return nationalPhone(found.phone);
  });
}

/** A purchase booked at this store under this receipt number (receipt numbers are unique per store). */
export async function purchaseByReceipt(db: Database, storeId: string, receiptNumber: string): Promise<Purchase> {
  const receipt = receiptNumber.trim();
  const [found] =
    receipt && receipt.length <= 100
      ? await db
          .select()
          .from(purchase)
          .where(and(eq(purchase.storeId, storeId), eq(purchase.receiptNumber, receipt)))
      : [];
  if (!found) throw new LoyaltyError("purchase_not_found", "Unknown purchase");
  return found;
}

/** A purchase by id, at any store (the caller checks the store with requirePermission). */
export async function purchaseById(db: Database, purchaseId: string): Promise<Purchase> {
  const [found] = UUID.test(purchaseId) ? await db.select().from(purchase).where(eq(purchase.id, purchaseId)) : [];
  if (!found) throw new LoyaltyError("purchase_not_found", "Unknown purchase");
  return found;
}

export type CouponAtCounter = {
  coupon: Coupon;
  rewardName: string;
  amountOff: number | null;
  kind: RewardKind;
  storeIds: string[] | null;
  member: { id: string; memberNumber: string; maskedName: string };
};

/** A scanned or typed coupon code with what the counter shows before using it; null when unknown. */
export async function couponAtCounter(db: Database, code: string): Promise<CouponAtCounter | null> {
  if (!code || code.length > 64) return null;
  return withDetails(db, await couponByCode(db, code));
}

/** The same, by the coupon's id (picked from the member's list); null for an unknown id. */
export async function couponById(db: Database, couponId: string): Promise<CouponAtCounter | null> {
  if (!UUID.test(couponId)) return null;
  const [found] = await db.select().from(coupon).where(eq(coupon.id, couponId));
  return withDetails(db, found ?? null);
}

async function withDetails(db: Database, found: Coupon | null): Promise<CouponAtCounter | null> {
  if (!found) return null;
  const [row] = await db
    .select({
      rewardName: reward.name,
      kind: reward.kind,
      amountOff: reward.amountOff,
      storeIds: reward.storeIds,
      memberNumber: member.memberNumber,
      nameZh: member.nameZh,
    })
    .from(reward)
    .innerJoin(member, eq(member.id, found.memberId))
    .where(eq(reward.id, found.rewardId));
  if (!row) return null;
  return {
    coupon: found,
    rewardName: row.rewardName,
    kind: row.kind,
    amountOff: row.amountOff,
    storeIds: row.storeIds,
    member: { id: found.memberId, memberNumber: row.memberNumber, maskedName: maskName(row.nameZh) },
  };
}

export type DayPurchase = {
  id: string;
  at: string;
  receiptNumber: string;
  memberNumber: string;
  netAmount: number;
  pointsEarned: number;
  refundedAmount: number;
};
export type DayRefund = { id: string; at: string; receiptNumber: string; amount: number; pointsReversed: number };
export type DayCouponUse = { id: string; at: string; rewardName: string; memberNumber: string };

export type CounterDay = {
  purchases: DayPurchase[];
  refunds: DayRefund[];
  couponUses: DayCouponUse[];
  totals: {
    purchases: number;
    sales: number;
    pointsEarned: number;
    refunds: number;
    refunded: number;
    pointsReversed: number;
    couponUses: number;
  };
};

export const DAY_LIST_LIMIT = 100;

/**
 * This store's purchases, refunds and coupon uses booked today (the Taipei day of `now`), newest
 * first, with totals over the whole day (the lists stop at DAY_LIST_LIMIT rows each).
 */
export async function counterDay(db: Database, storeId: string, now = new Date()): Promise<CounterDay> {
  const from = startOfTaipeiDay(now);
  const to = endOfTaipeiDay(now);
  const purchaseToday = and(eq(purchase.storeId, storeId), gte(purchase.createdAt, from), lt(purchase.createdAt, to));
  const refundToday = and(
    eq(purchase.storeId, storeId),
    gte(purchaseRefund.createdAt, from),
    lt(purchaseRefund.createdAt, to),
  );
  const couponToday = and(eq(coupon.usedStoreId, storeId), gte(coupon.usedAt, from), lt(coupon.usedAt, to));
  const [purchases, refunds, couponUses, [pTotals], [rTotals], [cTotals]] = await Promise.all([
    db
      .select({
        id: purchase.id,
        at: purchase.createdAt,
        receiptNumber: purchase.receiptNumber,
        memberNumber: member.memberNumber,
        netAmount: purchase.netAmount,
        pointsEarned: purchase.pointsEarned,
        refundedAmount: purchase.refundedAmount,
      })
      .from(purchase)
      .innerJoin(member, eq(member.id, purchase.memberId))
      .where(purchaseToday)
      .orderBy(desc(purchase.createdAt))
      .limit(DAY_LIST_LIMIT),
    db
      .select({
        id: purchaseRefund.id,
        at: purchaseRefund.createdAt,
        receiptNumber: purchase.receiptNumber,
        amount: purchaseRefund.amount,
        pointsReversed: purchaseRefund.pointsReversed,
      })
      .from(purchaseRefund)
      .innerJoin(purchase, eq(purchase.id, purchaseRefund.purchaseId))
      .where(refundToday)
      .orderBy(desc(purchaseRefund.createdAt))
      .limit(DAY_LIST_LIMIT),
    db
      .select({ id: coupon.id, at: coupon.usedAt, rewardName: reward.name, memberNumber: member.memberNumber })
      .from(coupon)
      .innerJoin(reward, eq(reward.id, coupon.rewardId))
      .innerJoin(member, eq(member.id, coupon.memberId))
      .where(couponToday)
      .orderBy(desc(coupon.usedAt))
      .limit(DAY_LIST_LIMIT),
    db
      .select({
        n: sql<number>`count(*)::int`,
        sales: sql<number>`coalesce(sum(${purchase.netAmount}), 0)::bigint`,
        points: sql<number>`coalesce(sum(${purchase.pointsEarned}), 0)::int`,
      })
      .from(purchase)
      .where(purchaseToday),
    db
      .select({
        n: sql<number>`count(*)::int`,
        amount: sql<number>`coalesce(sum(${purchaseRefund.amount}), 0)::bigint`,
        points: sql<number>`coalesce(sum(${purchaseRefund.pointsReversed}), 0)::int`,
      })
      .from(purchaseRefund)
      .innerJoin(purchase, eq(purchase.id, purchaseRefund.purchaseId))
      .where(refundToday),
    db.select({ n: sql<number>`count(*)::int` }).from(coupon).where(couponToday),
  ]);
  return {
    purchases: purchases.map((p) => ({ ...p, at: p.at.toISOString() })),
    refunds: refunds.map((r) => ({ ...r, at: r.at.toISOString() })),
    couponUses: couponUses.map((c) => ({ ...c, at: (c.at ?? now).toISOString() })),
    totals: {
      purchases: Number(pTotals?.n ?? 0),
      sales: Number(pTotals?.sales ?? 0),
      pointsEarned: Number(pTotals?.points ?? 0),
      refunds: Number(rTotals?.n ?? 0),
      refunded: Number(rTotals?.amount ?? 0),
      pointsReversed: Number(rTotals?.points ?? 0),
      couponUses: Number(cTotals?.n ?? 0),
    },
  };
}

/** A store's name (for the counter's header and confirmations); null for an unknown id. */
export async function storeName(db: Database, storeId: string): Promise<LocalizedText | null> {
  const [found] = await db.select({ name: store.name }).from(store).where(eq(store.id, storeId));
  return found?.name ?? null;
}

/** A purchase of this store to refund, with its member's number and current balance (for the preview). */
export async function purchaseForRefund(
  db: Database,
  storeId: string,
  receiptNumber: string,
): Promise<{ purchase: Purchase; memberNumber: string; balance: number }> {
  const found = await purchaseByReceipt(db, storeId, receiptNumber);
  const [owner] = await db
    .select({ memberNumber: member.memberNumber, balance: loyaltyAccount.balance })
    .from(member)
    .leftJoin(loyaltyAccount, eq(loyaltyAccount.memberId, member.id))
    .where(eq(member.id, found.memberId));
  return { purchase: found, memberNumber: owner?.memberNumber ?? "", balance: owner?.balance ?? 0 };
}
