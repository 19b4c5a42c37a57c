import type { Database } from "@platform/db/client";
import { material, materialStore, store, storeHoursException } from "@platform/db/schema";
import { and, asc, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import { addDays, taipeiDate } from "~/lib/time";
import { cachedCatalogue } from "../catalog/cache.server";
import { containsPattern } from "../catalog/search";
import { distanceKm, type StoreFilters } from "./filters";
import { type HoursException, isoDate, openStatus, weekAhead } from "./hours";
import type { ResolvedPhoto } from "./photos";
import { resolvePhotoLists, resolvePhotos } from "./photos.server";

export type StoreRow = typeof store.$inferSelect;

export type StoreListItem = StoreRow & {
  /** The card's picture: the first photo that can be shown. */
  photo: ResolvedPhoto | null;
  status: ReturnType<typeof openStatus>;
  distanceKm: number | null;
};

/** Exceptions from today (Taipei) for the next 8 days, per store: all "open now" and week tables need. */
async function exceptionsFor(db: Database, storeIds: string[], now: Date): Promise<Map<string, HoursException[]>> {
  const byStore = new Map<string, HoursException[]>();
  if (storeIds.length === 0) return byStore;
  const today = taipeiDate(now);
  const rows = await db
    .select({
      storeId: storeHoursException.storeId,
      date: storeHoursException.date,
      intervals: storeHoursException.intervals,
      note: storeHoursException.note,
    })
    .from(storeHoursException)
    .where(
      and(
        inArray(storeHoursException.storeId, storeIds),
        gte(storeHoursException.date, isoDate(today)),
        lte(storeHoursException.date, isoDate(addDays(today, 8))),
      ),
    );
  for (const row of rows) {
    const list = byStore.get(row.storeId) ?? [];
    list.push({ date: row.date, intervals: row.intervals, note: row.note });
    byStore.set(row.storeId, list);
  }
  return byStore;
}

/** Text search over both languages of name, district and address, plus the postal code. */
function storeSearchCondition(q: string) {
  const pattern = containsPattern(q);
  const fields = [
    sql`${store.name}->>'zh-TW'`,
    sql`${store.name}->>'en'`,
    sql`${store.district}->>'zh-TW'`,
    sql`${store.district}->>'en'`,
    sql`${store.address}->>'zh-TW'`,
    sql`${store.address}->>'en'`,
    sql`${store.postalCode}`,
  ];
  return or(...fields.map((field) => sql`${field} ilike ${pattern}`));
}

/**
 * The published showrooms matching the filters, each with its open status at `now` (Taipei), in the
 * catalogue's order, or by distance when the visitor shared a position.
 */
export async function listStores(db: Database, filters: StoreFilters, now: Date): Promise<StoreListItem[]> {
  const day = isoDate(taipeiDate(now));
  const { rows, exceptions, photos } = await cachedCatalogue(
    db,
    `stores:list:${day}:${JSON.stringify([filters.city, filters.q])}`,
    async () => {
      const conditions = [eq(store.published, true)];
      if (filters.city) conditions.push(eq(store.city, filters.city));
      if (filters.q) {
        const search = storeSearchCondition(filters.q);
        if (search) conditions.push(search);
      }
      const rows = await db
        .select()
        .from(store)
        .where(and(...conditions))
        .orderBy(asc(store.sortOrder), asc(store.id));
      return withExceptionsAndPhotos(db, rows, now);
    },
  );
  let items: StoreListItem[] = rows.map((row, i) => ({
    ...row,
    photo: photos[i] ?? null,
    status: openStatus(now, row.weeklyHours, exceptions.get(row.id) ?? []),
    distanceKm: filters.near ? distanceKm(filters.near, { lat: row.latitude, lng: row.longitude }) : null,
  }));
  if (filters.openNow) items = items.filter((item) => item.status.open);
  if (filters.near) items.sort((a, b) => (a.distanceKm ?? 0) - (b.distanceKm ?? 0));
  return items;
}

/** Showroom rows with their hours exceptions of the next days and their first photo (what the cache keeps). */
async function withExceptionsAndPhotos(db: Database, rows: StoreRow[], now: Date) {
  const ids = rows.map((r) => r.id);
  const [exceptions, photos] = await Promise.all([
    exceptionsFor(db, ids, now),
    resolvePhotoLists(
      db,
      rows.map((r) => r.photos.slice(0, 1)),
    ),
  ]);
  return { rows, exceptions, photos: photos.map((list) => list[0] ?? null) };
}

/** Cities that have at least one published showroom (the filter offers only those). */
export async function citiesWithStores(db: Database): Promise<string[]> {
  return cachedCatalogue(db, "stores:cities", async () => {
    const rows = await db.selectDistinct({ city: store.city }).from(store).where(eq(store.published, true));
    return rows.map((r) => r.city);
  });
}

export async function featuredStores(db: Database, now: Date, limit = 4): Promise<StoreListItem[]> {
  const day = isoDate(taipeiDate(now));
  const { rows, exceptions, photos } = await cachedCatalogue(db, `stores:featured:${day}:${limit}`, async () => {
    const rows = await db
      .select()
      .from(store)
      .where(and(eq(store.published, true), eq(store.featured, true)))
      .orderBy(asc(store.sortOrder), asc(store.id))
      .limit(limit);
    return withExceptionsAndPhotos(db, rows, now);
  });
  return rows.map((row, i) => ({
    ...row,
    photo: photos[i] ?? null,
    status: openStatus(now, row.weeklyHours, exceptions.get(row.id) ?? []),
    distanceKm: null,
  }));
}

/** One published showroom with its week ahead and the published materials on display; null when unknown or unpublished. */
export async function getStore(db: Database, id: string, now: Date) {
  const day = isoDate(taipeiDate(now));
  const cached = await cachedCatalogue(db, `stores:one:${day}:${JSON.stringify(id)}`, async () => {
    const [row] = await db
      .select()
      .from(store)
      .where(and(eq(store.id, id), eq(store.published, true)))
      .limit(1);
    if (!row) return null;
    const [exceptions, photos, materials] = await Promise.all([
      exceptionsFor(db, [row.id], now),
      resolvePhotos(db, row.photos),
      displayedMaterials(db, row.id),
    ]);
    return { row, exceptions: exceptions.get(row.id) ?? [], photos, materials };
  });
  if (!cached) return null;
  const { row, exceptions, photos, materials } = cached;
  return {
    store: row,
    photos,
    status: openStatus(now, row.weeklyHours, exceptions),
    week: weekAhead(now, row.weeklyHours, exceptions),
    materials,
  };
}

/** The published materials a showroom displays, in the catalogue's order (its page and the console's preview). */
export async function displayedMaterials(db: Database, storeId: string) {
  return db
    .select({
      id: material.id,
      name: material.name,
      categoryId: material.categoryId,
      images: material.images,
      swatch: material.swatch,
    })
    .from(materialStore)
    .innerJoin(material, eq(material.id, materialStore.materialId))
    .where(and(eq(materialStore.storeId, storeId), eq(material.published, true)))
    .orderBy(asc(material.sortOrder), asc(material.id));
}

/** Ids and update times of every published showroom, for the sitemap. */
export async function storeSitemapEntries(db: Database) {
  return cachedCatalogue(db, "stores:sitemap", () =>
    db
      .select({ id: store.id, updatedAt: store.updatedAt })
      .from(store)
      .where(eq(store.published, true))
      .orderBy(asc(store.sortOrder), asc(store.id)),
  );
}
