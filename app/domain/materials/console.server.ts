import type { Database } from "@platform/db/client";
import { material, materialCategory, materialStore, store } from "@platform/db/schema";
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Locale } from "~/lib/i18n";
import { cursorTime, decodeTimeCursor, olderThan } from "~/lib/keyset.server";
import { pick } from "~/lib/localized";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { containsPattern } from "../catalog/search";
import { Refusal, type RefusalCode, VersionConflict } from "../refusals";
import { replaceSampleStores, sampleStoreIds } from "../samples/samples.server";
import type { CategoryInput, MaterialInput } from "./editor";

/**
 * The catalogue in the console (issue 14 item 2, ADR 033): materials and categories are created, edited,
 * published and withdrawn by admins (`catalog.edit`). Each save checks the version the form was loaded
 * with and increments it in the same UPDATE (optimistic concurrency): a second admin saving an older copy
 * is told (`conflict`), nothing is silently overwritten. The audit row is written in the same transaction.
 */

export type MaterialErrorCode = Exclude<RefusalCode<"materials">, "version_conflict">;

/** A refused catalogue change (a version conflict is a `VersionConflict`). */
export class MaterialError extends Refusal<"materials"> {
  constructor(code: MaterialErrorCode, field?: string) {
    super("materials", code, { field });
    this.name = "MaterialError";
  }
}

export const CONSOLE_PAGE_SIZE = 25;
export const MATERIAL_SORTS = ["updated", "name"] as const;
export type MaterialSort = (typeof MATERIAL_SORTS)[number];

export type ConsoleMaterialSearch = {
  q: string;
  categoryId: string | null;
  status: "draft" | "published" | null;
  sort: MaterialSort;
  after: string | null;
};

/**
 * A cursor is the sort value and the id: by name the name's text; by last change the keyset's time cursor
 * (app/lib/keyset.server.ts: the database's microseconds, and nothing but such a time is ever cast).
 */
const MATERIAL_ID = /^[A-Za-z0-9_-]{1,100}$/;

function decodeNameCursor(after: string | null): { value: string; id: string } | null {
  if (!after) return null;
  const at = after.lastIndexOf("|");
  if (at <= 0 || after.length > 300) return null;
  const id = after.slice(at + 1);
  return MATERIAL_ID.test(id) ? { value: after.slice(0, at), id } : null;
}

const nameZh = sql<string>`${material.name}->>'zh-TW'`;

/** The console's material list: search by name or series (both languages), filters, keyset pages of 25. */
export async function searchConsoleMaterials(db: Database, search: ConsoleMaterialSearch) {
  const where: (SQL | undefined)[] = [];
  if (search.q) {
    const pattern = containsPattern(search.q);
    where.push(
      sql`(${material.name}->>'zh-TW' ilike ${pattern} or ${material.name}->>'en' ilike ${pattern}
        or ${material.series}->>'zh-TW' ilike ${pattern} or ${material.series}->>'en' ilike ${pattern}
        or ${material.id} ilike ${pattern})`,
    );
  }
  if (search.categoryId) where.push(eq(material.categoryId, search.categoryId));
  if (search.status) where.push(eq(material.published, search.status === "published"));
  const byName = search.sort === "name";
  if (byName) {
    const cursor = decodeNameCursor(search.after);
    if (cursor) where.push(sql`(${nameZh}, ${material.id}) > (${cursor.value}, ${cursor.id})`);
  } else {
    where.push(olderThan(material.updatedAt, material.id, decodeTimeCursor(search.after, MATERIAL_ID)));
  }
  const rows = await db
    .select({
      id: material.id,
      name: material.name,
      series: material.series,
      categoryId: material.categoryId,
      categoryName: materialCategory.name,
      published: material.published,
      updatedAt: material.updatedAt,
      images: material.images,
      swatch: material.swatch,
      sortValue: byName ? nameZh : cursorTime(material.updatedAt),
    })
    .from(material)
    .innerJoin(materialCategory, eq(materialCategory.id, material.categoryId))
    .where(and(...where))
    .orderBy(...(byName ? [asc(nameZh), asc(material.id)] : [desc(material.updatedAt), desc(material.id)]))
    .limit(CONSOLE_PAGE_SIZE + 1);
  const page = rows.slice(0, CONSOLE_PAGE_SIZE);
  const last = page.at(-1);
  return {
    rows: page,
    nextAfter: rows.length > CONSOLE_PAGE_SIZE && last ? `${last.sortValue}|${last.id}` : null,
  };
}

/**
 * The console's list of materials in the reader's language: the categories to filter by, the category filter
 * (empty when it names none), a page of rows and the cursor of the next page.
 */
