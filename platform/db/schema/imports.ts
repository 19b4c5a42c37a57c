import { member } from "@platform/db/schema/members";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Moving members in from another system (issue 35, ADR 038): an import of the original Firebase system's
 * export or of another CRM's CSV, and bulk point grants, share one run table and one staged-row table.
 *
 * A file is read once, streamed, into `import_row` (one row per record, as read); the check (dry run) and the
 * apply work from those rows, so a run survives a restart (the job picks up the rows still `pending`), shows
 * its progress from the counters here, and lists its rejected rows afterwards.
 */

export const IMPORT_KINDS = ["firebase", "csv", "grant"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/**
 * staged: the file is read, nothing checked yet · checked: the dry run has run (plan per row) ·
 * awaiting_approval: a bulk grant over the limit waits for a second person · queued/running: being applied ·
 * done/cancelled/failed: finished (cancelled keeps what was applied; nothing is half-applied: a row is one
 * transaction) · rejected: an approver refused a bulk grant.
 */
export const IMPORT_STATUSES = [
  "staged",
  "checked",
  "awaiting_approval",
  "queued",
  "running",
  "done",
  "cancelled",
  "rejected",
  "failed",
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const importRun = pgTable(
  "import_run",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    kind: text("kind", { enum: IMPORT_KINDS }).notNull(),
    /**
     * The system the rows come from: `firebase`, or the label the admin gives a CSV (`shopline`, `cyberbiz`, …).
     * With each row's old id it is the key that makes a second run of the same file change nothing.
     */
    source: text("source").notNull(),
    status: text("status", { enum: IMPORT_STATUSES }).notNull().default("staged"),
    /** The file(s) as uploaded: [{ role, name, bytes, sha256 }] (Firebase: users, members, hashConfig). */
    files: jsonb("files").notNull().default(sql`'[]'::jsonb`),
    /** SHA-256 of the data file (Firebase: of the members file and the users file, in that order, hashed together). */
    fileSha256: text("file_sha256").notNull(),
    /** The admin's choices: column mapping, encoding, welcome, evaluate tiers, defaults (per kind). */
    options: jsonb("options").notNull().default(sql`'{}'::jsonb`),
    /** The dry run's summary (counts per plan and per problem code), null before it. */
    report: jsonb("report"),
    rowsTotal: integer("rows_total").notNull().default(0),
    rowsDone: integer("rows_done").notNull().default(0),
    created: integer("created").notNull().default(0),
    merged: integer("merged").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    rejected: integer("rejected").notNull().default(0),
    pointsBooked: bigint("points_booked", { mode: "number" }).notNull().default(0),
    /** Staff user who started it; null from the command line. */
    createdBy: text("created_by"),
    /** Bulk grants over the manager limit: who approved or rejected (never the one who started it). */
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    /** Written by the worker after each batch: a run whose heartbeat is old was stopped (killed) and may resume. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** Why a run failed, in words for the admin. */
    error: text("error"),
  },
  (t) => [
    index("import_run_created_idx").on(t.createdAt),
    /** One run of each kind is applied at a time: a second start is refused by this index (import_busy). */
    uniqueIndex("import_run_one_active_uq").on(t.kind).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

export const IMPORT_ROW_STATES = ["pending", "done", "rejected"] as const;
export type ImportRowState = (typeof IMPORT_ROW_STATES)[number];

/** What a row will do (the dry run) and did (the apply): create a member, merge into one, leave it, refuse it. */
export const IMPORT_PLANS = ["create", "merge", "unchanged", "reject"] as const;
export type ImportPlan = (typeof IMPORT_PLANS)[number];

export const importRow = pgTable(
  "import_row",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => importRun.id, { onDelete: "cascade" }),
    /** The record's number in the file (1 = the first data row or document). */
    line: integer("line").notNull(),
    /** The old system's id of the record (Firebase: the memberList document id; CSV: the mapped old member number). */
    externalId: text("external_id"),
    /** The record as read (CSV: the cells by header; Firebase: the document), never rewritten. */
    raw: jsonb("raw").notNull(),
    /** The record as it will be stored (normalised), written by the check. */
    record: jsonb("record"),
    plan: text("plan", { enum: IMPORT_PLANS }),
    state: text("state", { enum: IMPORT_ROW_STATES }).notNull().default("pending"),
    /** [{ field, code }] — why the row is refused, or what was adjusted (codes from the import messages). */
    problems: jsonb("problems"),
    memberId: uuid("member_id"),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.line] }),
    index("import_row_external_idx").on(t.runId, t.externalId),
    index("import_row_pending_idx").on(t.runId, t.line).where(sql`${t.state} = 'pending'`),
  ],
);

/** Firebase Authentication users of a run (users.json), joined to the member documents by uid. */
export const importAuthUser = pgTable(
  "import_auth_user",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => importRun.id, { onDelete: "cascade" }),
    localId: text("local_id").notNull(),
    raw: jsonb("raw").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.localId] })],
);

/**
 * Where a member came from: one row per (source, old id), so a second import of the same record finds its
 * member and changes nothing. `data` keeps the fields of the old record that have no column here (kept, not
 * dropped); `runId` traces the member to the import that created or merged it.
 */
export const memberSource = pgTable(
  "member_source",
  {
    source: text("source").notNull(),
    externalId: text("external_id").notNull(),
    memberId: uuid("member_id")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    runId: uuid("run_id").references(() => importRun.id, { onDelete: "set null" }),
    /** true when the record was merged into a member that already existed here. */
    merged: boolean("merged").notNull().default(false),
    data: jsonb("data"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.externalId] }), index("member_source_member_idx").on(t.memberId)],
);
