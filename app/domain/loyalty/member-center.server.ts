import { cacheRegion } from "@platform/cache/shared-cache";
import { type Database, executePrepared } from "@platform/db/client";
import {
  coupon,
  type EntryKind,
  loyaltyAccount,
  loyaltyRules,
  material,
  materialFavourite,
  mediaImage,
  pointEntry,
  pointLot,
  purchase,
  type RewardImage,
  type RewardKind,
  reward,
  store,
  type Tier,
} from "@platform/db/schema";
import type { CatalogImage, LocalizedText } from "@platform/db/schema/catalog";
import { and, desc, eq, sql } from "drizzle-orm";
import type { MediaImageRef } from "~/domain/images/urls";
import { endOfTaipeiDay, startOfTaipeiDay } from "~/lib/time";
import { type CouponState, countsTowardRewardLimit, couponState } from "./coupon-state";
import { DEFAULT_RULES, oneYearAfter, spendWindowStart } from "./rules.server";
import { tierSpendSql } from "./tier-amount.server";

/**
 * Everything the member center shows, read in one go: a handful of indexed queries run in parallel
 * (the account, the soonest expiring lots, the 12-month spend, coupons, rewards, recent activity,
 * favourites), so the page costs one round of database work whatever the member's history.
 */

export type WalletCoupon = {
  id: string;
  code: string;
  state: CouponState;
  rewardName: string;
  kind: RewardKind;
  amountOff: number | null;
  pointsCost: number;
  issuedAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  /** A referral's points-free coupon (ADR 053), and why it was revoked (state "revoked"). */
  fromReferral: boolean;
  revokedReason: string | null;
};

