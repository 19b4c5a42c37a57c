import { createHmac, timingSafeEqual } from "node:crypto";
import type { Database } from "@platform/db/client";
import { authAccount, lineFriend, lineWebhookEvent, member } from "@platform/db/schema";
import type { Logger } from "@platform/logger";
import { countLineWebhookEvent } from "@platform/metrics";
import { and, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { refuseMarketing } from "../members/profile-update.server";
import type { LineMessage } from "./messaging.server";

/**
 * The Messaging API webhook (docs/decisions/032-line-messaging.md): LINE POSTs events
 * signed with the channel secret. The signature is checked on the raw bytes before anything is
 * parsed; each event is processed once (its webhookEventId is claimed in the same transaction as its
 * effect, so a redelivered or replayed event changes nothing); follow / unfollow record whether the
 * LINE user can be reached; a text asking for the member card is answered with its address. Each event of a batch
 * stands on its own (issue 33 item 16): a malformed one is skipped, logged and counted, and the others are
 * processed as if it were not there.
 */

/** x-line-signature: base64 HMAC-SHA256 of the raw body with the channel secret, compared in constant time. */
export function verifyWebhookSignature(channelSecret: string, rawBody: Buffer, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = createHmac("sha256", channelSecret).update(rawBody).digest();
  let presented: Buffer;
  try {
    presented = Buffer.from(signature, "base64");
  } catch {
    return false;
  }
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

const USER_ID = /^U[0-9a-f]{32}$/;

/** What is stored of an event: its id (LINE's are ULIDs) and its type, printable ASCII only (never a NUL byte). */
const EVENT_ID = /^[\x21-\x7E]{1,64}$/;
const EVENT_TYPE = /^[A-Za-z]{1,40}$/;

const webhookEvent = z.object({
  type: z.string().regex(EVENT_TYPE),
  webhookEventId: z.string().regex(EVENT_ID),
  // Within what a Date can hold.
  timestamp: z.number().int().nonnegative().max(8.64e15),
  mode: z.string().max(20).optional(),
  replyToken: z.string().min(1).max(200).optional(),
  source: z
    .object({ type: z.string().max(20), userId: z.string().regex(USER_ID).optional() })
    .passthrough()
    .optional(),
  message: z
    .object({ type: z.string().max(20), text: z.string().max(5000).optional() })
    .passthrough()
    .optional(),
});

/** The batch: its events are read one by one (processWebhookEvents), so one malformed event spoils nothing else. */
export const webhookPayload = z.object({
  destination: z.string().max(64),
  events: z.array(z.unknown()).max(100),
});

export type WebhookEvent = z.infer<typeof webhookEvent>;

/** What a member types to get their card (zh-TW first; simplified and English too). */
const CARD_KEYWORDS = new Set(["會員卡", "会员卡", "我的會員卡", "member card", "card"]);

export function asksForCard(text: string): boolean {
  return CARD_KEYWORDS.has(text.normalize("NFKC").trim().toLowerCase());
}

export function cardReply(publicBaseUrl: string): LineMessage[] {
  const url = `${publicBaseUrl}/member-center`;
  return [{ type: "text", text: `【漢生活】您的會員卡在這裡：\n${url}\n\nYour Han Living member card:\n${url}` }];
}

export type WebhookDeps = {
  db: Database;
  publicBaseUrl: string;
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** Sends a reply (after the event's transaction has committed); failures are logged, not retried. */
  reply: ((replyToken: string, messages: LineMessage[]) => Promise<void>) | null;
};

export type WebhookOutcome = {
  processed: number;
  duplicates: number;
  ignored: number;
  /** Events that are not LINE events (skipped: LINE would send them the same way again). */
  malformed: number;
  /** Events whose processing failed (nothing of them kept): the batch is answered 500, so LINE redelivers it. */
  failed: number;
};

/**
 * The events of one webhook call, each in its own transaction: a malformed event is skipped (logged with where it
 * is wrong, never with its content, and counted), an event that fails is rolled back alone, and the others are
 * processed all the same.
 */
export async function processWebhookEvents(deps: WebhookDeps, events: readonly unknown[]): Promise<WebhookOutcome> {
  const outcome: WebhookOutcome = { processed: 0, duplicates: 0, ignored: 0, malformed: 0, failed: 0 };
  for (const [index, raw] of events.entries()) {
    const parsed = webhookEvent.safeParse(raw);
    if (!parsed.success) {
      outcome.malformed++;
      countLineWebhookEvent("malformed");
      const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "(event)");
      deps.logger.warn({ index, fields: [...new Set(fields)].slice(0, 10) }, "LINE webhook event malformed, skipped");
      continue;
    }
    try {
      await processEvent(deps, parsed.data, outcome);
    } catch (error) {
      outcome.failed++;
      countLineWebhookEvent("failed");
      deps.logger.error({ err: error, index, type: parsed.data.type }, "LINE webhook event failed");
    }
  }
  return outcome;
}

async function processEvent(deps: WebhookDeps, event: WebhookEvent, outcome: WebhookOutcome): Promise<void> {
  // Redeliveries and event types we do not use: nothing else to do (still claimed, so counted once).
  const answer = await deps.db.transaction(async (tx) => {
    const claimed = await tx
      .insert(lineWebhookEvent)
      .values({ webhookEventId: event.webhookEventId, type: event.type })
      .onConflictDoNothing()
      .returning({ id: lineWebhookEvent.webhookEventId });
    if (claimed.length === 0) return "duplicate" as const;
    const userId = event.source?.userId;
    if ((event.type === "follow" || event.type === "unfollow") && userId) {
      const at = new Date(event.timestamp);
      // Events may arrive out of order: an older one never overwrites a newer state.
      const changed = await tx
        .insert(lineFriend)
        .values({ lineUserId: userId, following: event.type === "follow", changedAt: at })
        .onConflictDoUpdate({
          target: lineFriend.lineUserId,
          set: { following: sql`excluded.following`, changedAt: sql`excluded.changed_at` },
          setWhere: sql`${lineFriend.changedAt} <= excluded.changed_at`,
        })
        .returning({ following: lineFriend.following });
      // Blocking the account is a refusal of LINE marketing (issue 16 item 5): recorded, with its source, for the
      // member linked to this LINE user — and it stays refused if they add the account again.
      if (event.type === "unfollow" && changed.length > 0) {
        const [linked] = await tx
          .select({ memberId: member.id })
          .from(authAccount)
          .innerJoin(member, eq(member.userId, authAccount.userId))
          .where(and(eq(authAccount.providerId, "line"), eq(authAccount.accountId, userId)));
        if (linked) {
          await refuseMarketing(
            tx,
            { memberId: linked.memberId, channel: "line", source: "line-unfollow", ip: null },
            at,
          );
        }
      }
      return "processed" as const;
    }
    if (event.type === "message" && event.message?.type === "text" && event.replyToken) {
      return asksForCard(event.message.text ?? "") ? ("card" as const) : ("ignored" as const);
    }
    return "ignored" as const;
  });
  if (answer === "duplicate") outcome.duplicates++;
  else if (answer === "ignored") outcome.ignored++;
  else outcome.processed++;
  countLineWebhookEvent(answer === "duplicate" ? "duplicate" : answer === "ignored" ? "ignored" : "processed");
  if (answer === "card" && event.replyToken && deps.reply) {
    await deps.reply(event.replyToken, cardReply(deps.publicBaseUrl)).catch((error: Error) => {
      deps.logger.warn({ err: error.message }, "LINE reply failed");
    });
  }
}

/** Whether a LINE user follows the Official Account now (unknown users: no). */
export async function followsAccount(db: Database, lineUserId: string): Promise<boolean> {
  const [row] = await db
    .select({ following: lineFriend.following })
    .from(lineFriend)
    .where(eq(lineFriend.lineUserId, lineUserId));
  return row?.following === true;
}

/** Housekeeping: forgets processed event ids after a week (LINE redelivers within hours, not weeks). */
export async function purgeWebhookEvents(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .delete(lineWebhookEvent)
    .where(lt(lineWebhookEvent.receivedAt, new Date(now.getTime() - 7 * 24 * 3600_000)))
    .returning({ id: lineWebhookEvent.webhookEventId });
  return rows.length;
}
