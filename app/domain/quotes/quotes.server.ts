import { randomInt } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import {
  type LocalizedText,
  material,
  OPEN_QUOTE_STATUSES,
  type QuoteStatus,
  type QuoteUnit,
  quoteLine,
  quoteOpenCount,
  quoteRequest,
  store,
} from "@platform/db/schema";
import type { JobQueue } from "@platform/jobs/queue";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { OPEN_QUOTE_LIMIT, type QuoteRequestInput } from "./input";
import { pastValidity, quoteState } from "./status";

/**
 * The member's side of quote lists (issue 37 part 4, ADR 047): ask for prices, read the quotes and their
 * answers, and decide (accept, close, withdraw). Every function takes the session's member id; a quote of
 * another member is "not found", never shown.
 */

/** An unambiguous alphabet (no 0/O, 1/I): a reference read aloud at the counter. */
const ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

export function newQuoteReference(): string {
  let out = "Q";
  for (let i = 0; i < 7; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Why a request was refused, and the form field its message goes beside. */
export type QuoteRequestRefusal =
  | { code: "unknown_store"; field: "storeId" }
  | { code: "unknown_material"; field: "lines"; materialIds: string[] }
  | { code: "limit"; field: "form"; limit: number };

class Refused extends Error {
  constructor(readonly refusal: QuoteRequestRefusal) {
    super(refusal.code);
  }
}

/**
 * Records a quote request with its lines, or nothing. The store and every material must be published; the
 * member's open quotes are claimed on their counter row in one statement (no room: refused, rolled back).
 */
export async function requestQuote(
  db: Database,
  memberId: string,
  input: QuoteRequestInput,
  locale: string,
  now: Date,
  limit = OPEN_QUOTE_LIMIT,
): Promise<{ ok: true; id: string; reference: string } | { ok: false; refusal: QuoteRequestRefusal }> {
  try {
    return await db.transaction(async (tx) => {
      const [shop] = await tx
        .select({ id: store.id })
        .from(store)
        .where(and(eq(store.id, input.storeId), eq(store.published, true)));
      if (!shop) throw new Refused({ code: "unknown_store", field: "storeId" });
      const ids = input.lines.map((l) => l.materialId);
      const found = await tx
        .select({ id: material.id })
        .from(material)
        .where(and(inArray(material.id, ids), eq(material.published, true)));
      const known = new Set(found.map((m) => m.id));
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > 0) throw new Refused({ code: "unknown_material", field: "lines", materialIds: missing });

      // An answer past its validity holds no place, even before the nightly job has marked it (ADR 051).
      await expireQuotes(tx, now, memberId);
      // The limit: one statement claims a place on the member's counter row, or returns nothing.
      const claimed = await tx
        .insert(quoteOpenCount)
        .values({ memberId, open: 1 })
        .onConflictDoUpdate({
          target: quoteOpenCount.memberId,
          set: { open: sql`${quoteOpenCount.open} + 1` },
          setWhere: sql`${quoteOpenCount.open} < ${limit}`,
        })
        .returning({ open: quoteOpenCount.open });
      if (claimed.length === 0) throw new Refused({ code: "limit", field: "form", limit });

      let created: { id: string; reference: string } | undefined;
      for (let attempt = 0; !created && attempt < 5; attempt++) {
        [created] = await tx
          .insert(quoteRequest)
          .values({
            reference: newQuoteReference(),
            memberId,
            storeId: input.storeId,
            message: input.message,
            locale,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({ target: quoteRequest.reference })
          .returning({ id: quoteRequest.id, reference: quoteRequest.reference });
      }
      if (!created) throw new Error("no free quote reference after 5 tries");
      const quoteId = created.id;
      await tx.insert(quoteLine).values(
        input.lines.map((line, i) => ({
          quoteId,
          position: i + 1,
          materialId: line.materialId,
          quantity: line.quantity,
          unit: line.unit,
          note: line.note,
        })),
      );
      return { ok: true as const, ...created };
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}

export type MemberQuoteSummary = {
  id: string;
  reference: string;
  status: QuoteStatus;
  storeName: LocalizedText;
  createdAt: Date;
  total: number | null;
  validUntil: string | null;
  lines: number;
};

/** The member's quotes, newest first (at most 50). */
export async function memberQuotes(db: Database, memberId: string): Promise<MemberQuoteSummary[]> {
  return db
    .select({
      id: quoteRequest.id,
      reference: quoteRequest.reference,
      status: quoteRequest.status,
      storeName: store.name,
      createdAt: quoteRequest.createdAt,
      total: quoteRequest.total,
      validUntil: quoteRequest.validUntil,
      lines: sql<number>`(select count(*)::int from ${quoteLine} where ${quoteLine.quoteId} = ${quoteRequest.id})`,
    })
    .from(quoteRequest)
    .innerJoin(store, eq(store.id, quoteRequest.storeId))
    .where(eq(quoteRequest.memberId, memberId))
    .orderBy(desc(quoteRequest.createdAt))
    .limit(50);
}

export type QuoteLineView = {
  position: number;
  materialId: string;
  materialName: LocalizedText;
  quantity: string;
  unit: QuoteUnit;
  note: string;
  unitPrice: number | null;
  lineTotal: number | null;
};

export type QuoteView = {
  id: string;
  reference: string;
  memberId: string;
  storeId: string;
  storeName: LocalizedText;
  message: string;
  status: QuoteStatus;
  answeredAt: Date | null;
  validUntil: string | null;
  staffMessage: string | null;
  total: number | null;
  version: number;
  createdAt: Date;
  lines: QuoteLineView[];
};

/** One quote with its lines (no member check: callers check whose it is). */
export async function quoteById(db: Database, id: string): Promise<QuoteView | null> {
  const [head] = await db
    .select({
      id: quoteRequest.id,
      reference: quoteRequest.reference,
      memberId: quoteRequest.memberId,
      storeId: quoteRequest.storeId,
      storeName: store.name,
      message: quoteRequest.message,
      status: quoteRequest.status,
      answeredAt: quoteRequest.answeredAt,
      validUntil: quoteRequest.validUntil,
      staffMessage: quoteRequest.staffMessage,
      total: quoteRequest.total,
      version: quoteRequest.version,
      createdAt: quoteRequest.createdAt,
    })
    .from(quoteRequest)
    .innerJoin(store, eq(store.id, quoteRequest.storeId))
    .where(eq(quoteRequest.id, id));
  if (!head) return null;
  const lines = await db
    .select({
      position: quoteLine.position,
      materialId: quoteLine.materialId,
      materialName: material.name,
      quantity: quoteLine.quantity,
      unit: quoteLine.unit,
      note: quoteLine.note,
      unitPrice: quoteLine.unitPrice,
      lineTotal: quoteLine.lineTotal,
    })
    .from(quoteLine)
    .innerJoin(material, eq(material.id, quoteLine.materialId))
    .where(eq(quoteLine.quoteId, id))
    .orderBy(asc(quoteLine.position));
  return { ...head, lines };
}

/** The member's own quote, or null (another member's quote is not theirs to see). */
export async function memberQuote(db: Database, memberId: string, id: string): Promise<QuoteView | null> {
  const quote = await quoteById(db, id);
  return quote && quote.memberId === memberId ? quote : null;
}

/** Past its last valid Taipei day. */
export function isExpired(quote: Pick<QuoteView, "status" | "validUntil">, now: Date): boolean {
  return quoteState(quote, now) === "expired";
}

export const QUOTE_EXPIRE_QUEUE = "quotes.expire";
/** Every day at 00:05 Taipei (16:05 UTC): the answers whose last valid day was yesterday. */
export const QUOTE_EXPIRE_CRON = "5 16 * * *";

/**
 * Marks answered quotes past their validity `expired` (ADR 051) and gives their places back on the members'
 * open-quote counters — one statement, idempotent by the status (a second run, a second instance or a retry marks
 * nothing twice, and a quote the member closed or accepted meanwhile is not touched). `memberId` narrows it to
 * one member: the request path runs it first, so an answer expired today never holds a place of the limit.
 */
export async function expireQuotes(db: Database, now: Date, memberId?: string): Promise<number> {
  const result = await db.execute<{ expired: number }>(sql`
    with gone as (
      update ${quoteRequest}
         set status = 'expired', version = version + 1, updated_at = ${now.toISOString()}::timestamptz
       where ${pastValidity(now)} ${memberId ? sql`and member_id = ${memberId}` : sql``}
      returning member_id
    ), per_member as (
      select member_id, count(*)::int as n from gone group by member_id
    ), released as (
      update ${quoteOpenCount} c set open = greatest(c.open - p.n, 0)
        from per_member p where c.member_id = p.member_id
      returning c.member_id
    )
    select (select count(*)::int from gone) as expired, (select count(*)::int from released) as members`);
  return Number(rowsOf<{ expired: number }>(result)[0]?.expired ?? 0);
}

/** Registers the expiry job: once a day just after midnight Taipei (one job per slot across all instances). */
export async function registerQuoteJobs(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(QUOTE_EXPIRE_QUEUE, { retryLimit: 3, retryDelay: 60, expireInSeconds: 5 * 60 });
  await jobs.work(QUOTE_EXPIRE_QUEUE, async () => ({ expired: await expireQuotes(db, new Date()) }));
  await jobs.schedule(QUOTE_EXPIRE_QUEUE, QUOTE_EXPIRE_CRON);
}

export const MEMBER_DECISIONS = ["accept", "close", "withdraw"] as const;
export type MemberDecision = (typeof MEMBER_DECISIONS)[number];

const DECISION: Record<MemberDecision, { from: readonly QuoteStatus[]; to: QuoteStatus }> = {
  accept: { from: ["answered"], to: "accepted" },
  // An expired answer may still be closed; it gave its place back when it expired.
  close: { from: ["answered", "expired"], to: "closed" },
  withdraw: { from: OPEN_QUOTE_STATUSES, to: "withdrawn" },
};

/**
 * The member accepts or closes an answer, or withdraws a request; the quote leaves the open states and gives its
 * place back on the counter in the same transaction. `changed`: the quote moved on (staff answered, or another
 * tab decided first); `expired`: an answer past its validity cannot be accepted.
 */
export async function decideQuote(
  db: Database,
  memberId: string,
  id: string,
  decision: MemberDecision,
  version: number,
  now: Date,
): Promise<{ ok: true } | { ok: false; code: "not_found" | "changed" | "expired" }> {
  const rule = DECISION[decision];
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: quoteRequest.status, validUntil: quoteRequest.validUntil, version: quoteRequest.version })
      .from(quoteRequest)
      .where(and(eq(quoteRequest.id, id), eq(quoteRequest.memberId, memberId)));
    if (!current) return { ok: false as const, code: "not_found" as const };
    if (decision === "accept" && isExpired(current, now)) return { ok: false as const, code: "expired" as const };
    const [row] = await tx
      .update(quoteRequest)
      .set({ status: rule.to, decidedAt: now, updatedAt: now, version: sql`${quoteRequest.version} + 1` })
      .where(
        and(
          eq(quoteRequest.id, id),
          eq(quoteRequest.memberId, memberId),
          eq(quoteRequest.version, version),
          inArray(quoteRequest.status, [...rule.from]),
        ),
      )
      .returning({ id: quoteRequest.id });
    if (!row) return { ok: false as const, code: "changed" as const };
    if (current.status === "expired") return { ok: true as const };
    await tx
      .update(quoteOpenCount)
      .set({ open: sql`greatest(${quoteOpenCount.open} - 1, 0)` })
      .where(eq(quoteOpenCount.memberId, memberId));
    return { ok: true as const };
  });
}

/** The published stores a member may ask at, by id. */
export async function quoteStores(db: Database): Promise<{ id: string; name: LocalizedText }[]> {
  const rows = await db.select({ id: store.id, name: store.name }).from(store).where(eq(store.published, true));
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}
