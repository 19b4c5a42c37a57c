import { mediaImage } from "@platform/db/schema/media";
import { member } from "@platform/db/schema/members";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Loyalty engine (docs/decisions/011-loyalty-ledger.md). Points are integers; money is integer NT$.
 * The ledger (`point_entry`) is append-only; `loyalty_account.balance` always equals its sum and is
 * updated in the same transaction, under `select … for update` on that row.
 */

export const TIERS = ["basic", "silver", "gold"] as const;
export type Tier = (typeof TIERS)[number];

export const ENTRY_KINDS = [
  "earn-purchase",
  "welcome",
  "birthday",
  "adjust",
  "redeem",
  "expire",
  "refund-reversal",
  "coupon-cancel",
  /** An opening balance brought from another system (issue 35): a lot with the old system's expiry. */
  "import",
  /** Points paying part of a purchase at the till (issue 36, ADR 040): a debit, FIFO by expiry. */
  "spend-purchase",
  /** Points paid on a purchase, given back by its refund (ADR 040): a credit into new lots. */
  "spend-return",
  /** Points for a kept showroom visit (issue 37, ADR 045): one per appointment checked in, key `visit:<id>`. */
  "visit",
  /** A referral's reward (issue 38, ADR 053): to the referrer and to the friend, keys `referral:<id>:<side>`. */
  "referral",
  /** A referral's reward taken back by the refund of its qualifying purchase (ADR 053). */
  "referral-reversal",
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** A referral's reward (ADR 053): points to each side, or a coupon of a catalogue reward to each side. */
export const REFERRAL_REWARD_KINDS = ["points", "coupon"] as const;
export type ReferralRewardKind = (typeof REFERRAL_REWARD_KINDS)[number];

/**
 * Every version of the rules an admin can change; the newest row with effectiveFrom ≤ now applies.
 * Multipliers are in permille (1.2 → 1200) so no floating point touches points.
 */
export const loyaltyRules = pgTable(
  "loyalty_rules",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** NT$ of net amount per point (before the multiplier). */
    amountPerPoint: integer("amount_per_point").notNull().default(100),
    silverSpend: integer("silver_spend").notNull().default(50_000),
    goldSpend: integer("gold_spend").notNull().default(200_000),
    basicMultiplierPermille: integer("basic_multiplier_permille").notNull().default(1000),
    silverMultiplierPermille: integer("silver_multiplier_permille").notNull().default(1200),
    goldMultiplierPermille: integer("gold_multiplier_permille").notNull().default(1500),
    welcomeEnabled: boolean("welcome_enabled").notNull().default(true),
    welcomePoints: integer("welcome_points").notNull().default(100),
    birthdayEnabled: boolean("birthday_enabled").notNull().default(true),
    birthdayPoints: integer("birthday_points").notNull().default(200),
    /** What one point is worth, in hundredths of NT$ (PRODUCT.md §4: NT$1 → 100), for the liability figure. */
    pointValueCents: integer("point_value_cents").notNull().default(100),
    /**
     * Paying with points (issue 36, ADR 040): at most this percentage of a purchase's net amount may be paid with
     * points (PRODUCT.md §12: 50); each point pays pointValueCents / 100 NT$.
     */
    maxSpendPercent: integer("max_spend_percent").notNull().default(50),
    /** Points for a kept showroom visit (issue 37, ADR 045): off by default; booked once per appointment at check-in. */
    keptVisitEnabled: boolean("kept_visit_enabled").notNull().default(false),
    keptVisitPoints: integer("kept_visit_points").notNull().default(50),
    /**
     * Referrals (issue 38, ADR 053; PRODUCT.md §12): after the friend's first purchase of at least
     * referralMinAmount NT$, referralPoints to each; at most referralMonthlyCap rewarded referrals per referrer per
     * Taipei month; a refund within referralWindowDays of that purchase takes both back.
     */
    referralEnabled: boolean("referral_enabled").notNull().default(true),
    referralPoints: integer("referral_points").notNull().default(300),
    referralMinAmount: integer("referral_min_amount").notNull().default(3000),
    referralMonthlyCap: integer("referral_monthly_cap").notNull().default(5),
    referralWindowDays: integer("referral_window_days").notNull().default(30),
    /**
     * Trade accounts (issue 38 part 2, ADR 057), a setting of the referral programme: a trade member's own purchases
     * earn their tier's points times this (‰, 1000 = ×1 = off; 1000–3000).
     */
    tradeMultiplierPermille: integer("trade_multiplier_permille").notNull().default(1000),
    /**
     * What a referral gives each side (ADR 053, "Later (coupon reward)"): `points` (referralPoints) or `coupon` (a
     * points-free coupon of the catalogue's reward referralRewardId, to the referrer and to the friend).
     */
    referralRewardKind: text("referral_reward_kind", { enum: REFERRAL_REWARD_KINDS }).notNull().default("points"),
    referralRewardId: uuid("referral_reward_id").references((): AnyPgColumn => reward.id),
    effectiveFrom: timestamp("effective_from", { withTimezone: true }).notNull().defaultNow(),
    /** Staff user id of the admin who made the change; null for the seeded defaults. */
    createdBy: text("created_by"),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("loyalty_rules_trade_multiplier", sql`${t.tradeMultiplierPermille} between 1000 and 3000`),
    check(
      "loyalty_rules_referral_coupon_reward",
      sql`${t.referralRewardKind} = 'points' or ${t.referralRewardId} is not null`,
    ),
  ],
);