export async function consoleMaterialList(
  db: Database,
  search: Omit<ConsoleMaterialSearch, "categoryId"> & { category: string },
  locale: Locale,
) {
  const categories = await consoleCategories(db);
  const category = categories.some((c) => c.id === search.category) ? search.category : "";
  const result = await searchConsoleMaterials(db, { ...search, categoryId: category || null });
  return {
    category,
    categories: categories.map((c) => ({ id: c.id, name: pick(c.name, locale) })),
    rows: result.rows.map((r) => ({
      id: r.id,
      name: pick(r.name, locale),
      series: pick(r.series, locale),
      category: pick(r.categoryName, locale),
      published: r.published,
      updatedAt: r.updatedAt.toISOString(),
      image: r.images[0]?.src ?? null,
      swatch: r.swatch,
    })),
    nextAfter: result.nextAfter,
  };
}

/** Every category (published or not), in the public order, with how many materials each has. */
export async function consoleCategories(db: Database) {
  return db
    .select({
      id: materialCategory.id,
      name: materialCategory.name,
      summary: materialCategory.summary,
      image: materialCategory.image,
      sortOrder: materialCategory.sortOrder,
      published: materialCategory.published,
      version: materialCategory.version,
      // Written out: inside a subquery drizzle leaves the columns unqualified (`category_id = id`).
      materials: sql<number>`(select count(*)::int from "material" m where m.category_id = "material_category"."id")`,
    })
    .from(materialCategory)
    .orderBy(asc(materialCategory.sortOrder), asc(materialCategory.id));
}

/** A material for the edit form (any status), with the stores that display it. */
export async function materialForEdit(db: Database, id: string) {
  const [row] = await db.select().from(material).where(eq(material.id, id)).limit(1);
  if (!row) return null;
  const stores = await db
    .select({ storeId: materialStore.storeId })
    .from(materialStore)
    .where(eq(materialStore.materialId, id));
  return { ...row, storeIds: stores.map((s) => s.storeId), sampleStoreIds: await sampleStoreIds(db, id) };
}

/** The choices of the form: stores (any status) and other materials for "related". */
export async function materialChoices(db: Database) {
  const [stores, materials] = await Promise.all([
    db
      .select({ id: store.id, name: store.name, published: store.published })
      .from(store)
      .orderBy(asc(store.sortOrder), asc(store.id)),
    db
      .select({ id: material.id, name: material.name, categoryId: material.categoryId })
      .from(material)
      .orderBy(asc(material.categoryId), asc(material.sortOrder), asc(material.id)),
  ]);
  return { stores, materials };
}

async function checkReferences(tx: Database, input: MaterialInput) {
  const [category] = await tx
    .select({ id: materialCategory.id })
    .from(materialCategory)
    .where(eq(materialCategory.id, input.categoryId));
  if (!category) throw new MaterialError("unknown_category", "categoryId");
  if (input.storeIds.length > 0) {
    const found = await tx.select({ id: store.id }).from(store).where(inArray(store.id, input.storeIds));
    if (found.length !== input.storeIds.length) throw new MaterialError("unknown_store", "stores");
  }
  if (input.relatedIds.length > 0) {
    const found = await tx.select({ id: material.id }).from(material).where(inArray(material.id, input.relatedIds));
    if (found.length !== input.relatedIds.length) throw new MaterialError("unknown_related", "related");
  }
}

function contentOf(input: MaterialInput) {
  return {
    categoryId: input.categoryId,
    name: input.name,
    series: input.series,
    summary: input.summary,
    sizes: input.sizes,
    finish: input.finish,
    colour: input.colour,
    swatch: input.swatch,
    origin: input.origin,
    care: input.care,
    specs: input.specs,
    images: input.images,
    relatedIds: input.relatedIds,
    featured: input.featured,
  };
}

async function replaceStores(tx: Database, id: string, storeIds: string[]) {
  await tx.delete(materialStore).where(eq(materialStore.materialId, id));
  if (storeIds.length > 0) {
    await tx.insert(materialStore).values(storeIds.map((storeId) => ({ materialId: id, storeId })));
  }
}

