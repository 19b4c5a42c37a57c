import { staffAccount } from "@platform/db/schema/staff";
import { sql } from "drizzle-orm";
import { customType, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** PostgreSQL `bytea`: a Buffer from postgres.js, a Uint8Array from PGlite; both read as Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/** One variant of an uploaded image, as stored: its width, format and size in bytes. */
export type MediaVariantRecord = { width: number; height: number; format: "avif" | "webp" | "jpeg"; bytes: number };

/**
 * Uploaded images (ADR 028): the picture's facts and its alt text in both languages. The variants'
 * bytes live in the media store (media_object by default, or an S3-compatible bucket) under
 * `media/<hash>/<width>.<ext>`; `hash` is the SHA-256 (first 32 hex digits) of the uploaded file, so
 * the URLs never change meaning and may be cached for a year. Other tables refer to an image by `id`
 * with a foreign key (no cascade): an image in use cannot be deleted.
 */
export const mediaImage = pgTable(
  "media_image",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    hash: text("hash").notNull().unique(),
    /** The picture's size after its EXIF orientation was applied. */
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** What was uploaded: jpeg, png, webp or heif; and its size in bytes (the file itself is not kept). */
    sourceFormat: text("source_format").notNull(),
    sourceBytes: integer("source_bytes").notNull(),
    altZh: text("alt_zh").notNull(),
    altEn: text("alt_en").notNull().default(""),
    variants: jsonb("variants").$type<MediaVariantRecord[]>().notNull(),
    /** Where the variants are: `database` or `s3` (an install may move from one to the other). */
    storage: text("storage").notNull(),
    createdBy: text("created_by").references(() => staffAccount.userId, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("media_image_created_idx").on(t.createdAt, t.id)],
);

/** The database media store (the default): one row per stored object, shared by every app instance. */
export const mediaObject = pgTable("media_object", {
  key: text("key").primaryKey(),
  contentType: text("content_type").notNull(),
  data: bytea("data").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
