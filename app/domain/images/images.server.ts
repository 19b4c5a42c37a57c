import type { Database } from "@platform/db/client";
import { isForeignKeyViolation, isUniqueViolation } from "@platform/db/errors";
import { mediaImage } from "@platform/db/schema";
import { and, desc, eq, ilike, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { MessageKey } from "~/lib/i18n";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { Refusal } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { ALT_MAX_LENGTH } from "./limits";
import { imageHash, type ProcessedImage, processUpload } from "./process.server";
import { databaseMediaStore, type MediaStore } from "./storage.server";
import { CONTENT_TYPES, MEDIA_HASH, type MediaImageView, parseVariantFile, variantKey } from "./urls";

/**
 * Uploaded images (ADR 028): upload (validate, process, store, audit), the media library's list and
 * search, alt text, delete when unused, and reading a variant to serve it. The console's image fields
 * (stores, materials, categories, rewards) use these; their tables refer to media_image.id.
 */

export type MediaImageRow = typeof mediaImage.$inferSelect;

/** What can be wrong with the alt texts: the code the uploader's JSON says, and the message beside the field. */
export const ALT_PROBLEMS = {
  required: { code: "alt_required", message: "console.images.error.altRequired" },
  too_long: { code: "alt_too_long", message: "console.images.error.altTooLong" },
} as const satisfies Record<string, { code: string; message: MessageKey }>;

function altText(words: Record<keyof typeof ALT_PROBLEMS, string>) {
  const text = (min: number) =>
    z.string().default("").pipe(z.string().trim().min(min, words.required).max(ALT_MAX_LENGTH, words.too_long));
  return z.object({ altZh: text(1), altEn: text(0) });
}

/** The alt texts, checked on the server; an issue's message is its problem's name (`ALT_PROBLEMS`). */
export const altTextInput = altText({ required: "required", too_long: "too_long" });
export type AltText = z.infer<typeof altTextInput>;

/** The alt text form's schema (parseForm), its messages in the reader's words. */
export function altTextSchema(t: (key: MessageKey) => string) {
  return altText({ required: t(ALT_PROBLEMS.required.message), too_long: t(ALT_PROBLEMS.too_long.message) });
}

export function imageView(row: MediaImageRow): MediaImageView {
  return {
    id: row.id,
    hash: row.hash,
    width: row.width,
    height: row.height,
    altZh: row.altZh,
    altEn: row.altEn,
    variants: row.variants,
    sourceFormat: row.sourceFormat,
    sourceBytes: row.sourceBytes,
    createdAt: row.createdAt.toISOString(),
  };
}

function auditFacts(row: Pick<MediaImageRow, "hash" | "width" | "height" | "altZh" | "altEn" | "sourceBytes">) {
  return {
    hash: row.hash,
    width: row.width,
    height: row.height,
    altZh: row.altZh,
    altEn: row.altEn,
    sourceBytes: row.sourceBytes,
  };
}

async function findByHash(db: Database, hash: string) {
  const [row] = await db.select().from(mediaImage).where(eq(mediaImage.hash, hash));
  return row ?? null;
}

/**
 * Validates, processes and stores an uploaded file with its alt texts; audited in the transaction that
 * adds the image. The same file uploaded again is the same image (its hash): the existing one is
 * answered (`created: false`) and nothing is written.
 */
export async function uploadImage(
  db: Database,
  actor: StaffActor,
  input: { bytes: Uint8Array; alt: AltText },
  store: MediaStore,
  audit: AuditContext,
  now = new Date(),
  process: (bytes: Uint8Array) => Promise<ProcessedImage> = processUpload,
): Promise<{ image: MediaImageRow; created: boolean }> {
  requirePermission(actor, "catalog.edit");
  const alt = altTextInput.parse(input.alt);
  // The same file again: nothing to process.
  const known = await findByHash(db, imageHash(input.bytes));
  if (known) return { image: known, created: false };
  const processed = await process(input.bytes);

  const objects = processed.variants.map((v) => ({
    key: variantKey(processed.hash, v.width, v.format),
    data: v.data,
    contentType: CONTENT_TYPES[v.format],
  }));
  if (!store.transactional) {
    for (const o of objects) await store.put(db, o.key, o.data, o.contentType);
  }
  try {
    const image = await auditedTx(db, audit, now, async (t, record) => {
      const [row] = await t
        .insert(mediaImage)
        .values({
          hash: processed.hash,
          width: processed.width,
          height: processed.height,
          sourceFormat: processed.sourceFormat,
          sourceBytes: processed.sourceBytes,
          altZh: alt.altZh,
          altEn: alt.altEn,
          variants: processed.variants.map(({ width, height, format, bytes }) => ({ width, height, format, bytes })),
          storage: store.kind,
          createdBy: actor.userId,
          createdAt: now,
        })
        .returning();
      if (!row) throw new Error("media_image insert returned nothing");
      if (store.transactional) {
        for (const o of objects) await store.put(t, o.key, o.data, o.contentType);
      }
      await record("image.uploaded", ["media_image", row.id], { after: auditFacts(row) });
      return row;
    });
    return { image, created: true };
  } catch (error) {
    // The same file uploaded twice at once: the other upload's image stands (its objects are the same keys).
    if (isUniqueViolation(error)) {
      const other = await findByHash(db, processed.hash);
      if (other) return { image: other, created: false };
    }
    if (!store.transactional)
      await store
        .remove(
          db,
          objects.map((o) => o.key),
        )
        .catch(() => {});
    throw error;
  }
}

/** Changes an image's alt texts (audited); refuses (`not_found`) an image that does not exist. */
export async function updateImageAlt(
  db: Database,
  actor: StaffActor,
  id: string,
  input: AltText,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "catalog.edit");
  const alt = altTextInput.parse(input);
  if (!z.uuid().safeParse(id).success) throw new Refusal("images", "not_found");
  await auditedTx(db, audit, now, async (t, record) => {
    const [before] = await t.select().from(mediaImage).where(eq(mediaImage.id, id)).for("update");
    if (!before) throw new Refusal("images", "not_found");
    if (before.altZh === alt.altZh && before.altEn === alt.altEn) return;
    await t.update(mediaImage).set(alt).where(eq(mediaImage.id, id));
    await record("image.alt_changed", ["media_image", id], {
      before: { altZh: before.altZh, altEn: before.altEn },
      after: alt,
    });
  });
}

