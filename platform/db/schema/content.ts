import { sql } from "drizzle-orm";
import { bigint, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Drafts, published revisions and the catalogue's version (ADR 027), for every kind of content the
 * console edits (stores now; materials, categories and rewards later). Generic on purpose: `kind`
 * names the table the content is published to, `entity_id` its row.
 *
 * - `content_draft`: at most one pending edit per item (`data`, the whole item as the editor saves it;
 *   null once published), and `version`, the item's edit counter: every save and every publish adds
 *   one, and a save or publish names the version it started from (optimistic concurrency).
 * - `content_revision`: what each publish made public, numbered per item (the history).
 * - `content_version`: one row; every publish (or unpublish) adds one. Render caches key on it.
 */
export const contentDraft = pgTable(
  "content_draft",
  {
    kind: text("kind").notNull(),
    entityId: text("entity_id").notNull(),
    data: jsonb("data").$type<unknown>(),
    version: integer("version").notNull().default(1),
    updatedBy: text("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.entityId] })],
);

export const contentRevision = pgTable(
  "content_revision",
  {
    kind: text("kind").notNull(),
    entityId: text("entity_id").notNull(),
    revision: integer("revision").notNull(),
    data: jsonb("data").$type<unknown>().notNull(),
    publishedBy: text("published_by"),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.entityId, t.revision] })],
);

export const contentVersion = pgTable("content_version", {
  id: integer("id").primaryKey().default(1),
  version: bigint("version", { mode: "number" }).notNull().default(0),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull().default(sql`now()`),
});
