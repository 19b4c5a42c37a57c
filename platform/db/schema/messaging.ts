import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The development outbox: text messages and e-mails that were "sent" without a real provider
 * (the default outside production). /dev/outbox and the tests read it; nothing else does.
 * The job queue's own tables are created by pg-boss in the `pgboss` schema (see ADR 005).
 */
export const messageOutbox = pgTable(
  "message_outbox",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    channel: text("channel", { enum: ["sms", "email"] }).notNull(),
    /** E.164 for text messages, the lowercased address for e-mails. */
    recipient: text("recipient").notNull(),
    /** The e-mail's From header; null for text messages. */
    sender: text("sender"),
    subject: text("subject"),
    /** The text message as it would be sent (with the brand), or the e-mail's plain-text part. */
    body: text("body").notNull(),
    html: text("html"),
    /** Extra e-mail headers (List-Unsubscribe and List-Unsubscribe-Post on marketing, RFC 8058). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    /** The job that delivered it: a retried job never stores a message twice. */
    jobId: text("job_id").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("message_outbox_recipient_idx").on(t.channel, t.recipient, t.createdAt)],
);

export type OutboxRow = typeof messageOutbox.$inferSelect;
