import type { Database } from "@platform/db/client";
import {
  authAccount,
  type LocalizedText,
  lineFriend,
  member,
  type QuoteStatus,
  quoteLine,
  quoteOpenCount,
  quoteRequest,
  store,
} from "@platform/db/schema";
import { and, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "~/domain/audit/audit.server";
import { inQuietHours, quietHoursEnd } from "~/domain/member-messages/channels";
import { recordOccasion } from "~/domain/member-messages/occasions.server";
import { automaticSetting } from "~/domain/member-messages/settings.server";
import { Refusal, VersionConflict } from "~/domain/refusals";
import type { StaffActor } from "~/domain/staff/actor";
import { requirePermission } from "~/domain/staff/guard.server";
import { lineTotal, type QuoteAnswerInput } from "./input";
import { type QuoteView, quoteById } from "./quotes.server";
import { quoteState, quoteStateIs } from "./status";

/**
 * Quote requests in the console (issue 37 part 4, ADR 047): the list of the stores a person works at, one
 * quote, and the answer — a price per line, the validity and a message — given over the version the page
 * showed, audited in its transaction, with the member's message recorded in the same transaction.
 */

export const QUOTES_PAGE_SIZE = 20;

export type QuoteListFilters = { status: QuoteStatus | ""; store: string; page: number };

export type QuoteListRow = {
  id: string;
  reference: string;
  status: QuoteStatus;
  storeName: LocalizedText;
  memberName: string;
  createdAt: Date;
  total: number | null;
  lines: number;
};

/** The quotes of the actor's stores (every store for an admin), newest first, 20 a page. */
export async function listQuotes(
  db: Database,
  actor: StaffActor,
  filters: QuoteListFilters,
  now: Date,
): Promise<{ rows: QuoteListRow[]; total: number }> {
  requirePermission(actor, "quotes.view");
  const where: SQL[] = [];
  if (actor.role !== "admin") {
    if (actor.storeIds.length === 0) return { rows: [], total: 0 };
    where.push(inArray(quoteRequest.storeId, actor.storeIds));
  }
  if (filters.store) where.push(eq(quoteRequest.storeId, filters.store));
  if (filters.status) where.push(quoteStateIs(filters.status, now));
  const condition = where.length ? and(...where) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: quoteRequest.id,
        reference: quoteRequest.reference,
        status: quoteRequest.status,
        storeName: store.name,
        memberName: member.nameZh,
        createdAt: quoteRequest.createdAt,
        total: quoteRequest.total,
        validUntil: quoteRequest.validUntil,
        lines: sql<number>`(select count(*)::int from ${quoteLine} where ${quoteLine.quoteId} = ${quoteRequest.id})`,
      })
      .from(quoteRequest)
      .innerJoin(store, eq(store.id, quoteRequest.storeId))
      .innerJoin(member, eq(member.id, quoteRequest.memberId))
      .where(condition)
      .orderBy(desc(quoteRequest.createdAt), desc(quoteRequest.id))
      .limit(QUOTES_PAGE_SIZE)
      .offset((filters.page - 1) * QUOTES_PAGE_SIZE),
    db.select({ n: count() }).from(quoteRequest).where(condition),
  ]);
  return {
    rows: rows.map(({ validUntil, ...r }) => ({ ...r, status: quoteState({ status: r.status, validUntil }, now) })),
    total: counted?.n ?? 0,
  };
}

export type StaffQuoteView = QuoteView & { memberName: string; memberNumber: string };

/** One quote for staff, with the member's name and number; null when there is none. */
export async function staffQuote(db: Database, id: string): Promise<StaffQuoteView | null> {
  const quote = await quoteById(db, id);
  if (!quote) return null;
  const [who] = await db
    .select({ name: member.nameZh, number: member.memberNumber })
    .from(member)
    .where(eq(member.id, quote.memberId));
  return { ...quote, memberName: who?.name ?? "", memberNumber: who?.number ?? "" };
}

