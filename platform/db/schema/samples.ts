import { material, store } from "@platform/db/schema/catalog";
import { member } from "@platform/db/schema/members";
import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Samples (issue 37 part 3, ADR 046).
 *
 * - `material_sample_store`: "has samples" per material and store (a box per store in the material editor). No
 *   stock beyond that.
 * - `sample_request`: one row per sample a member asked to collect at a store (one material), moving
 *   requested → ready → handed_out → returned, or cancelled before it is handed out. `due_back_on` is a Taipei
 *   calendar date, set when it is handed out (today + 14).
 * - `sample_open_count`: the member's open samples (requested, ready, handed out), the row the limit (5) is
 *   claimed on by one statement (`… on conflict do update set open = open + n where open + n <= max returning`),
 *   given back in the transaction that cancels or returns one.
 */
export const SAMPLE_STATUSES = ["requested", "ready", "handed_out", "returned", "cancelled"] as const;
export type SampleStatus = (typeof SAMPLE_STATUSES)[number];

export const materialSampleStore = pgTable(
  "material_sample_store",
  {
    materialId: text("material_id")
      .notNull()
      .references(() => material.id, { onDelete: "cascade" }),
    storeId: text("store_id")
      .notNull()
      .references(() => store.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.materialId, t.storeId] }), index("material_sample_store_store_idx").on(t.storeId)],
);

export const sampleRequest = pgTable(
  "sample_request",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    storeId: text("store_id")
      .notNull()
      .references(() => store.id),
    materialId: text("material_id")
      .notNull()
      .references(() => material.id),
    status: text("status", { enum: SAMPLE_STATUSES }).notNull().default("requested"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    /** Staff steps: when and by whom (the staff user id). */
    readyAt: timestamp("ready_at", { withTimezone: true }),
    readyBy: text("ready_by"),
    handedOutAt: timestamp("handed_out_at", { withTimezone: true }),
    handedOutBy: text("handed_out_by"),
    /** Taipei calendar date the sample is due back (set when handed out). */
    dueBackOn: date("due_back_on", { mode: "string" }),
    returnedAt: timestamp("returned_at", { withTimezone: true }),
    returnedBy: text("returned_by"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** `member` or a staff user id. */
    cancelledBy: text("cancelled_by"),
    /** The "due back in 2 days" reminder was recorded (once). */
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("sample_request_member_idx").on(t.memberId, t.requestedAt),
    index("sample_request_store_idx").on(t.storeId, t.status, t.requestedAt),
    // The reminder job and the overdue lists read only samples that are out.
    index("sample_request_out_idx").on(t.dueBackOn).where(sql`${t.status} = 'handed_out'`),
    // One open request per member and material: asking twice for the same sample is refused.
    uniqueIndex("sample_request_open_uq")
      .on(t.memberId, t.materialId)
      .where(sql`${t.status} in ('requested', 'ready', 'handed_out')`),
    check("sample_request_due_ck", sql`(${t.status} in ('handed_out', 'returned')) = (${t.dueBackOn} is not null)`),
  ],
);

/** The member's open samples: the limit's counter row (ADR 018's pattern). */
export const sampleOpenCount = pgTable(
  "sample_open_count",
  {
    memberId: uuid("member_id")
      .primaryKey()
      .references(() => member.id, { onDelete: "cascade" }),
    open: integer("open").notNull().default(0),
  },
  (t) => [check("sample_open_count_ck", sql`${t.open} >= 0`)],
);
