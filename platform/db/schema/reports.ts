import { bigint, date, index, pgTable, primaryKey, smallint, text, uuid } from "drizzle-orm/pg-core";

/**
 * Summary tables behind the console dashboard (docs/decisions/025-dashboard-summaries.md). They are written only
 * by database triggers on the base tables (purchase, purchase_refund, point_entry, point_lot, loyalty_account,
 * member, tier_change, coupon), in the same transaction as the change, by atomic
 * `insert … on conflict do update set x = x + excluded.x`; `report_rebuild()` recomputes them from the base tables.
 * Counters are split into `shard`s (0–7, from a hash of the member id; 0–63 for report_account and
 * report_lot_expiry, which every balance change touches) so concurrent purchases do not queue on one row; readers
 * sum the shards. Days and months are Asia/Taipei. `store_id` '' = no store
 * (welcome and birthday points, expiry, sign-ups, online redemptions).
 */

const big = (name: string) => bigint(name, { mode: "number" }).notNull().default(0);

/** Per Taipei day × store: purchases, sales, refunds, points by kind, sign-ups by channel. */
export const reportDayStore = pgTable(
  "report_day_store",
  {
    day: date("day", { mode: "string" }).notNull(),
    storeId: text("store_id").notNull(),
    shard: smallint("shard").notNull(),
    purchases: big("purchases"),
    sales: big("sales"),
    refunds: big("refunds"),
    pointsEarned: big("points_earned"),
    pointsBonus: big("points_bonus"),
    pointsAdjustedIn: big("points_adjusted_in"),
    pointsAdjustedOut: big("points_adjusted_out"),
    pointsReversed: big("points_reversed"),
    pointsRedeemed: big("points_redeemed"),
    pointsReturned: big("points_returned"),
    pointsExpired: big("points_expired"),
    signupsPhone: big("signups_phone"),
    signupsLine: big("signups_line"),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.storeId, t.shard] }),
    index("report_day_store_store_idx").on(t.storeId, t.day),
  ],
);

/** Per member × store: the Taipei day of the last purchase (store_id '*' = at any store) — active members. */
export const reportMemberStore = pgTable(
  "report_member_store",
  {
    memberId: uuid("member_id").notNull(),
    storeId: text("store_id").notNull(),
    lastDay: date("last_day", { mode: "string" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.storeId] }),
    // Covering: active members are counted from the index alone (index-only scan), not from the table.
    index("report_member_store_last_idx").on(t.storeId, t.lastDay, t.memberId),
  ],
);

/** Per member × store × Taipei month with a purchase ('*' = any store), with the member's sign-up month. */
export const reportMemberMonth = pgTable(
  "report_member_month",
  {
    storeId: text("store_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    memberId: uuid("member_id").notNull(),
    signupMonth: date("signup_month", { mode: "string" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.month, t.memberId] }),
    // A manager's cohorts (several stores, members counted once): only the cohorts of the range, from the index alone.
    index("report_member_month_cohort_idx").on(t.storeId, t.signupMonth, t.month, t.memberId),
  ],
);

/** Cohorts: members who signed up in signup_month and bought (at store_id; '*' = anywhere) in month. */
export const reportCohort = pgTable(
  "report_cohort",
  {
    storeId: text("store_id").notNull(),
    signupMonth: date("signup_month", { mode: "string" }).notNull(),
    month: date("month", { mode: "string" }).notNull(),
    shard: smallint("shard").notNull(),
    members: big("members"),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.signupMonth, t.month, t.shard] })],
);

/** Members and outstanding points (sum of balances) per tier. */
export const reportAccount = pgTable(
  "report_account",
  {
    tier: text("tier").notNull(),
    shard: smallint("shard").notNull(),
    members: big("members"),
    points: big("points"),
  },
  (t) => [primaryKey({ columns: [t.tier, t.shard] })],
);

/** Points still in lots, by the Taipei day the lot expires. */
export const reportLotExpiry = pgTable(
  "report_lot_expiry",
  {
    day: date("day", { mode: "string" }).notNull(),
    shard: smallint("shard").notNull(),
    points: big("points"),
  },
  (t) => [primaryKey({ columns: [t.day, t.shard] })],
);

/** Tier changes per Taipei day, from → to. */
export const reportTierMove = pgTable(
  "report_tier_move",
  {
    day: date("day", { mode: "string" }).notNull(),
    fromTier: text("from_tier").notNull(),
    toTier: text("to_tier").notNull(),
    shard: smallint("shard").notNull(),
    moves: big("moves"),
  },
  (t) => [primaryKey({ columns: [t.day, t.fromTier, t.toTier, t.shard] })],
);

/** Coupons per Taipei day × reward × store: issued (store of the redemption), used (store of use), cancelled. */
export const reportRewardDay = pgTable(
  "report_reward_day",
  {
    day: date("day", { mode: "string" }).notNull(),
    rewardId: uuid("reward_id").notNull(),
    storeId: text("store_id").notNull(),
    shard: smallint("shard").notNull(),
    issued: big("issued"),
    used: big("used"),
    cancelled: big("cancelled"),
    /** Referral coupons revoked by the qualifying purchase's refund (ADR 053), on the day revoked (ADR 058). */
    revoked: big("revoked"),
    points: big("points"),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.rewardId, t.storeId, t.shard] }),
    index("report_reward_day_store_idx").on(t.storeId, t.day),
  ],
);
