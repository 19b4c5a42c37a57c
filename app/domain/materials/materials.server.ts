import type { Database } from "@platform/db/client";
import { material, materialCategory, materialStore, store } from "@platform/db/schema";
import { and, asc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { cachedCatalogue } from "../catalog/cache.server";
import { containsPattern } from "../catalog/search";
import type { MaterialFilters } from "./filters";

export type MaterialRow = typeof material.$inferSelect;
export type CategoryRow = typeof materialCategory.$inferSelect;

/** What a material card needs (lists, related materials, store pages). */
const cardColumns = {
  id: material.id,
  categoryId: material.categoryId,
  name: material.name,
  series: material.series,
  colour: material.colour,
  swatch: material.swatch,
  images: material.images,
};
/** What a material's page says of each showroom that displays it. */
const storeColumns = {
  id: store.id,
  name: store.name,
  city: store.city,
  district: store.district,
  address: store.address,
  phone: store.phone,
};

export type MaterialCard = {
  id: string;
  categoryId: string;
  name: MaterialRow["name"];
  series: MaterialRow["series"];
  colour: MaterialRow["colour"];
  swatch: string;
  images: MaterialRow["images"];
};

export async function listCategories(db: Database): Promise<CategoryRow[]> {
  return cachedCatalogue(db, "materials:categories", async () => {
    return db
      .select()
      .from(materialCategory)
      .where(eq(materialCategory.published, true))
      .orderBy(asc(materialCategory.sortOrder), asc(materialCategory.id));
  });
}

/** Published materials with a category counted, per category (for the category chips). */
export async function categoryCounts(db: Database): Promise<Record<string, number>> {
  return cachedCatalogue(db, "materials:counts", async () => {
    const rows = await db
      .select({ categoryId: material.categoryId, n: sql<number>`count(*)::int` })
      .from(material)
      .where(eq(material.published, true))
      .groupBy(material.categoryId);
    return Object.fromEntries(rows.map((r) => [r.categoryId, Number(r.n)]));
  });
}

function materialSearchCondition(q: string) {
  const pattern = containsPattern(q);
  const fields = [
    sql`${material.name}->>'zh-TW'`,
    sql`${material.name}->>'en'`,
    sql`${material.series}->>'zh-TW'`,
    sql`${material.series}->>'en'`,
    sql`${material.colour}->>'zh-TW'`,
    sql`${material.colour}->>'en'`,
    sql`${material.finish}->>'zh-TW'`,
    sql`${material.finish}->>'en'`,
    sql`${material.origin}->>'zh-TW'`,
    sql`${material.origin}->>'en'`,
  ];
  return or(...fields.map((field) => sql`${field} ilike ${pattern}`));
}

export async function listMaterials(db: Database, filters: MaterialFilters): Promise<MaterialCard[]> {
  return cachedCatalogue(db, `materials:list:${JSON.stringify([filters.category, filters.q])}`, async () => {
    const conditions = [eq(material.published, true)];
    if (filters.category) conditions.push(eq(material.categoryId, filters.category));
    if (filters.q) {
      const search = materialSearchCondition(filters.q);
      if (search) conditions.push(search);
    }
    return db
      .select(cardColumns)
      .from(material)
      .innerJoin(materialCategory, eq(materialCategory.id, material.categoryId))
      .where(and(...conditions, eq(materialCategory.published, true)))
      .orderBy(asc(materialCategory.sortOrder), asc(material.sortOrder), asc(material.id));
  });
}

export async function featuredMaterials(db: Database, limit = 6): Promise<MaterialCard[]> {
  return cachedCatalogue(db, `materials:featured:${limit}`, async () => {
    return db
      .select(cardColumns)
      .from(material)
      .where(and(eq(material.published, true), eq(material.featured, true)))
      .orderBy(asc(material.sortOrder), asc(material.id))
      .limit(limit);
  });
}

export const RELATED_LIMIT = 4;

/**
 * One published material with its category, the published showrooms that display it and related
 * materials (same series first, then same category); null when unknown or unpublished.
 */
export async function getMaterial(db: Database, id: string) {
  return cachedCatalogue(db, `materials:one:${JSON.stringify(id)}`, async () => {
    const [row] = await db
      .select({ material, category: materialCategory })
      .from(material)
      .innerJoin(materialCategory, eq(materialCategory.id, material.categoryId))
      .where(and(eq(material.id, id), eq(material.published, true), eq(materialCategory.published, true)))
      .limit(1);
    if (!row) return null;
    const [stores, related] = await Promise.all([
      db
        .select(storeColumns)
        .from(materialStore)
        .innerJoin(store, eq(store.id, materialStore.storeId))
        .where(and(eq(materialStore.materialId, id), eq(store.published, true)))
        .orderBy(asc(store.sortOrder), asc(store.id)),
      relatedMaterials(db, row.material),
    ]);
    return { material: row.material, category: row.category, stores, related };
  });
}

/**
 * The related materials of a detail page: those chosen in the console (published ones, in the chosen
 * order), else the same series first, then the same category.
 */
export async function relatedMaterials(
  db: Database,
  m: Pick<MaterialRow, "id" | "categoryId" | "series" | "relatedIds">,
): Promise<MaterialCard[]> {
  if (m.relatedIds.length > 0) {
    const chosen = await db
      .select(cardColumns)
      .from(material)
      .where(and(eq(material.published, true), inArray(material.id, m.relatedIds), ne(material.id, m.id)));
    return chosen.sort((a, b) => m.relatedIds.indexOf(a.id) - m.relatedIds.indexOf(b.id));
  }
  return db
    .select(cardColumns)
    .from(material)
    .where(and(eq(material.published, true), ne(material.id, m.id), eq(material.categoryId, m.categoryId)))
    .orderBy(
      sql`case when ${material.series}->>'en' = ${m.series.en} then 0 else 1 end`,
      asc(material.sortOrder),
      asc(material.id),
    )
    .limit(RELATED_LIMIT);
}

/** The stores that display a material (published ones), for its detail page and the console preview. */
export async function displayingStores(db: Database, storeIds: string[]) {
  if (storeIds.length === 0) return [];
  return db
    .select(storeColumns)
    .from(store)
    .where(and(inArray(store.id, storeIds), eq(store.published, true)))
    .orderBy(asc(store.sortOrder), asc(store.id));
}

export async function materialSitemapEntries(db: Database) {
  return cachedCatalogue(db, "materials:sitemap", async () => {
    return db
      .select({ id: material.id, updatedAt: material.updatedAt })
      .from(material)
      .where(eq(material.published, true))
      .orderBy(asc(material.sortOrder), asc(material.id));
  });
}