/** One row per member: the balance (= ledger sum) and the tier. The row every mutation locks. */
export const loyaltyAccount = pgTable("loyalty_account", {
  memberId: uuid("member_id")
    .primaryKey()
    .references(() => member.id, { onDelete: "cascade" }),
  balance: integer("balance").notNull().default(0),
  /** Set when a refund took the balance below zero (the only way it can go there). */
  negativeSince: timestamp("negative_since", { withTimezone: true }),
  tier: text("tier", { enum: TIERS }).notNull().default("basic"),
  tierSince: timestamp("tier_since", { withTimezone: true }).notNull().defaultNow(),
  lastDowngradeAt: timestamp("last_downgrade_at", { withTimezone: true }),
  /**
   * When the member's latest purchase (by purchase time) was made: set in the transaction that books a
   * purchase, under this row's lock; its store is member.last_purchase_store_id (ADR 024 addendum).
   */
  lastPurchaseAt: timestamp("last_purchase_at", { withTimezone: true }),
  /**
   * The member signed up through a referral not yet decided (ADR 053): read by the purchase's lock statement, so a
   * purchase of anyone else pays nothing for referrals. Cleared by the statement that decides the referral.
   */
  referralPending: boolean("referral_pending").notNull().default(false),
  /**
   * The member is an approved trade account (ADR 057): read by the purchase's lock statement with the row, so the
   * trade multiplier costs no extra statement. Set by the approval's statement.
   */
  trade: boolean("trade").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The append-only ledger. */
export const pointEntry = pgTable(
  "point_entry",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ENTRY_KINDS }).notNull(),
    /** Positive for credits, negative for debits. */
    amount: integer("amount").notNull(),
    /** Expiry of the lot this entry created (credits that create a lot). */
    lotExpiresAt: timestamp("lot_expires_at", { withTimezone: true }),
    storeId: text("store_id"),
    receiptNumber: text("receipt_number"),
    staffUserId: text("staff_user_id"),
    apiKeyId: text("api_key_id"),
    purchaseId: uuid("purchase_id"),
    couponId: uuid("coupon_id"),
    reason: text("reason"),
    /** A retried operation books once: the database refuses a second entry with the same key. */
    idempotencyKey: text("idempotency_key").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("point_entry_member_idx").on(t.memberId, t.createdAt)],
);

/** What is left of each credited lot; spending consumes the lots that expire first. */
export const pointLot = pgTable(
  "point_lot",
  {
    entryId: uuid("entry_id")
      .primaryKey()
      .references(() => pointEntry.id, { onDelete: "cascade" }),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    remaining: integer("remaining").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Points of this lot booked as expired so far (part of the expiry entries' keys). */
    expired: integer("expired").notNull().default(0),
  },
  (t) => [
    index("point_lot_member_idx").on(t.memberId, t.expiresAt),
    index("point_lot_expiry_idx").on(t.expiresAt).where(sql`${t.remaining} > 0`),
    check("point_lot_remaining_nonnegative", sql`${t.remaining} >= 0`),
  ],
);

/** Which lots a debit took points from (so a cancelled coupon returns them to the same lots). */
export const pointLotUse = pgTable(
  "point_lot_use",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    debitEntryId: uuid("debit_entry_id")
      .notNull()
      .references(() => pointEntry.id, { onDelete: "cascade" }),
    lotEntryId: uuid("lot_entry_id")
      .notNull()
      .references(() => pointLot.entryId, { onDelete: "cascade" }),
    points: integer("points").notNull(),
  },
  (t) => [index("point_lot_use_debit_idx").on(t.debitEntryId)],
);