export type CatalogueReward = {
  id: string;
  name: string;
  kind: RewardKind;
  /** Set in the console (ADR 029): a same-origin path and its alternative text in both languages. */
  image: RewardImage | null;
  /** An uploaded image (ADR 028) chosen in the console; wins over `image`. */
  media: MediaImageRef | null;
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
  purchase: {
    netAmount: number;
    receiptNumber: string;
    storeName: LocalizedText | null;
    /** NT$ of it paid with points (issue 36; the history page's rows carry it). */
    pointsSpentValue?: number;
  } | null;
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

type Json<T> = T | string | null;
const parsed = <T>(value: Json<T>): T | null => (typeof value === "string" ? (JSON.parse(value) as T) : value);
const asDate = (value: string | Date): Date => (value instanceof Date ? value : new Date(value));

type SummaryRow = {
  rules: Json<{ silverSpend: number; goldSpend: number }>;
  account: Json<{ balance: number; tier: Tier }>;
  expiring: Json<{ expiresAt: string; points: number }>;
  spend: Json<{ spend: number; oldest: string | null }>;
  coupons: Json<
    {
      id: string;
      code: string;
      status: string;
      rewardId: string;
      pointsCost: number;
      issuedAt: string;
      expiresAt: string;
      usedAt: string | null;
      referralId: string | null;
      revokedReason: string | null;
      rewardName: string;
      kind: RewardKind;
      amountOff: number | null;
    }[]
  >;
  rewards: Json<
    {
      id: string;
      name: string;
      kind: RewardKind;
      image: RewardImage | null;
      media: MediaImageRef | null;
      amountOff: number | null;
      pointsCost: number;
      couponValidDays: number;
      stock: number | null;
      perMemberLimit: number | null;
    }[]
  >;
  activity: Json<
    {
      id: string;
      kind: EntryKind;
      amount: number;
      at: string;
      reason: string | null;
      netAmount: number | null;
      receiptNumber: string | null;
      storeName: LocalizedText | null;
    }[]
  >;
  favourites: Json<{ id: string; name: LocalizedText; images: CatalogImage[] }[]>;
  /** The next moment a row read at `at` would read differently with no write at all (a reward or rules starting or ending, a purchase dated later). */
  horizon: string | Date | null;
};

/**
 * Summary rows per member, per instance (ADR 026). Tagged `m:<member id>`: any write to that
 * member's account, ledger, lots, purchases, coupons or favourites drops it on every instance
 * (invalidation bus); any change to rewards, rules, stores or materials drops them all (`m:*`).
 * The row also depends on the time it was read at: an entry serves only from that moment until
 * the first of the row's own horizon, the soonest lot expiry, the next Taipei midnight (the spend
 * window moves) and the time to live. What depends on "now" beyond that (coupon states, the tier
 * deadline) is computed from the row at every request.
 */
type CachedSummary = { row: SummaryRow | undefined; at: number; validUntil: number };
const SUMMARY_CACHE = { maxEntries: 5_000, ttlMs: 5 * 60_000, clearOn: ["m:*"] } as const;

/**
 * One statement (scalar subqueries, each answered as JSON): a single round trip, where eight
 * separate queries cost eight (PGlite runs them one after another; PostgreSQL would take eight
 * pool connections). Every subquery is served by an index on member_id. Prepared once per process
 * (executePrepared): its plan is reused.
 */
export async function memberCenterSummary(
  db: Database,
  memberId: string,
  now = new Date(),
  options: { fresh?: boolean } = {},
): Promise<MemberCenterSummary> {
  const row = await summaryRow(db, memberId, now, options.fresh ?? false);
  return shapeSummary(row, now);
}

/**
 * Drops this instance's cached summary of a member at once, for a write whose page is rendered in the same
 * request (a form posted without JavaScript: the action, then the loaders): the invalidation it sent reaches
 * every instance, this one included, only a moment after the commit (ADR 026).
 */
export function forgetMemberCenterSummary(db: Database, memberId: string): void {
  cacheRegion<CachedSummary>(db, "member-summaries", SUMMARY_CACHE)?.delete(memberId);
}

/**
 * `fresh`: read past the cache. A write request (an action, then the page's loaders in the same request,
 * as a form posted without JavaScript does) must see its own write before the invalidation it sent has
 * come back from the database (ADR 026).
 */
async function summaryRow(db: Database, memberId: string, now: Date, fresh: boolean): Promise<SummaryRow | undefined> {
  const cache = cacheRegion<CachedSummary>(db, "member-summaries", SUMMARY_CACHE);
  const t = now.getTime();
  const cached = fresh ? undefined : cache?.get(memberId);
  if (cached && cached.at <= t && t < cached.validUntil) return cached.row;
  const ticket = cache?.ticket() ?? 0;
  const row = await readSummaryRow(db, memberId, now);
  if (cache) {
    const expiring = parsed(row?.expiring ?? null);
    const limits = [endOfTaipeiDay(now).getTime(), t + SUMMARY_CACHE.ttlMs];
    if (expiring) limits.push(asDate(expiring.expiresAt).getTime());
    if (row?.horizon) limits.push(asDate(row.horizon).getTime());
    const validUntil = Math.min(...limits);
    cache.set(memberId, { row, at: t, validUntil }, ticket, [`m:${memberId}`], validUntil - t);
  }
  return row;
}

async function readSummaryRow(db: Database, memberId: string, now: Date): Promise<SummaryRow | undefined> {
  const at = now.toISOString();
  const windowStart = spendWindowStart(now).toISOString();
  const [row] = await executePrepared<SummaryRow>(
    db,
    "member_center_summary",
    sql`
    select
      (select json_build_object('silverSpend', r.silver_spend, 'goldSpend', r.gold_spend)
         from ${loyaltyRules} r where r.effective_from <= ${at}::timestamptz
         order by r.effective_from desc, r.id desc limit 1) as rules,
      (select json_build_object('balance', a.balance, 'tier', a.tier)
         from ${loyaltyAccount} a where a.member_id = ${memberId}) as account,
      (select json_build_object('expiresAt', l.expires_at, 'points', sum(l.remaining))
         from ${pointLot} l
         where l.member_id = ${memberId} and l.remaining > 0 and l.expires_at > ${at}::timestamptz
         group by l.expires_at order by l.expires_at limit 1) as expiring,
      (select json_build_object('spend', ${tierSpendSql("p")}, 'oldest', min(p.purchased_at))
         from ${purchase} p
         where p.member_id = ${memberId} and p.purchased_at >= ${windowStart}::timestamptz
           and p.purchased_at <= ${at}::timestamptz) as spend,
      (select coalesce(json_agg(c), '[]'::json) from (
         select c.id, c.code, c.status, c.reward_id as "rewardId", c.points_cost as "pointsCost",
                c.issued_at as "issuedAt", c.expires_at as "expiresAt", c.used_at as "usedAt",
                c.referral_id as "referralId", c.revoked_reason as "revokedReason", rw.name as "rewardName", rw.kind, rw.amount_off as "amountOff"
           from ${coupon} c join ${reward} rw on rw.id = c.reward_id
          where c.member_id = ${memberId}
          order by c.issued_at desc limit ${WALLET_LIMIT}) c) as coupons,
      (select coalesce(json_agg(r), '[]'::json) from (
         select rw.id, rw.name, rw.kind, rw.image, rw.amount_off as "amountOff", rw.points_cost as "pointsCost",
                rw.coupon_valid_days as "couponValidDays", rw.stock, rw.per_member_limit as "perMemberLimit",
                case when mi.id is null then null else json_build_object(
                  'hash', mi.hash, 'width', mi.width, 'height', mi.height, 'altZh', mi.alt_zh, 'altEn', mi.alt_en,
                  'variants', mi.variants) end as media
           from ${reward} rw
           left join ${mediaImage} mi on mi.id = rw.image_id
          where rw.active and (rw.valid_from is null or rw.valid_from <= ${at}::timestamptz)
            and (rw.valid_until is null or rw.valid_until > ${at}::timestamptz)
          order by rw.points_cost, rw.name) r) as rewards,
      (select coalesce(json_agg(e), '[]'::json) from (
         select e.id, e.kind, e.amount, e.created_at as "at", e.reason, p.net_amount as "netAmount",
                p.receipt_number as "receiptNumber", s.name as "storeName"
           from ${pointEntry} e
           left join ${purchase} p on p.id = e.purchase_id
           left join ${store} s on s.id = p.store_id
          where e.member_id = ${memberId}
          order by e.created_at desc, e.id desc limit ${ACTIVITY_LIMIT}) e) as activity,
      (select coalesce(json_agg(f), '[]'::json) from (
         select m.id, m.name, m.images
           from ${materialFavourite} mf join ${material} m on m.id = mf.material_id
          where mf.member_id = ${memberId} and m.published
          order by mf.created_at desc limit ${FAVOURITES_LIMIT}) f) as favourites,
      least(
        (select min(h.t) from (
           select rw.valid_from as t from ${reward} rw where rw.valid_from > ${at}::timestamptz
           union all select rw.valid_until from ${reward} rw where rw.valid_until > ${at}::timestamptz
           union all select r.effective_from from ${loyaltyRules} r where r.effective_from > ${at}::timestamptz) h),
        (select min(p.purchased_at) from ${purchase} p
          where p.member_id = ${memberId} and p.purchased_at > ${at}::timestamptz)) as horizon
  `,
  );
  return row;
}

function shapeSummary(row: SummaryRow | undefined, now: Date): MemberCenterSummary {
  const rules = parsed(row?.rules ?? null) ?? {
    silverSpend: DEFAULT_RULES.silverSpend,
    goldSpend: DEFAULT_RULES.goldSpend,
  };
  const account = parsed(row?.account ?? null);
  const expiringRow = parsed(row?.expiring ?? null);
  const spendRow = parsed(row?.spend ?? null);
  const coupons = (parsed(row?.coupons ?? null) ?? []).map((c) => ({
    ...c,
    issuedAt: asDate(c.issuedAt),
    expiresAt: asDate(c.expiresAt),
    usedAt: c.usedAt ? asDate(c.usedAt) : null,
  }));
  const rewards = parsed(row?.rewards ?? null) ?? [];
  const activity = (parsed(row?.activity ?? null) ?? []).map((a) => ({ ...a, at: asDate(a.at) }));
  const favourites = parsed(row?.favourites ?? null) ?? [];
  const accounts = account ? [account] : [];
  const expiring = expiringRow ? [{ expiresAt: asDate(expiringRow.expiresAt), points: expiringRow.points }] : [];
  const spendRows = [spendRow ?? { spend: 0, oldest: null }];

  const balance = accounts[0]?.balance ?? 0;
  const tier = accounts[0]?.tier ?? "basic";
  const spend = Number(spendRows[0]?.spend ?? 0);
  const oldest = spendRows[0]?.oldest ? new Date(spendRows[0].oldest) : null;
  const nextTier = NEXT_TIER[tier];
  const threshold = nextTier === "gold" ? rules.goldSpend : nextTier === "silver" ? rules.silverSpend : 0;

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
    fromReferral: c.referralId !== null,
    revokedReason: c.revokedReason,
  }));
  const heldPerReward = new Map<string, number>();
  for (const c of coupons) {
    if (countsTowardRewardLimit(c)) heldPerReward.set(c.rewardId, (heldPerReward.get(c.rewardId) ?? 0) + 1);
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
      image: r.image ?? null,
      media: r.media ?? null,
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
      pointsSpentValue: purchase.pointsSpentValue,
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
        ? {
            netAmount: a.netAmount,
            receiptNumber: a.receiptNumber,
            storeName: a.storeName,
            pointsSpentValue: a.pointsSpentValue ?? 0,
          }
        : null,
  }));
  return { entries, hasMore: rows.length > HISTORY_PAGE_SIZE };
}