/** A new material, as a draft (not on the public site until published). */
export async function createMaterial(db: Database, input: MaterialInput, audit: AuditContext, now: Date) {
  return auditedTx(db, audit, now, async (tx, record) => {
    await checkReferences(tx, input);
    const [created] = await tx
      .insert(material)
      .values({ id: input.id, ...contentOf(input), published: false, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!created) throw new MaterialError("duplicate_id", "id");
    await replaceStores(tx, input.id, input.storeIds);
    await replaceSampleStores(tx, input.id, input.sampleStoreIds);
    await record("material.created", ["material", input.id], {
      after: { ...contentOf(input), storeIds: input.storeIds, sampleStoreIds: input.sampleStoreIds, published: false },
    });
    return created;
  });
}

/**
 * Saves an edit made on `expectedVersion`. The version check and the increment are one UPDATE: of two
 * admins saving the same version, one wins and the other gets `conflict` (and keeps what they typed).
 */
export async function updateMaterial(
  db: Database,
  id: string,
  expectedVersion: number,
  input: MaterialInput,
  audit: AuditContext,
  now: Date,
) {
  return auditedTx(db, audit, now, async (tx, record) => {
    await checkReferences(tx, input);
    const [before] = await tx.select().from(material).where(eq(material.id, id)).for("update");
    if (!before) throw new MaterialError("not_found");
    const [updated] = await tx
      .update(material)
      .set({ ...contentOf(input), version: sql`${material.version} + 1`, updatedAt: now })
      .where(and(eq(material.id, id), eq(material.version, expectedVersion)))
      .returning();
    if (!updated) throw new VersionConflict("materials", null);
    const beforeStores = (
      await tx.select({ id: materialStore.storeId }).from(materialStore).where(eq(materialStore.materialId, id))
    )
      .map((s) => s.id)
      .sort();
    const beforeSamples = await sampleStoreIds(tx, id);
    await replaceStores(tx, id, input.storeIds);
    await replaceSampleStores(tx, id, input.sampleStoreIds);
    await record("material.updated", ["material", id], {
      before: {
        ...contentOf({ ...before, storeIds: [], sampleStoreIds: [], id }),
        storeIds: beforeStores,
        sampleStoreIds: beforeSamples,
      },
      after: {
        ...contentOf(input),
        storeIds: [...input.storeIds].sort(),
        sampleStoreIds: [...input.sampleStoreIds].sort(),
      },
    });
    return updated;
  });
}

/** Publishes or withdraws a material (a version-checked change like any other save). */
export async function setMaterialPublished(
  db: Database,
  id: string,
  expectedVersion: number,
  published: boolean,
  audit: AuditContext,
  now: Date,
) {
  return auditedTx(db, audit, now, async (tx, record) => {
    const [updated] = await tx
      .update(material)
      .set({ published, version: sql`${material.version} + 1`, updatedAt: now })
      .where(and(eq(material.id, id), eq(material.version, expectedVersion)))
      .returning();
    if (!updated) {
      const [exists] = await tx.select({ id: material.id }).from(material).where(eq(material.id, id));
      throw exists ? new VersionConflict("materials", null) : new MaterialError("not_found");
    }
    await record(published ? "material.published" : "material.unpublished", ["material", id], {
      before: { published: !published },
      after: { published },
    });
    return updated;
  });
}

function categoryContent(input: CategoryInput) {
  return { name: input.name, summary: input.summary, image: input.image, published: input.published };
}

/** A new category, last in the order. */
export async function createCategory(db: Database, input: CategoryInput, audit: AuditContext, now: Date) {
  return auditedTx(db, audit, now, async (tx, record) => {
    const [created] = await tx
      .insert(materialCategory)
      .values({
        id: input.id,
        ...categoryContent(input),
        sortOrder: sql`(select coalesce(max(${materialCategory.sortOrder}), 0) + 1 from ${materialCategory})`,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!created) throw new MaterialError("duplicate_id", "id");
    await record("category.created", ["material_category", input.id], { after: categoryContent(input) });
    return created;
  });
}

export async function updateCategory(
  db: Database,
  id: string,
  expectedVersion: number,
  input: CategoryInput,
  audit: AuditContext,
  now: Date,
) {
  return auditedTx(db, audit, now, async (tx, record) => {
    const [before] = await tx.select().from(materialCategory).where(eq(materialCategory.id, id)).for("update");
    if (!before) throw new MaterialError("not_found");
    const [updated] = await tx
      .update(materialCategory)
      .set({ ...categoryContent(input), version: sql`${materialCategory.version} + 1`, updatedAt: now })
      .where(and(eq(materialCategory.id, id), eq(materialCategory.version, expectedVersion)))
      .returning();
    if (!updated) throw new VersionConflict("materials", null);
    await record("category.updated", ["material_category", id], {
      before: categoryContent({ ...before, id }),
      after: categoryContent(input),
    });
    return updated;
  });
}

/**
 * Moves a category one place up or down: the order is renumbered 1…n with the two swapped, in one
 * transaction holding every category row, so two admins moving at once never leave equal positions.
 */
export async function moveCategory(db: Database, id: string, direction: "up" | "down", audit: AuditContext, now: Date) {
  return auditedTx(db, audit, now, async (tx, record) => {
    const rows = await tx
      .select({ id: materialCategory.id, sortOrder: materialCategory.sortOrder })
      .from(materialCategory)
      .orderBy(asc(materialCategory.sortOrder), asc(materialCategory.id))
      .for("update");
    const from = rows.findIndex((r) => r.id === id);
    if (from < 0) throw new MaterialError("not_found");
    const to = direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= rows.length) return false;
    const order = rows.map((r) => r.id);
    [order[from], order[to]] = [order[to] as string, order[from] as string];
    for (const [index, categoryId] of order.entries()) {
      if (rows[index]?.id === categoryId && rows[index]?.sortOrder === index + 1) continue;
      await tx
        .update(materialCategory)
        // The version is left alone: the edit form does not write the order, so an open form is not stale.
        .set({ sortOrder: index + 1, updatedAt: now })
        .where(eq(materialCategory.id, categoryId));
    }
    await record("category.moved", ["material_category", id], {
      before: { position: from + 1 },
      after: { position: to + 1 },
    });
    return true;
  });
}