export const purchase = pgTable(
  "purchase",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    storeId: text("store_id").notNull(),
    receiptNumber: text("receipt_number").notNull(),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    /** Net amount in NT$ (integer, > 0). */
    netAmount: integer("net_amount").notNull(),
    purchasedAt: timestamp("purchased_at", { withTimezone: true }).notNull(),
    refundedAmount: integer("refunded_amount").notNull().default(0),
    pointsEarned: integer("points_earned").notNull().default(0),
    pointsReversed: integer("points_reversed").notNull().default(0),
    /** Points that paid part of the purchase (ADR 040), and the NT$ they paid: net − that value earns points. */
    pointsSpent: integer("points_spent").notNull().default(0),
    pointsSpentValue: integer("points_spent_value").notNull().default(0),
    /** Of pointsSpent, how many its refunds have given back so far. */
    pointsReturned: integer("points_returned").notNull().default(0),
    staffUserId: text("staff_user_id"),
    apiKeyId: text("api_key_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // purchase cost (ADR 039): a POS purchase's Idempotency-Key, its request's hash and the answer it was
    // given live in the purchase row (no api_idempotency row for a purchase).
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    answer: jsonb("answer"),
  },
  (t) => [
    check(
      "purchase_points_spent",
      sql`${t.pointsSpent} >= 0 and ${t.pointsSpentValue} between 0 and ${t.netAmount} and ${t.pointsReturned} between 0 and ${t.pointsSpent}`,
    ),
    unique("purchase_store_receipt_unique").on(t.storeId, t.receiptNumber),
    unique("purchase_idempotency_key_unique").on(t.apiKeyId, t.idempotencyKey),
    index("purchase_member_idx").on(t.memberId, t.purchasedAt),
    /** The counter's day list (ADR 022). */
    index("purchase_store_created_idx").on(t.storeId, t.createdAt),
    /** Sales per clerk and store for a date range (ADR 042): only purchases with a clerk. */
    index("purchase_clerk_sales_idx").on(t.storeId, t.purchasedAt).where(sql`${t.staffUserId} is not null`),
    check("purchase_amounts", sql`${t.netAmount} > 0 and ${t.refundedAmount} between 0 and ${t.netAmount}`),
  ],
);

export const purchaseRefund = pgTable(
  "purchase_refund",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    purchaseId: uuid("purchase_id")
      .notNull()
      .references(() => purchase.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    pointsReversed: integer("points_reversed").notNull(),
    /** The spent points this refund gave back (ADR 040). */
    pointsReturned: integer("points_returned").notNull().default(0),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    staffUserId: text("staff_user_id"),
    apiKeyId: text("api_key_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("purchase_refund_purchase_idx").on(t.purchaseId),
    /** The counter's day list (ADR 022). */
    index("purchase_refund_created_idx").on(t.createdAt),
  ],
);

export const tierChange = pgTable(
  "tier_change",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    fromTier: text("from_tier", { enum: TIERS }).notNull(),
    toTier: text("to_tier", { enum: TIERS }).notNull(),
    /** e.g. "purchase", "nightly-evaluation". */
    reason: text("reason").notNull(),
    spend12Months: integer("spend_12_months").notNull(),
    rulesId: integer("rules_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("tier_change_member_idx").on(t.memberId, t.createdAt)],
);

export const REWARD_KINDS = ["amount-off", "gift", "service"] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

/**
 * A reward's picture given as a same-origin path and its alternative text in both languages (rewards
 * made before the image upload). New pictures are uploaded images: `reward.image_id` (ADR 028).
 */
export type RewardImage = { src: string; alt: { "zh-TW": string; en: string } };

export const reward = pgTable(
  "reward",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    kind: text("kind", { enum: REWARD_KINDS }).notNull(),
    /** NT$ off, for amount-off rewards. */
    amountOff: integer("amount_off"),
    pointsCost: integer("points_cost").notNull(),
    /** Coupons left; null = unlimited. */
    stock: integer("stock"),
    /** Coupons per member (cancelled ones do not count); null = no limit. */
    perMemberLimit: integer("per_member_limit"),
    validFrom: timestamp("valid_from", { withTimezone: true }),
    validUntil: timestamp("valid_until", { withTimezone: true }),
    /** Stores where its coupons may be used; null = every store. */
    storeIds: text("store_ids").array(),
    /** Days a coupon stays usable after it is issued (capped by validUntil). */
    couponValidDays: integer("coupon_valid_days").notNull().default(90),
    /** False once retired in the console (ADR 029): no longer offered, issued coupons stay valid. */
    active: boolean("active").notNull().default(true),
    image: jsonb("image").$type<RewardImage>(),
    /** An uploaded image (ADR 028; its alt texts are the image's); no cascade: an image in use cannot be deleted. */
    imageId: uuid("image_id").references(() => mediaImage.id),
    /** Optimistic concurrency (ADR 029): every console save is `… where version = <the version edited>`. */
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("reward_points_cost_positive", sql`${t.pointsCost} > 0`),
    check("reward_stock_nonnegative", sql`${t.stock} is null or ${t.stock} >= 0`),
    check("reward_per_member_limit_positive", sql`${t.perMemberLimit} is null or ${t.perMemberLimit} > 0`),
  ],
);

/** Stock set or adjusted in the console, with the reason (redemptions and cancellations are the coupons). */
export const rewardStockChange = pgTable(
  "reward_stock_change",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    rewardId: uuid("reward_id")
      .notNull()
      .references(() => reward.id, { onDelete: "cascade" }),
    /** Null when the stock became unlimited. */
    delta: integer("delta"),
    /** Stock after the change; null = unlimited. */
    stockAfter: integer("stock_after"),
    reason: text("reason").notNull(),
    staffUserId: text("staff_user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reward_stock_change_reward_idx").on(t.rewardId, t.createdAt)],
);

