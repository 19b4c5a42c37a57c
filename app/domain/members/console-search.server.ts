import type { Database } from "@platform/db/client";
import { authAccount, loyaltyAccount, member, memberLastStore } from "@platform/db/schema";
import { and, arrayContains, desc, eq, exists, gte, ilike, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { cursorTime, decodeTimeCursor, encodeTimeCursor, olderThan, type TimeCursor } from "~/lib/keyset.server";
import { maskName } from "../loyalty/member-lookup.server";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { hasPermission } from "../staff/permissions";
import { normalizeTaiwanMobile } from "./taiwan";

/**
 * The console's member search (issue 15, PRODUCT.md §5): one box that takes a mobile number in any accepted
 * format, a member number, an e-mail address or part of a Chinese name, plus filters; newest members first,
 * keyset pagination. Every lookup is an index lookup: phone, number and e-mail are unique columns; a name
 * part goes through the GIN index of the name's characters and character pairs (member.name_grams).
 */

export const MEMBER_PAGE_SIZE = 25;
export const MEMBER_SEARCH_MAX = 100;

export type MemberSearch = {
  q?: string;
  tier?: string | null;
  disabled?: boolean | null;
  hasLine?: boolean | null;
  signedUpFrom?: Date | null;
  signedUpTo?: Date | null;
  /**
   * The store of the member's last purchase (member_last_store: its own index, in the list's order; the list then
   * reads the members through it, `listOrder`).
   */
  storeId?: string | null;
  /** The last row of the previous page: `createdAt ISO|id`. */
  after?: string | null;
};

export type SearchKind = "all" | "phone" | "number" | "email" | "name";

/** What the box holds: a member number, an e-mail, a mobile number, or a name part. */
export function classifySearch(raw: string): { kind: SearchKind; value: string } {
  const q = raw.trim();
  if (!q) return { kind: "all", value: "" };
  if (/^hl\d{6,10}$/i.test(q)) return { kind: "number", value: q.toUpperCase() };
  if (q.includes("@")) return { kind: "email", value: q.toLowerCase() };
  const phone = /^[\d\s+()-]+$/.test(q) ? normalizeTaiwanMobile(q) : null;
  if (phone) return { kind: "phone", value: phone };
  return { kind: "name", value: q.toLowerCase() };
}

/** The character pairs a name part must contain (or its one character). */
export function nameGramsOf(part: string): string[] {
  const chars = Array.from(part.toLowerCase());
  if (chars.length === 1) return chars;
  const grams = new Set<string>();
  for (let i = 0; i < chars.length - 1; i++) grams.add(`${chars[i]}${chars[i + 1]}`);
  return [...grams];
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export type MemberListRow = {
  id: string;
  memberNumber: string;
  name: string;
  phone: string;
  tier: string;
  balance: number;
  disabled: boolean;
  deleted: boolean;
  createdAt: Date;
};

/** The last three digits of a number, the rest as dots: •••• ••• 678. */
export function maskPhone(e164: string): string {
  const local = e164.startsWith("+886") ? `0${e164.slice(4)}` : e164;
  return `${"•".repeat(Math.max(local.length - 3, 0))}${local.slice(-3)}`;
}

/**
 * The columns of the list's order (newest members first): the member's own, or with a store filter their copies in
 * the member's `member_last_store` row, whose index (store, member_created_at, member_id) then gives the members of
 * one store in that order by itself (ADR 039 "Later (2026-12-07, the member's last store)"): ordered by the member's
 * columns, PostgreSQL would walk `member_created_idx` and probe each member's row for the store.
 */
function listOrder(search: MemberSearch) {
  return search.storeId
    ? { createdAt: memberLastStore.memberCreatedAt, id: memberLastStore.memberId }
    : { createdAt: member.createdAt, id: member.id };
}

/** The conditions of a search (without the page cursor). */
function memberWhere(db: Database, search: MemberSearch): { kind: SearchKind; where: (SQL | undefined)[] } {
  const order = listOrder(search);
  const { kind, value } = classifySearch((search.q ?? "").slice(0, MEMBER_SEARCH_MAX));
  const linked = exists(
    db
      .select({ one: sql`1` })
      .from(authAccount)
      .where(and(eq(authAccount.userId, member.userId), eq(authAccount.providerId, "line"))),
  );
  return {
    kind,
    where: [
      kind === "number" ? eq(member.memberNumber, value) : undefined,
      kind === "email" ? or(eq(member.email, value), eq(member.pendingEmail, value)) : undefined,
      kind === "phone" ? eq(member.phoneNumber, value) : undefined,
      kind === "name"
        ? and(arrayContains(member.nameGrams, nameGramsOf(value)), ilike(member.nameZh, `%${escapeLike(value)}%`))
        : undefined,
      search.tier ? eq(loyaltyAccount.tier, search.tier as "basic") : undefined,
      search.storeId ? eq(memberLastStore.storeId, search.storeId) : undefined,
      search.disabled === true
        ? eq(member.disabled, true)
        : search.disabled === false
          ? eq(member.disabled, false)
          : undefined,
      search.hasLine === true ? linked : search.hasLine === false ? sql`not ${linked}` : undefined,
      search.signedUpFrom ? gte(order.createdAt, search.signedUpFrom) : undefined,
      search.signedUpTo ? lt(order.createdAt, search.signedUpTo) : undefined,
    ],
  };
}

/** The joins a search needs before its limit: the account for the tier filter, the last store for the store filter. */
function joinedFor<T extends PgSelect>(query: T, search: MemberSearch): T {
  if (search.tier) query.innerJoin(loyaltyAccount, eq(loyaltyAccount.memberId, member.id));
  if (search.storeId) query.innerJoin(memberLastStore, eq(memberLastStore.memberId, member.id));
  return query;
}

/** A manager filters by the stores assigned to them only (an admin by any). */
function requireStoreFilter(actor: StaffActor, search: MemberSearch) {
  if (search.storeId) requirePermission(actor, "member.view", { storeId: search.storeId });
}

export async function searchMembers(db: Database, actor: StaffActor, search: MemberSearch) {
  requirePermission(actor, "member.view");
  requireStoreFilter(actor, search);
  const { kind, where } = memberWhere(db, search);
  const order = listOrder(search);
  where.push(olderThan(order.createdAt, order.id, decodeTimeCursor(search.after)));
  // The page first, then the accounts of its 25 rows: a name part that matches thousands of members must not
  // join every match to its account before the limit (bench/README.md, console member pages at 1 M). The
  // account is joined before the limit only when the tier filter needs it.
  const found = await joinedFor(
    db
      .select({
        id: member.id,
        memberNumber: member.memberNumber,
        nameZh: member.nameZh,
        phoneNumber: member.phoneNumber,
        disabled: member.disabled,
        deletedAt: member.deletedAt,
        createdAt: member.createdAt,
        cursorAt: cursorTime(order.createdAt),
      })
      .from(member)
      .$dynamic(),
    search,
  )
    .where(and(...where))
    .orderBy(desc(order.createdAt), desc(order.id))
    .limit(MEMBER_PAGE_SIZE + 1);
  const accounts = found.length
    ? await db
        .select({ memberId: loyaltyAccount.memberId, tier: loyaltyAccount.tier, balance: loyaltyAccount.balance })
        .from(loyaltyAccount)
        .where(
          inArray(
            loyaltyAccount.memberId,
            found.map((r) => r.id),
          ),
        )
    : [];
  const accountOf = new Map(accounts.map((a) => [a.memberId, a]));
  const rows = found.map((r) => ({
    ...r,
    tier: accountOf.get(r.id)?.tier ?? null,
    balance: accountOf.get(r.id)?.balance ?? null,
  }));
  const more = rows.length > MEMBER_PAGE_SIZE;
  const page = more ? rows.slice(0, MEMBER_PAGE_SIZE) : rows;
  // Names in full for the roles that may see a member's personal data; the phone is masked for all.
  const fullNames = hasPermission(actor, "member.reveal");
  const last = page.at(-1);
  return {
    kind,
    rows: page.map(
      (r): MemberListRow => ({
        id: r.id,
        memberNumber: r.memberNumber,
        name: fullNames ? r.nameZh : maskName(r.nameZh),
        phone: maskPhone(r.phoneNumber),
        tier: r.tier ?? "basic",
        balance: r.balance ?? 0,
        disabled: r.disabled,
        deleted: r.deletedAt !== null,
        createdAt: r.createdAt,
      }),
    ),
    nextAfter: more && last ? encodeTimeCursor(last.cursorAt, last.id) : null,
  };
}

/** A CSV cell: quoted, and a leading = + - @ tab or CR neutralised (spreadsheet formula injection). */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export const MEMBER_CSV_COLUMNS = [
  "member_number",
  "name",
  "phone",
  "email",
  "tier",
  "balance",
  "disabled",
  "signed_up_at",
  "signup_method",
  "marketing_sms",
  "marketing_email",
  "marketing_line",
  "last_purchase_store",
  "last_purchase_at",
] as const;

/**
 * Every member the search finds, for the CSV export (admins, `member.export`), in batches of 1,000 by the same
 * keyset as the pages: a large export streams instead of holding the member base in memory.
 */
export async function* memberExportRows(db: Database, actor: StaffActor, search: MemberSearch) {
  requirePermission(actor, "member.export");
  requireStoreFilter(actor, search);
  let cursor: TimeCursor | null = null;
  for (;;) {
    const { where } = memberWhere(db, search);
    const order = listOrder(search);
    where.push(olderThan(order.createdAt, order.id, cursor));
    const batch = await db
      .select({
        id: member.id,
        memberNumber: member.memberNumber,
        nameZh: member.nameZh,
        phoneNumber: member.phoneNumber,
        email: member.email,
        tier: loyaltyAccount.tier,
        balance: loyaltyAccount.balance,
        disabled: member.disabled,
        createdAt: member.createdAt,
        signupMethod: member.signupMethod,
        marketingSms: member.marketingSms,
        marketingEmail: member.marketingEmail,
        marketingLine: member.marketingLine,
        lastPurchaseStoreId: memberLastStore.storeId,
        lastPurchaseAt: loyaltyAccount.lastPurchaseAt,
        cursorAt: cursorTime(order.createdAt),
      })
      .from(member)
      .leftJoin(loyaltyAccount, eq(loyaltyAccount.memberId, member.id))
      .leftJoin(memberLastStore, eq(memberLastStore.memberId, member.id))
      .where(and(...where))
      .orderBy(desc(order.createdAt), desc(order.id))
      .limit(1000);
    for (const r of batch) {
      yield [
        r.memberNumber,
        r.nameZh,
        r.phoneNumber,
        r.email,
        r.tier ?? "basic",
        r.balance ?? 0,
        r.disabled,
        r.createdAt.toISOString(),
        r.signupMethod,
        r.marketingSms,
        r.marketingEmail,
        r.marketingLine,
        r.lastPurchaseStoreId,
        r.lastPurchaseAt?.toISOString() ?? null,
      ]
        .map(csvCell)
        .join(",");
    }
    const last = batch.at(-1);
    if (batch.length < 1000 || !last) return;
    cursor = { at: last.cursorAt, id: last.id };
  }
}

/**
 * The ids of every member the search finds (the same filters, the same results as the list), in batches of
 * 1,000 by the list's keyset: a bulk point grant "to the members of this filter" (issue 35 item 5).
 */
export async function* memberIdsOfSearch(db: Database, actor: StaffActor, search: MemberSearch) {
  requirePermission(actor, "member.view");
  requireStoreFilter(actor, search);
  let cursor: TimeCursor | null = null;
  for (;;) {
    const { where } = memberWhere(db, search);
    const order = listOrder(search);
    where.push(olderThan(order.createdAt, order.id, cursor));
    const batch = await joinedFor(
      db
        .select({ id: member.id, cursorAt: cursorTime(order.createdAt) })
        .from(member)
        .$dynamic(),
      search,
    )
      .where(and(...where))
      .orderBy(desc(order.createdAt), desc(order.id))
      .limit(1000);
    for (const r of batch) yield r.id;
    const last = batch.at(-1);
    if (batch.length < 1000 || !last) return;
    cursor = { at: last.cursorAt, id: last.id };
  }
}
