import { boolean, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * LINE ID tokens already accepted (SHA-256 of the raw token), kept until the token expires: a
 * token is accepted once, on any app instance (the primary key makes the second insert a no-op).
 */
export const lineIdTokenUse = pgTable(
  "line_id_token_use",
  {
    tokenHash: text("token_hash").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("line_id_token_use_expires_idx").on(t.expiresAt)],
);

/**
 * Whether a LINE user follows the brand's Official Account (the Messaging API's follow / unfollow
 * webhooks): a member linked to LINE can be reached there only while `following` is true. Keyed by
 * the LINE user id, which the login channel and the Official Account share (same provider).
 */
export const lineFriend = pgTable("line_friend", {
  lineUserId: text("line_user_id").primaryKey(),
  following: boolean("following").notNull(),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
});

/**
 * Webhook events already processed (LINE redelivers, and a replayed request must change nothing):
 * the primary key makes the second insert a no-op. Kept a week, then cleaned.
 */
export const lineWebhookEvent = pgTable(
  "line_webhook_event",
  {
    webhookEventId: text("webhook_event_id").primaryKey(),
    type: text("type").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("line_webhook_event_received_idx").on(t.receivedAt)],
);