/**
 * Deletes an image nobody uses: another table that still refers to it (a foreign key) makes the delete
 * fail, and it is refused (`in_use`; `not_found` for an image that does not exist). With the database store the bytes go in the same transaction; with
 * a bucket they are removed after it (the image's addresses already answer 404 by then).
 */
export async function deleteImage(
  db: Database,
  actor: StaffActor,
  id: string,
  store: MediaStore,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "catalog.edit");
  if (!z.uuid().safeParse(id).success) throw new Refusal("images", "not_found");
  let removed: MediaImageRow | null = null;
  try {
    removed = await auditedTx(db, audit, now, async (t, record) => {
      const [row] = await t.delete(mediaImage).where(eq(mediaImage.id, id)).returning();
      if (!row) return null;
      const keys = row.variants.map((v) => variantKey(row.hash, v.width, v.format));
      if (row.storage === "database") await databaseMediaStore.remove(t, keys);
      await record("image.deleted", ["media_image", id], { before: auditFacts(row) });
      return row;
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new Refusal("images", "in_use");
    throw error;
  }
  if (!removed) throw new Refusal("images", "not_found");
  if (removed.storage === "s3" && store.kind === "s3") {
    const gone = removed;
    await store.remove(
      db,
      gone.variants.map((v) => variantKey(gone.hash, v.width, v.format)),
    );
  }
}

export const IMAGE_PAGE_SIZE = 24;

/** The media library: newest first, searched in both alt texts, 24 a page (keyset: before the last one shown). */
export async function listImages(
  db: Database,
  options: { query?: string; before?: { createdAt: Date; id: string } | null; limit?: number } = {},
) {
  const limit = options.limit ?? IMAGE_PAGE_SIZE;
  const query = options.query?.trim().slice(0, 100) ?? "";
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select()
    .from(mediaImage)
    .where(
      and(
        query ? or(ilike(mediaImage.altZh, pattern), ilike(mediaImage.altEn, pattern)) : undefined,
        options.before
          ? or(
              lt(mediaImage.createdAt, options.before.createdAt),
              and(eq(mediaImage.createdAt, options.before.createdAt), lt(mediaImage.id, options.before.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(mediaImage.createdAt), desc(mediaImage.id))
    .limit(limit + 1);
  return { images: rows.slice(0, limit), more: rows.length > limit };
}

export async function getImage(db: Database, id: string): Promise<MediaImageRow | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await db.select().from(mediaImage).where(eq(mediaImage.id, id));
  return row ?? null;
}

/** How many images there are (the library's heading). */
export async function countImages(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(mediaImage);
  return row?.n ?? 0;
}

/**
 * One variant's bytes for /media/<hash>/<file>, or null (404): the image must exist and have that
 * variant; the bytes come from the store the image was written to.
 */
export async function readVariant(
  db: Database,
  stores: { database: MediaStore; configured: MediaStore },
  hash: string,
  file: string,
): Promise<{ body: Uint8Array; contentType: string } | null> {
  if (!MEDIA_HASH.test(hash)) return null;
  const variant = parseVariantFile(file);
  if (!variant) return null;
  const [row] = await db
    .select({ storage: mediaImage.storage, variants: mediaImage.variants })
    .from(mediaImage)
    .where(eq(mediaImage.hash, hash));
  if (!row?.variants.some((v) => v.width === variant.width && v.format === variant.format)) return null;
  const store = row.storage === "database" ? stores.database : stores.configured;
  if (store.kind !== row.storage) return null;
  const object = await store.get(db, variantKey(hash, variant.width, variant.format));
  return object ? { body: object.body, contentType: CONTENT_TYPES[variant.format] } : null;
}