export const coupon = pgTable(
  "coupon",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    /** Unguessable (128 random bits), QR-ready. */
    code: text("code").notNull().unique(),
    rewardId: uuid("reward_id")
      .notNull()
      .references(() => reward.id),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    /** `revoked`: a referral coupon taken back by the refund of the qualifying purchase (ADR 053). */
    status: text("status", { enum: ["issued", "used", "cancelled", "revoked"] })
      .notNull()
      .default("issued"),
    /** Points paid for it (0 for a referral coupon). */
    pointsCost: integer("points_cost").notNull(),
    /** The redemption's ledger debit; null for a points-free coupon (a referral's, referralId). */
    redeemEntryId: uuid("redeem_entry_id"),
    /**
     * The referral that gave it (ADR 053), one per member and referral (the unique index: issued once). No foreign
     * key (the referral table's module imports this one); a member's deletion removes both.
     */
    referralId: uuid("referral_id"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    usedStoreId: text("used_store_id"),
    usedByStaffUserId: text("used_by_staff_user_id"),
    usedByApiKeyId: text("used_by_api_key_id"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** When and why it was revoked (`referral_refund`: the referral's qualifying purchase was refunded). */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
  },
  (t) => [
    index("coupon_member_idx").on(t.memberId, t.rewardId),
    uniqueIndex("coupon_referral_member_idx").on(t.referralId, t.memberId).where(sql`${t.referralId} is not null`),
    check("coupon_paid_or_referral", sql`${t.redeemEntryId} is not null or ${t.referralId} is not null`),
    /** A member's coupons newest first (member center, console): no sort of a heavy member's whole list. */
    index("coupon_member_issued_idx").on(t.memberId, t.issuedAt.desc()),
    /** The counter's day list (ADR 022). */
    index("coupon_used_store_idx").on(t.usedStoreId, t.usedAt),
    /** The daily "coupon expiring" reminders (ADR 034): unused coupons by expiry. */
    index("coupon_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'issued'`),
  ],
);

/**
 * A code the member confirms a spend of points with (issue 36, ADR 052): a clerk who found the member without
 * scanning the card (a typed phone or member number) or a till that sent a member number asks for one; the
 * member sees it in the member center ("門市要折抵 N 點") and reads it out. Bound to the member, the store, who
 * asked (`staff:<userId>` or `key:<apiKeyId>`), the points and the amount; only its HMAC is stored; good for 5
 * minutes; used once (a conditional update in the purchase's transaction sets `used_at`). Asking again replaces
 * the asker's unused code for that member.
 */
export const spendCode = pgTable(
  "spend_code",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    storeId: text("store_id").notNull(),
    requester: text("requester").notNull(),
    points: integer("points").notNull(),
    netAmount: integer("net_amount").notNull(),
    codeHash: text("code_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    index("spend_code_member_idx").on(t.memberId, t.createdAt),
    check("spend_code_amounts", sql`${t.points} > 0 and ${t.netAmount} > 0`),
  ],
);
