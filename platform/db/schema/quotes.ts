import { material, store } from "@platform/db/schema/catalog";
import { member } from "@platform/db/schema/members";
import { staffAccount } from "@platform/db/schema/staff";
import { sql } from "drizzle-orm";
import { check, date, index, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Quote lists (issue 37 part 4, ADR 047). A member turns favourites into a request for prices: lines of a
 * material, a quantity in m² or pieces (片) and a note, at one store, with a message. Staff of that store answer
 * once: a price per line in whole NT$, the line totals, the validity (a Taipei date) and a message.
 *
 * - Status: `requested` → `answered` (staff) → `accepted` / `closed` (the member); `withdrawn` by the member
 *   before or after the answer; `expired` (the job `quotes.expire`, ADR 051) once an answer is past its validity,
 *   which the member may still close. `requested` and `answered` are open.
 * - `version` is the optimistic-concurrency counter every change bumps: two staff answering one quote at once,
 *   the second is told (ADR 037's version conflict).
 * - Open quotes per member are counted in `quote_open_count` and claimed by one statement (insert … on conflict
 *   do update … where open < limit returning), like ADR 018's counters; the row is given back when a quote
 *   leaves the open states, in the same transaction.
 */
export const QUOTE_STATUSES = ["requested", "answered", "accepted", "closed", "withdrawn", "expired"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export const OPEN_QUOTE_STATUSES = ["requested", "answered"] as const satisfies readonly QuoteStatus[];

/** `m2`: square metres (two decimals); `piece`: 片, whole pieces. */
export const QUOTE_UNITS = ["m2", "piece"] as const;
export type QuoteUnit = (typeof QUOTE_UNITS)[number];

export const quoteRequest = pgTable(
  "quote_request",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    /** Shown to the member and to staff, e.g. `Q7K2QXA4`. */
    reference: text("reference").notNull().unique(),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    storeId: text("store_id")
      .notNull()
      .references(() => store.id),
    /** The member's message (may be empty). */
    message: text("message").notNull().default(""),
    status: text("status", { enum: QUOTE_STATUSES }).notNull().default("requested"),
    answeredBy: text("answered_by").references(() => staffAccount.userId, { onDelete: "set null" }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** The last Taipei day the prices hold. */
    validUntil: date("valid_until", { mode: "string" }),
    /** Staff's message with the answer. */
    staffMessage: text("staff_message"),
    /** Sum of the line totals, NT$. */
    total: integer("total"),
    /** When the member accepted, closed or withdrew it. */
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** zh-TW or en: the language the member asked in. */
    locale: text("locale").notNull().default("zh-TW"),
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("quote_request_store_idx").on(t.storeId, t.status, t.createdAt),
    index("quote_request_member_idx").on(t.memberId, t.createdAt),
    check(
      "quote_request_status_ck",
      sql`${t.status} in ('requested', 'answered', 'accepted', 'closed', 'withdrawn', 'expired')`,
    ),
    check("quote_request_total_ck", sql`${t.total} is null or ${t.total} >= 0`),
    check(
      "quote_request_answer_ck",
      sql`${t.status} = 'requested' or ${t.status} = 'withdrawn' or (${t.answeredAt} is not null and ${t.validUntil} is not null and ${t.total} is not null)`,
    ),
  ],
);

export const quoteLine = pgTable(
  "quote_line",
  {
    quoteId: uuid("quote_id")
      .notNull()
      .references(() => quoteRequest.id, { onDelete: "cascade" }),
    /** 1, 2, … in the member's order. */
    position: integer("position").notNull(),
    materialId: text("material_id")
      .notNull()
      .references(() => material.id),
    quantity: numeric("quantity", { precision: 10, scale: 2 }).notNull(),
    unit: text("unit", { enum: QUOTE_UNITS }).notNull(),
    note: text("note").notNull().default(""),
    /** Staff's price per unit, whole NT$. */
    unitPrice: integer("unit_price"),
    /** quantity × unit price, rounded to whole NT$. */
    lineTotal: integer("line_total"),
  },
  (t) => [
    primaryKey({ columns: [t.quoteId, t.position] }),
    check("quote_line_quantity_ck", sql`${t.quantity} > 0 and ${t.quantity} <= 100000`),
    check("quote_line_unit_ck", sql`${t.unit} in ('m2', 'piece')`),
    check("quote_line_piece_ck", sql`${t.unit} <> 'piece' or ${t.quantity} = trunc(${t.quantity})`),
    check("quote_line_price_ck", sql`${t.unitPrice} is null or ${t.unitPrice} >= 0`),
    check("quote_line_total_ck", sql`${t.lineTotal} is null or ${t.lineTotal} >= 0`),
  ],
);

/** Open quotes per member: the row the limit is claimed on (one statement, ADR 018). */
export const quoteOpenCount = pgTable(
  "quote_open_count",
  {
    memberId: uuid("member_id")
      .primaryKey()
      .references(() => member.id, { onDelete: "cascade" }),
    open: integer("open").notNull().default(0),
  },
  (t) => [check("quote_open_count_ck", sql`${t.open} >= 0`)],
);
