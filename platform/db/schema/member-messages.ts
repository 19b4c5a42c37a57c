import {
  AUTOMATIC_KINDS,
  CAMPAIGN_STATUSES,
  type CampaignAudience,
  MESSAGE_CHANNELS,
  MESSAGE_STATUSES,
} from "@platform/db/schema/member-message-kinds";
import { member } from "@platform/db/schema/members";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export * from "@platform/db/schema/member-message-kinds";

/**
 * Messages to members (issue 16, PRODUCT.md §11, docs/decisions/034-member-messages.md): the automatic
 * messages' settings, the campaigns, and one row per member and occasion — the record of what was (or was not)
 * sent, by which channel, and why.
 */

/** One automatic message: on or off, its text in both languages, the channels it may use. */
export const automaticMessage = pgTable("automatic_message", {
  kind: text("kind", { enum: AUTOMATIC_KINDS }).primaryKey(),
  enabled: boolean("enabled").notNull(),
  /** The text with {placeholders} (messages/templates.ts), zh-TW and English (by the member's locale). */
  textZh: text("text_zh").notNull(),
  textEn: text("text_en").notNull(),
  /** The channels this message may go by, in the fixed order LINE → SMS → e-mail. */
  channels: text("channels", { enum: MESSAGE_CHANNELS }).array().notNull(),
  /** Optimistic concurrency: a save is `… where version = <the version edited>`. */
  version: integer("version").notNull().default(1),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A marketing message to an audience, composed in the console (admins). */
export const campaign = pgTable(
  "campaign",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("draft"),
    audience: jsonb("audience").$type<CampaignAudience>().notNull(),
    /** The message per channel; a channel without its text is not used by this campaign. */
    lineText: text("line_text"),
    smsText: text("sms_text"),
    emailSubject: text("email_subject"),
    emailBody: text("email_body"),
    /** When it goes (null = a draft, or "now" at the moment it was sent). */
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    /** Members it was queued for, when its audience was taken. */
    queuedCount: integer("queued_count"),
    version: integer("version").notNull().default(1),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    /**
     * Campaign results (issue 38 part 5, ADR 055): the share of the audience held back as the control group
     * (0–50 %, chosen deterministically when the audience is taken), and the Taipei days after a delivery or a
     * click within which a purchase is attributed to the campaign (1–30, default 7).
     */
    controlPercent: integer("control_percent").notNull().default(0),
    attributionDays: integer("attribution_days").notNull().default(7),
  },
  (t) => [
    index("campaign_created_idx").on(t.createdAt, t.id),
    check("campaign_control_percent", sql`${t.controlPercent} between 0 and 50`),
    check("campaign_attribution_days", sql`${t.attributionDays} between 1 and 30`),
  ],
);

/**
 * One message to one member for one occasion: `occasion` is unique per member (`welcome`, `tier-up:<change>`,
 * `points-expiring-30:<date>`, `receipt:<purchase>`, `campaign:<id>`…), so a job run twice, on two instances or
 * after a retry, records — and sends — it once.
 */
export const memberMessage = pgTable(
  "member_message",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    occasion: text("occasion").notNull(),
    /** An automatic kind, or `campaign`. */
    kind: text("kind").notNull(),
    campaignId: uuid("campaign_id").references(() => campaign.id, { onDelete: "cascade" }),
    /** Service messages follow the terms; marketing needs the channel's opt-in, quiet hours and the weekly cap. */
    purpose: text("purpose", { enum: ["service", "marketing"] }).notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull().default("queued"),
    channel: text("channel", { enum: MESSAGE_CHANNELS }),
    /** The template's values (points, dates, names…), fixed when the occasion happened. */
    data: jsonb("data").$type<Record<string, string | number>>().notNull().default({}),
    /** Not before this instant (quiet hours, a campaign's time, the courtesy hour of nightly reminders). */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    /** The delivery job that claimed it (a retry of that job sends again; another job leaves it alone). */
    claimJob: text("claim_job"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    /** LINE's X-Line-Retry-Key of the call that carries it (shared by the members of one multicast). */
    retryKey: uuid("retry_key"),
    attempts: integer("attempts").notNull().default(0),
    /** The provider's error code or our reason, for the console; never shown to the member. */
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("member_message_occasion_uq").on(t.memberId, t.occasion),
    index("member_message_member_idx").on(t.memberId, t.createdAt),
    index("member_message_campaign_idx").on(t.campaignId, t.status),
    index("member_message_due_idx").on(t.dueAt).where(sql`${t.status} in ('queued', 'held', 'sending')`),
    /** A member's campaign deliveries by time: the touches of the attribution (ADR 055). */
    index("member_message_touch_idx")
      .on(t.memberId, t.sentAt)
      .where(sql`${t.campaignId} is not null and ${t.status} = 'sent'`),
  ],
);

/**
 * The links of a campaign's messages (LINE and e-mail; ADR 055), stored when its audience is taken: a click
 * link (`/r/<token>`) names a message and the index of one of these, and redirects only to the address stored
 * here — never to one read from the request.
 */
export const campaignLink = pgTable(
  "campaign_link",
  {
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaign.id, { onDelete: "cascade" }),
    idx: smallint("idx").notNull(),
    url: text("url").notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.idx] })],
);

/**
 * A member's first click on a link of a campaign message (ADR 055): one row per message (so per member and
 * campaign), written by one `insert … on conflict do nothing`, whatever the number of clicks and instances.
 */
export const campaignClick = pgTable(
  "campaign_click",
  {
    messageId: uuid("message_id")
      .primaryKey()
      .references(() => memberMessage.id, { onDelete: "cascade" }),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaign.id, { onDelete: "cascade" }),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    /** The link first clicked (campaign_link.idx). */
    linkIdx: smallint("link_idx").notNull(),
    clickedAt: timestamp("clicked_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("campaign_click_member_idx").on(t.memberId, t.clickedAt),
    index("campaign_click_campaign_idx").on(t.campaignId),
  ],
);
