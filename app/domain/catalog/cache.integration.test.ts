import { type CacheBus, startCacheBus } from "@platform/cache/bus";
import { attachCacheBus, cacheRegion, detachCacheBus } from "@platform/cache/shared-cache";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { material, materialCategory, materialStore, store, storeHoursException } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromTaipeiWallClock } from "~/lib/time";
import { seedCatalogIfEmpty } from "../demo";
import { getMaterial, listCategories, listMaterials } from "../materials/materials.server";
import { parseStoreFilters } from "../stores/filters";
import { featuredStores, getStore, listStores } from "../stores/stores.server";
import { CATALOGUE_CACHE } from "./cache.server";

/**
 * The catalogue's cache (ADR 031): it answers repeated reads, and every change to a table a read
 * joins empties it through the cache bus before the next read (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL: there the fence waits for the notification to come back).
 */
let testDb: TestDatabase;
let handle: DatabaseHandle;
let bus: CacheBus;

const WEDNESDAY_AFTERNOON = fromTaipeiWallClock({ year: 2026, month: 11, day: 25 }, 15, 0);
const region = () => cacheRegion(handle.db, "catalogue", CATALOGUE_CACHE);

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "catalogue_cache", migrated: true });
  handle = await openDatabase(testDb.config);
  await handle.migrate();
  expect(await seedCatalogIfEmpty(handle.db)).toBe(true);
  bus = await startCacheBus(handle.connection);
  await bus.until(true);
  attachCacheBus(handle.db, bus);
}, 120_000);

afterAll(async () => {
  if (handle) detachCacheBus(handle.db);
  await bus?.close();
  await handle?.close();
  await testDb?.drop();
});

/** A write, then the fence: on PostgreSQL the notification has come back once it resolves. */
async function change(write: () => Promise<unknown>) {
  await write();
  await bus.fence();
}

describe("catalogue cache", () => {
  it("answers a repeated read from memory, and is emptied by an hours exception", async () => {
    region()?.clear();
    const [first] = await featuredStores(handle.db, WEDNESDAY_AFTERNOON, 3);
    if (!first) throw new Error("the demo catalogue has featured showrooms");
    expect(first.status.open).toBe(true);
    expect(region()?.size).toBe(1);
    // Same day, same key: no new entry, the same rows.
    const again = await featuredStores(handle.db, WEDNESDAY_AFTERNOON, 3);
    expect(region()?.size).toBe(1);
    expect(again[0]?.id).toBe(first.id);

    await change(() =>
      handle.db.insert(storeHoursException).values({ storeId: first.id, date: "2026-11-25", intervals: [] }),
    );
    expect(region()?.size).toBe(0);
    const [after] = await featuredStores(handle.db, WEDNESDAY_AFTERNOON, 3);
    expect(after?.status.open).toBe(false);
    const detail = await getStore(handle.db, first.id, WEDNESDAY_AFTERNOON);
    expect(detail?.status.open).toBe(false);

    await change(() =>
      handle.db
        .delete(storeHoursException)
        .where(and(eq(storeHoursException.storeId, first.id), eq(storeHoursException.date, "2026-11-25"))),
    );
    expect((await getStore(handle.db, first.id, WEDNESDAY_AFTERNOON))?.status.open).toBe(true);
  });

  it("computes the open status per request from the cached rows", async () => {
    const filters = parseStoreFilters(new URLSearchParams());
    const afternoon = await listStores(handle.db, filters, WEDNESDAY_AFTERNOON);
    const size = region()?.size;
    // 23:30 the same Taipei day: the same entry, every showroom closed.
    const night = await listStores(handle.db, filters, fromTaipeiWallClock({ year: 2026, month: 11, day: 25 }, 23, 30));
    expect(region()?.size).toBe(size);
    expect(afternoon.some((s) => s.status.open)).toBe(true);
    expect(night.every((s) => !s.status.open)).toBe(true);
  });

  it("is emptied by a category, a material, and what a showroom displays", async () => {
    const [category] = await listCategories(handle.db);
    if (!category) throw new Error("the demo catalogue has categories");
    await change(() =>
      handle.db
        .update(materialCategory)
        .set({ name: { "zh-TW": "新名稱", en: "Renamed" } })
        .where(eq(materialCategory.id, category.id)),
    );
    expect((await listCategories(handle.db))[0]?.name.en).toBe("Renamed");

    const [card] = await listMaterials(handle.db, { category: null, q: "" });
    if (!card) throw new Error("the demo catalogue has materials");
    expect(await getMaterial(handle.db, card.id)).not.toBeNull();
    await change(() => handle.db.update(material).set({ published: false }).where(eq(material.id, card.id)));
    expect(await getMaterial(handle.db, card.id)).toBeNull();
    expect((await listMaterials(handle.db, { category: null, q: "" })).map((m) => m.id)).not.toContain(card.id);
    await change(() => handle.db.update(material).set({ published: true }).where(eq(material.id, card.id)));

    const [shown] = await handle.db.select().from(materialStore).limit(1);
    if (!shown) throw new Error("the demo catalogue shows materials in showrooms");
    const before = await getStore(handle.db, shown.storeId, WEDNESDAY_AFTERNOON);
    expect(before?.materials.map((m) => m.id)).toContain(shown.materialId);
    await change(() =>
      handle.db
        .delete(materialStore)
        .where(and(eq(materialStore.storeId, shown.storeId), eq(materialStore.materialId, shown.materialId))),
    );
    const after = await getStore(handle.db, shown.storeId, WEDNESDAY_AFTERNOON);
    expect(after?.materials.map((m) => m.id)).not.toContain(shown.materialId);

    await change(() => handle.db.update(store).set({ published: false }).where(eq(store.id, shown.storeId)));
    expect(await getStore(handle.db, shown.storeId, WEDNESDAY_AFTERNOON)).toBeNull();
  });

  it("keeps no unknown id", async () => {
    region()?.clear();
    expect(await getMaterial(handle.db, "no-such-material")).toBeNull();
    expect(await getStore(handle.db, "no-such-store", WEDNESDAY_AFTERNOON)).toBeNull();
    expect(region()?.size).toBe(0);
  });
});
