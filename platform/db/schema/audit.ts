import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The audit log (ADR 020): append-only (a trigger refuses UPDATE, DELETE and TRUNCATE) and
 * tamper-evident: `hash` is SHA-256 over the row's canonical content and the previous row's hash.
 * `seq` has no gaps (it is taken from `audit_chain_head` under its row lock, which also serialises
 * the appends so the chain never forks). Personal values are masked before they are written.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    /**
     * The chain the row is in (ADR 039): '' for the global chain (console and system writes), else a store's id
     * (its POS writes). `seq` and `prev_hash` are the row's place in its own chain; (chain, seq) is the key.
     */
    chain: text("chain").notNull().default(""),
    seq: bigint("seq", { mode: "number" }).notNull(),
    /** The order rows were appended in across every chain (the console's newest-first list); not hashed. */
    pos: bigserial("pos", { mode: "number" }).notNull(),
    id: uuid("id").notNull().default(sql`gen_random_uuid()`),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    /** staff | api_key | system */
    actorType: text("actor_type").notNull(),
    actorUserId: text("actor_user_id"),
    actorRole: text("actor_role"),
    apiKeyId: uuid("api_key_id"),
    storeId: text("store_id"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** `{ field: { before, after } }` of the changed fields; personal values masked. */
    changes: jsonb("changes").$type<Record<string, { before: unknown; after: unknown }>>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    requestId: text("request_id"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    primaryKey({ name: "audit_log_chain_seq_pk", columns: [t.chain, t.seq] }),
    index("audit_log_pos_idx").on(t.pos),
    index("audit_log_occurred_idx").on(t.occurredAt),
    index("audit_log_target_idx").on(t.targetType, t.targetId),
    index("audit_log_actor_idx").on(t.actorUserId),
  ],
);

/** One row: the last appended seq and hash. Locked FOR UPDATE by every append until its commit. */
export const auditChainHead = pgTable(
  "audit_chain_head",
  {
    id: integer("id").primaryKey().default(1),
    seq: bigint("seq", { mode: "number" }).notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [check("audit_chain_head_single_row", sql`${t.id} = 1`)],
);

/**
 * The head of each store's chain (ADR 039): the last seq and hash, locked FOR UPDATE by each of the store's POS
 * writes until its commit (one store's writes queue here, not every store's). `anchoredSeq`/`anchoredHash`: the
 * point the minute's anchor last wrote into the global chain (a hint for the next anchor; the check trusts the
 * anchor rows in the global chain, not these columns).
 */
export const auditStoreChainHead = pgTable("audit_store_chain_head", {
  storeId: text("store_id").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  anchoredSeq: bigint("anchored_seq", { mode: "number" }).notNull().default(0),
  anchoredHash: text("anchored_hash").notNull().default(sql`repeat('0', 64)`),
});
