import { store } from "@platform/db/schema/catalog";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Point-of-sale API keys, one store each (a store that exists: a key for a mistyped store would book
 * purchases nobody can find). Only a SHA-256 of the (256-bit random) secret is stored.
 */
export const apiKey = pgTable(
  "api_key",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    storeId: text("store_id")
      .notNull()
      .references(() => store.id),
    name: text("name").notNull(),
    /** The first characters of the key, to recognise it in lists. */
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /**
     * What the key may do beyond the till's everyday work (lookup, balance, purchases, refunds, coupons, which
     * every key may do): `einvoice:read` reads a member's e-invoice carrier and 統編 (ADR 041). An admin grants it.
     */
    scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [index("api_key_store_idx").on(t.storeId)],
);

/**
 * The first answer to each (key, Idempotency-Key): a retry with the same body gets it again, a
 * different body gets 409. A row without a status is a request still in progress.
 */
export const apiIdempotency = pgTable(
  "api_idempotency",
  {
    apiKeyId: uuid("api_key_id")
      .notNull()
      .references(() => apiKey.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    response: jsonb("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index("api_idempotency_created_idx").on(t.createdAt)],
);

/**
 * The POS API's per-key request counter: one row per key and one-minute window, one atomic upsert per
 * request (ADR 018's counter, ADR 030). UNLOGGED (hand-written at the end of its migration): the upsert
 * writes no WAL, so its commit does not wait for a disk flush. After a crash of PostgreSQL the table is
 * empty — at worst a key gets one extra minute's budget. Old windows are deleted by the nightly
 * housekeeping job.
 */
export const apiRateCounter = pgTable(
  "api_rate_counter",
  {
    apiKeyId: uuid("api_key_id").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.windowStart] })],
);
