import { and, asc, desc, eq, gt, gte, lte, sql } from "drizzle-orm";
import { startOfTaipeiDay } from "~/lib/time";
import type { Database } from "../../../server/db/client";
import {
  coupon,
  type EntryKind,
  loyaltyAccount,
  material,
  materialFavourite,
  pointEntry,
  pointLot,
  purchase,
  reward,
  store,
  type Tier,
} from "../../../server/db/schema";
import type { CatalogImage, LocalizedText } from "../../../server/db/schema/catalog";
import { currentRules, oneYearAfter, spendWindowStart, tierThreshold } from "./rules.server";

/**
 * Everything the member center shows, read in one go: a handful of indexed queries run in parallel
 * (the account, the soonest expiring lots, the 12-month spend, coupons, rewards, recent activity,
 * favourites), so the page costs one round of database work whatever the member's history.
 */

export type CouponState = "unused" | "used" | "expired" | "cancelled";

export type WalletCoupon = {
  id: string;
  code: string;
  state: CouponState;
  rewardName: string;
  kind: "amount-off" | "gift";
  amountOff: number | null;
  pointsCost: number;
  issuedAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
};

export type CatalogueReward = {
  id: string;
  name: string;
  kind: "amount-off" | "gift";
  amountOff: number | null;
  pointsCost: number;
  couponValidDays: number;
  /** Coupons left when the stock is limited. */
  stock: number | null;
  /** Why the member cannot redeem it now (null: they can). */
  blocked: "points" | "limit" | "stock" | null;
};

export type Activity = {
  id: string;
  kind: EntryKind;
  amount: number;
  at: Date;
  reason: string | null;
  /** For points earned on (or reversed from) a purchase. */
  purchase: { netAmount: number; receiptNumber: string; storeName: LocalizedText | null } | null;
};

export type FavouriteMaterial = { id: string; name: LocalizedText; image: CatalogImage | null };

export type MemberCenterSummary = {
  balance: number;
  tier: Tier;
  /** The soonest lot expiry still ahead and the points in it. */
  expiring: { points: number; expiresAt: Date } | null;
  spend12Months: number;
  next: { tier: Tier; threshold: number; amountNeeded: number; by: Date } | null;
  coupons: WalletCoupon[];
  rewards: CatalogueReward[];
  activity: Activity[];
  favourites: FavouriteMaterial[];
};

const NEXT_TIER: Record<Tier, Tier | null> = { basic: "silver", silver: "gold", gold: null };

/** How many coupons the wallet lists (newest first); older ones stay in the database. */
export const WALLET_LIMIT = 60;
export const ACTIVITY_LIMIT = 8;
export const FAVOURITES_LIMIT = 6;

export function couponState(c: { status: string; expiresAt: Date }, now: Date): CouponState {
  if (c.status === "used") return "used";
  if (c.status === "cancelled") return "cancelled";
  return c.expiresAt <= now ? "expired" : "unused";
}