/**
 * When the member's message may go: at once, unless it is the quiet hours (21:00–09:00 Taipei) and the message
 * could go by text message — no LINE for this member and SMS among the kind's channels —, then at 09:00. A
 * service message is otherwise never held (ADR 034); this is the transactional rule of issue 37.
 */
async function messageDue(db: Database, memberId: string, now: Date): Promise<Date> {
  if (!inQuietHours(now)) return now;
  const setting = await automaticSetting(db, "quote-answered");
  if (!setting.channels.includes("sms")) return now;
  if (setting.channels.includes("line")) {
    const [reach] = await db
      .select({ following: lineFriend.following })
      .from(member)
      .innerJoin(authAccount, and(eq(authAccount.userId, member.userId), eq(authAccount.providerId, "line")))
      .innerJoin(lineFriend, eq(lineFriend.lineUserId, authAccount.accountId))
      .where(eq(member.id, memberId));
    if (reach?.following) return now;
  }
  return quietHoursEnd(now);
}

/**
 * Staff answer a requested quote over the version they saw: prices for every line (whole NT$, 0 or more), line
 * totals and the total, the validity and a message. A quote answered, withdrawn or changed since is a version
 * conflict carrying the quote as it is now; nothing is half-stored.
 */
export async function answerQuote(
  db: Database,
  actor: StaffActor,
  id: string,
  input: QuoteAnswerInput,
  audit: AuditContext,
  now: Date,
): Promise<StaffQuoteView> {
  const before = await staffQuote(db, id);
  if (!before) throw new Refusal("quotes", "not_found");
  requirePermission(actor, "quotes.answer", { storeId: before.storeId });
  if (before.status !== "requested" && before.version === input.version) throw new Refusal("quotes", "not_open");
  const totals = before.lines.map((line) => {
    const price = input.prices.get(line.position);
    if (price === undefined) throw new Refusal("quotes", "version_conflict" as never);
    return { position: line.position, unitPrice: price, lineTotal: lineTotal(line.quantity, price) };
  });
  const total = totals.reduce((sum, l) => sum + l.lineTotal, 0);
  const due = await messageDue(db, before.memberId, now);
  await auditedTx(db, audit, now, async (tx, record) => {
    const [row] = await tx
      .update(quoteRequest)
      .set({
        status: "answered",
        answeredBy: actor.userId,
        answeredAt: now,
        validUntil: input.validUntil,
        staffMessage: input.staffMessage,
        total,
        version: sql`${quoteRequest.version} + 1`,
        updatedAt: now,
      })
      .where(
        and(eq(quoteRequest.id, id), eq(quoteRequest.version, input.version), eq(quoteRequest.status, "requested")),
      )
      .returning({ version: quoteRequest.version });
    if (!row) throw new VersionConflict("quotes", await staffQuote(tx, id));
    for (const line of totals) {
      await tx
        .update(quoteLine)
        .set({ unitPrice: line.unitPrice, lineTotal: line.lineTotal })
        .where(and(eq(quoteLine.quoteId, id), eq(quoteLine.position, line.position)));
    }
    await record("quote.answered", ["quote", id], {
      before: { status: before.status, version: before.version },
      after: {
        status: "answered",
        version: row.version,
        storeId: before.storeId,
        reference: before.reference,
        total,
        validUntil: input.validUntil,
        prices: totals.map((l) => ({ position: l.position, unitPrice: l.unitPrice, lineTotal: l.lineTotal })),
      },
    });
    await recordOccasion(
      tx,
      {
        memberId: before.memberId,
        occasion: `quote-answered:${id}`,
        kind: "quote-answered",
        data: {
          quoteId: id,
          reference: before.reference,
          storeId: before.storeId,
          amount: total,
          validUntil: input.validUntil,
        },
        dueAt: due,
      },
      now,
    );
  });
  return (await staffQuote(db, id)) as StaffQuoteView;
}

/** For tests and the ADR: the member's counted open quotes. */
export async function openQuoteCount(db: Database, memberId: string): Promise<number> {
  const [row] = await db
    .select({ open: quoteOpenCount.open })
    .from(quoteOpenCount)
    .where(eq(quoteOpenCount.memberId, memberId));
  return row?.open ?? 0;
}
