import type { Database } from "@platform/db/client";
import { messageOutbox } from "@platform/db/schema";
import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { normalizeSmsRecipient } from "./sms";

/**
 * The development outbox: where text messages and e-mails go when no provider is configured
 * (development and tests). /dev/outbox shows it; tests read the code a member "received" from it.
 */
export type OutboxChannel = "sms" | "email";

export type OutboxMessage = {
  id: string;
  channel: OutboxChannel;
  to: string;
  from: string | null;
  subject: string | null;
  /** The text message as sent (brand included), or the e-mail's plain-text part. */
  body: string;
  html: string | null;
  /** Extra e-mail headers (List-Unsubscribe…), when the e-mail had any. */
  headers?: Record<string, string> | null;
  createdAt: Date;
};

export type NewOutboxMessage = Omit<OutboxMessage, "id" | "createdAt"> & {
  /** The delivering job: storing the same job twice keeps one row. */
  jobId: string;
};

/** Stores a message once per job and returns its id (the existing row's id for a repeated job). */
export async function recordOutboxMessage(db: Database, message: NewOutboxMessage): Promise<string> {
  const [inserted] = await db
    .insert(messageOutbox)
    .values({
      channel: message.channel,
      recipient: message.to,
      sender: message.from,
      subject: message.subject,
      body: message.body,
      html: message.html,
      headers: message.headers ?? null,
      jobId: message.jobId,
    })
    .onConflictDoNothing({ target: messageOutbox.jobId })
    .returning({ id: messageOutbox.id });
  if (inserted) return inserted.id;
  const [existing] = await db
    .select({ id: messageOutbox.id })
    .from(messageOutbox)
    .where(eq(messageOutbox.jobId, message.jobId));
  if (!existing) throw new Error(`Outbox row for job ${message.jobId} vanished`);
  return existing.id;
}

/** The recipient as the outbox stores it: E.164 for phones, lowercase for e-mail addresses. */
export function outboxRecipient(to: string, channel?: OutboxChannel): string {
  if (channel === "email" || to.includes("@")) return to.trim().toLowerCase();
  return normalizeSmsRecipient(to);
}

export type ReadOutboxOptions = {
  /** Only messages to this recipient (`09…`, E.164 or an e-mail address). */
  to?: string;
  channel?: OutboxChannel;
  /** Newest first, at most this many. Default 20. */
  limit?: number;
};

/** The latest outbox messages, newest first. */
export async function readOutbox(db: Database, options: ReadOutboxOptions = {}): Promise<OutboxMessage[]> {
  const conditions: SQL[] = [];
  if (options.channel) conditions.push(eq(messageOutbox.channel, options.channel));
  if (options.to) conditions.push(eq(messageOutbox.recipient, outboxRecipient(options.to, options.channel)));
  const rows = await db
    .select()
    .from(messageOutbox)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(messageOutbox.createdAt), desc(messageOutbox.id))
    .limit(Math.min(Math.max(options.limit ?? 20, 1), 200));
  return rows.map((row) => ({
    id: row.id,
    channel: row.channel,
    to: row.recipient,
    from: row.sender,
    subject: row.subject,
    body: row.body,
    html: row.html,
    headers: row.headers,
    createdAt: row.createdAt,
  }));
}

/** Development data does not need to live for ever: drops messages older than the given instant. */
export async function purgeOutbox(db: Database, olderThan: Date): Promise<number> {
  const deleted = await db
    .delete(messageOutbox)
    .where(lt(messageOutbox.createdAt, olderThan))
    .returning({ id: messageOutbox.id });
  return deleted.length;
}