export async function memberCenterSummary(
  db: Database,
  memberId: string,
  now = new Date(),
): Promise<MemberCenterSummary> {
  const windowStart = spendWindowStart(now);
  const [rules, accounts, expiring, spendRows, coupons, rewards, activity, favourites] = await Promise.all([
    currentRules(db, now),
    db
      .select({ balance: loyaltyAccount.balance, tier: loyaltyAccount.tier })
      .from(loyaltyAccount)
      .where(eq(loyaltyAccount.memberId, memberId)),
    db
      .select({ expiresAt: pointLot.expiresAt, points: sql<string>`sum(${pointLot.remaining})` })
      .from(pointLot)
      .where(and(eq(pointLot.memberId, memberId), gt(pointLot.remaining, 0), gt(pointLot.expiresAt, now)))
      .groupBy(pointLot.expiresAt)
      .orderBy(asc(pointLot.expiresAt))
      .limit(1),
    db
      .select({
        spend: sql<string>`coalesce(sum(${purchase.netAmount} - ${purchase.refundedAmount}), 0)`,
        oldest: sql<Date | string | null>`min(${purchase.purchasedAt})`,
      })
      .from(purchase)
      .where(
        and(eq(purchase.memberId, memberId), gte(purchase.purchasedAt, windowStart), lte(purchase.purchasedAt, now)),
      ),
    db
      .select({
        id: coupon.id,
        code: coupon.code,
        status: coupon.status,
        rewardId: coupon.rewardId,
        pointsCost: coupon.pointsCost,
        issuedAt: coupon.issuedAt,
        expiresAt: coupon.expiresAt,
        usedAt: coupon.usedAt,
        rewardName: reward.name,
        kind: reward.kind,
        amountOff: reward.amountOff,
      })
      .from(coupon)
      .innerJoin(reward, eq(reward.id, coupon.rewardId))
      .where(eq(coupon.memberId, memberId))
      .orderBy(desc(coupon.issuedAt))
      .limit(WALLET_LIMIT),
    db
      .select()
      .from(reward)
      .where(
        and(
          eq(reward.active, true),
          sql`(${reward.validFrom} is null or ${reward.validFrom} <= ${now.toISOString()}::timestamptz)`,
          sql`(${reward.validUntil} is null or ${reward.validUntil} > ${now.toISOString()}::timestamptz)`,
        ),
      )
      .orderBy(asc(reward.pointsCost), asc(reward.name)),
    db
      .select({
        id: pointEntry.id,
        kind: pointEntry.kind,
        amount: pointEntry.amount,
        at: pointEntry.createdAt,
        reason: pointEntry.reason,
        netAmount: purchase.netAmount,
        receiptNumber: purchase.receiptNumber,
        storeName: store.name,
      })
      .from(pointEntry)
      .leftJoin(purchase, eq(purchase.id, pointEntry.purchaseId))
      .leftJoin(store, eq(store.id, purchase.storeId))
      .where(eq(pointEntry.memberId, memberId))
      .orderBy(desc(pointEntry.createdAt), desc(pointEntry.id))
      .limit(ACTIVITY_LIMIT),
    db
      .select({ id: material.id, name: material.name, images: material.images })
      .from(materialFavourite)
      .innerJoin(material, eq(material.id, materialFavourite.materialId))
      .where(and(eq(materialFavourite.memberId, memberId), eq(material.published, true)))
      .orderBy(desc(materialFavourite.createdAt))
      .limit(FAVOURITES_LIMIT),
  ]);

  const balance = accounts[0]?.balance ?? 0;
  const tier = accounts[0]?.tier ?? "basic";
  const spend = Number(spendRows[0]?.spend ?? 0);
  const oldest = spendRows[0]?.oldest ? new Date(spendRows[0].oldest) : null;
  const nextTier = NEXT_TIER[tier];
  const threshold = nextTier ? tierThreshold(rules, nextTier) : 0;

  const wallet: WalletCoupon[] = coupons.map((c) => ({
    id: c.id,
    code: c.code,
    state: couponState(c, now),
    rewardName: c.rewardName,
    kind: c.kind,
    amountOff: c.amountOff,
    pointsCost: c.pointsCost,
    issuedAt: c.issuedAt,
    expiresAt: c.expiresAt,
    usedAt: c.usedAt,
  }));
  const heldPerReward = new Map<string, number>();
  for (const c of coupons) {
    if (c.status !== "cancelled") heldPerReward.set(c.rewardId, (heldPerReward.get(c.rewardId) ?? 0) + 1);
  }

  return {
    balance,
    tier,
    expiring: expiring[0] ? { points: Number(expiring[0].points), expiresAt: expiring[0].expiresAt } : null,
    spend12Months: spend,
    next: nextTier
      ? {
          tier: nextTier,
          threshold,
          amountNeeded: Math.max(0, threshold - spend),
          // The oldest counted purchase stops counting at the start of its anniversary (Taipei day):
          // spendWindowStart(now) is the day after the same date last year.
          by: startOfTaipeiDay(oneYearAfter(oldest ?? now)),
        }
      : null,
    coupons: wallet,
    rewards: rewards.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      amountOff: r.amountOff,
      pointsCost: r.pointsCost,
      couponValidDays: r.couponValidDays,
      stock: r.stock,
      blocked:
        r.stock !== null && r.stock <= 0
          ? "stock"
          : r.perMemberLimit !== null && (heldPerReward.get(r.id) ?? 0) >= r.perMemberLimit
            ? "limit"
            : r.pointsCost > balance
              ? "points"
              : null,
    })),
    activity: activity.map((a) => ({
      id: a.id,
      kind: a.kind,
      amount: a.amount,
      at: a.at,
      reason: a.reason,
      purchase:
        a.netAmount !== null && a.receiptNumber !== null
          ? { netAmount: a.netAmount, receiptNumber: a.receiptNumber, storeName: a.storeName }
          : null,
    })),
    favourites: favourites.map((f) => ({ id: f.id, name: f.name, image: f.images[0] ?? null })),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A coupon's code, only for the member who owns it (null for anyone else's or an unknown id). */
export async function couponCodeForMember(db: Database, memberId: string, couponId: string): Promise<string | null> {
  if (!UUID.test(couponId)) return null;
  const [found] = await db
    .select({ code: coupon.code })
    .from(coupon)
    .where(and(eq(coupon.id, couponId), eq(coupon.memberId, memberId)));
  return found?.code ?? null;
}

export const HISTORY_PAGE_SIZE = 30;

/** One page of the full points history, newest first (with the purchase behind each purchase entry). */
export async function pointsHistory(db: Database, memberId: string, page: number) {
  const rows = await db
    .select({
      id: pointEntry.id,
      kind: pointEntry.kind,
      amount: pointEntry.amount,
      at: pointEntry.createdAt,
      reason: pointEntry.reason,
      netAmount: purchase.netAmount,
      receiptNumber: purchase.receiptNumber,
      storeName: store.name,
    })
    .from(pointEntry)
    .leftJoin(purchase, eq(purchase.id, pointEntry.purchaseId))
    .leftJoin(store, eq(store.id, purchase.storeId))
    .where(eq(pointEntry.memberId, memberId))
    .orderBy(desc(pointEntry.createdAt), desc(pointEntry.id))
    .limit(HISTORY_PAGE_SIZE + 1)
    .offset((page - 1) * HISTORY_PAGE_SIZE);
  const entries: Activity[] = rows.slice(0, HISTORY_PAGE_SIZE).map((a) => ({
    id: a.id,
    kind: a.kind,
    amount: a.amount,
    at: a.at,
    reason: a.reason,
    purchase:
      a.netAmount !== null && a.receiptNumber !== null
        ? { netAmount: a.netAmount, receiptNumber: a.receiptNumber, storeName: a.storeName }
        : null,
  }));
  return { entries, hasMore: rows.length > HISTORY_PAGE_SIZE };
}
