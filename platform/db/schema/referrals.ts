import { REFERRAL_REWARD_KINDS, reward } from "@platform/db/schema/loyalty";
import { member } from "@platform/db/schema/members";
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * Referrals (issue 38, ADR 053).
 *
 * - `member.referral_code` (members.ts) is the member's code; the link is `/r/<code>`.
 * - `referral`: a friend who signed up through a referrer's link (one per friend), `pending` until the friend's
 *   first purchase of at least the minimum, then `rewarded` (both got their points) or `capped` (the referrer had
 *   reached the month's limit: linked, no reward); `reversed` when that purchase was refunded within the window.
 * - `referral_month`: rewarded referrals per referrer and Taipei month, the row the monthly limit is claimed on by
 *   one statement (`… on conflict do update set rewarded = rewarded + 1 where rewarded < cap returning`).
 */
export const REFERRAL_STATES = ["pending", "rewarded", "capped", "reversed"] as const;
export type ReferralState = (typeof REFERRAL_STATES)[number];

export const referral = pgTable(
  "referral",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    referrerId: uuid("referrer_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    friendId: uuid("friend_id")
      .notNull()
      .unique()
      .references(() => member.id, { onDelete: "cascade" }),
    /** The code the friend came with (the referrer's code then). */
    code: text("code").notNull(),
    state: text("state", { enum: REFERRAL_STATES }).notNull().default("pending"),
    /** The qualifying purchase (set when decided). */
    purchaseId: uuid("purchase_id"),
    /** Points booked to each side (0 when capped or when the reward was a coupon). */
    points: integer("points").notNull().default(0),
    /** What the rules in force at the decision gave (ADR 053): points, or a coupon of `rewardId` to each side. */
    rewardKind: text("reward_kind", { enum: REFERRAL_REWARD_KINDS }).notNull().default("points"),
    rewardId: uuid("reward_id").references(() => reward.id),
    /** The purchase's time + the rules' window: a refund before it reverses the rewards. */
    reversibleUntil: timestamp("reversible_until", { withTimezone: true }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    reversedAt: timestamp("reversed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("referral_referrer_idx").on(t.referrerId, t.createdAt),
    index("referral_purchase_idx").on(t.purchaseId).where(sql`${t.purchaseId} is not null`),
    check("referral_not_self", sql`${t.referrerId} <> ${t.friendId}`),
  ],
);

export const referralMonth = pgTable(
  "referral_month",
  {
    referrerId: uuid("referrer_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    /** Taipei month, YYYY-MM. */
    month: text("month").notNull(),
    rewarded: integer("rewarded").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.referrerId, t.month] })],
);

/**
 * Trade accounts (issue 38 part 2, ADR 057): a member's application with a 統編 and a company, decided by an admin.
 * At most one application of a member is pending or approved at a time (the partial unique index the application's
 * insert claims with `on conflict do nothing`); a rejected one keeps its reason. The approval sets
 * `loyalty_account.trade`, which the purchase reads with its lock.
 */
export const TRADE_APPLICATION_STATES = ["pending", "approved", "rejected"] as const;
export type TradeApplicationState = (typeof TRADE_APPLICATION_STATES)[number];
export const TRADE_KINDS = ["designer", "contractor", "tradesman", "other"] as const;
export type TradeKind = (typeof TRADE_KINDS)[number];

export const tradeApplication = pgTable(
  "trade_application",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    /** 統一編號: 8 digits with the Ministry of Finance checksum (isValidTaxIdNumber). */
    taxIdNumber: text("tax_id_number").notNull(),
    companyName: text("company_name").notNull(),
    kind: text("kind", { enum: TRADE_KINDS }).notNull(),
    state: text("state", { enum: TRADE_APPLICATION_STATES }).notNull().default("pending"),
    /** Why it was rejected (required then), shown to the member. */
    reason: text("reason"),
    /** The staff user id who decided. */
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("trade_application_open_unique").on(t.memberId).where(sql`${t.state} in ('pending', 'approved')`),
    index("trade_application_member_idx").on(t.memberId, t.createdAt),
    index("trade_application_state_idx").on(t.state, t.createdAt),
    check("trade_application_reason", sql`${t.state} <> 'rejected' or ${t.reason} is not null`),
  ],
);
