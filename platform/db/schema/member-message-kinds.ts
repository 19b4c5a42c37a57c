/**
 * The fixed lists of messages to members (ADR 034), without the tables: pages import these, and a page that
 * imported the table definitions would ship Drizzle's column builders to the browser.
 */
export const AUTOMATIC_KINDS = [
  "welcome",
  "tier-up",
  "points-expiring-30",
  "points-expiring-7",
  "coupon-expiring",
  "birthday",
  "receipt",
  "points-granted",
  // Quote lists (issue 37 part 4, ADR 047): staff answered a member's quote request.
  "quote-answered",
  // Samples due back in 2 days (issue 37 part 3, ADR 046).
  "sample-due",
] as const;
export type AutomaticKind = (typeof AUTOMATIC_KINDS)[number];

export const MESSAGE_CHANNELS = ["line", "sms", "email"] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/**
 * What became of one member's message. `queued`: waiting for its time; `held`: marketing waiting out the quiet
 * hours (21:00–09:00 Taipei); `sending`: claimed by a delivery pass (a retry sends again with the same retry key);
 * `sent`; `failed` (the provider refused for good, or retries ran out); `unreachable` (no channel can reach the
 * member); `opted-out` (marketing the member refused, also when they refused after it was queued); `capped` (the
 * weekly marketing limit); `cancelled` (the automatic message was switched off, or the campaign cancelled, before
 * it went out); `control` (held back as the campaign's control group: never sent, counted for the uplift, ADR 055).
 */
export const MESSAGE_STATUSES = [
  "queued",
  "held",
  "sending",
  "sent",
  "failed",
  "unreachable",
  "opted-out",
  "capped",
  "cancelled",
  "control",
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "sent", "cancelled"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** The audience of a campaign: the member filters (messages/audience.ts), stored as the admin chose them. */
export type CampaignAudience = {
  tiers?: string[];
  city?: string | null;
  /** A purchase within the last N days (positive) or none for N days (negative); null = either. */
  lastPurchaseDays?: number | null;
  balanceMin?: number | null;
  balanceMax?: number | null;
  /** 1–12: birthday in that month. */
  birthdayMonth?: number | null;
  /** Only members this channel can reach (linked and following for LINE). */
  reachable?: "line" | "sms" | "email" | null;
  /** Showroom filters (ADR 048): saved a material of this category. */
  favouriteCategory?: string | null;
  /** Came to this store (a checked-in appointment or a purchase there) in the last `visitedDays` Taipei days. */
  visitedStoreId?: string | null;
  visitedDays?: number | null;
  /** Has a quote request still open (asked or answered, not accepted, closed or withdrawn; ADR 047). */
  quoteOpen?: boolean | null;
  /** RFM filters (saved segments, ADR 056): a recency, frequency or money score 1–5, or a group of the grid. */
  rfmR?: number | null;
  rfmF?: number | null;
  rfmM?: number | null;
  rfmGroup?: RfmGroupName | null;
};

/** The RFM groups (app/domain/segments/rfm.ts holds their rules). */
export type RfmGroupName =
  | "champions"
  | "loyal"
  | "potential"
  | "new"
  | "at-risk"
  | "cant-lose"
  | "hibernating"
  | "lost";
