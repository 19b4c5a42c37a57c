import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { authUser, material, materialFavourite, store } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromTaipeiWallClock } from "~/lib/time";
import { seedCatalog, seedCatalogIfEmpty } from "../demo";
import { isFavourite, listFavourites, removeFavourite, saveFavourite } from "../materials/favourites.server";
import { parseMaterialFilters } from "../materials/filters";
import { categoryCounts, getMaterial, listCategories, listMaterials } from "../materials/materials.server";
import { createMember } from "../members/members.server";
import { parseStoreFilters } from "../stores/filters";
import { citiesWithStores, getStore, listStores } from "../stores/stores.server";

let testDb: TestDatabase;
let handle: DatabaseHandle;

/** A Taipei wall-clock instant. */
const taipei = (date: string, time: string) => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  return fromTaipeiWallClock({ year, month, day }, hour, minute);
};
const WEDNESDAY_MORNING = taipei("2026-11-25", "10:15");
const SUNDAY_NIGHT = taipei("2026-11-29", "21:15");
const filters = (query: string) => parseStoreFilters(new URLSearchParams(query));

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "catalog", migrated: true });
  handle = await openDatabase(testDb.config);
  await handle.migrate();
  expect(await seedCatalogIfEmpty(handle.db)).toBe(true);
});

afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
});

describe("demo catalogue", () => {
  it("has at least 8 published showrooms and 40 published materials in 6+ categories", async () => {
    const stores = await listStores(handle.db, filters(""), WEDNESDAY_MORNING);
    expect(stores.length).toBeGreaterThanOrEqual(8);
    expect(new Set(stores.map((s) => s.city)).size).toBeGreaterThanOrEqual(6);
    const materials = await listMaterials(handle.db, { category: null, q: "" });
    expect(materials.length).toBeGreaterThanOrEqual(40);
    expect((await listCategories(handle.db)).length).toBeGreaterThanOrEqual(6);
    for (const m of materials) expect(m.images.length).toBeGreaterThanOrEqual(2);
  });

  it("seeds again without duplicating anything, and a non-empty database is left alone", async () => {
    const before = (await handle.db.select().from(material)).length;
    await seedCatalog(handle.db);
    expect((await handle.db.select().from(material)).length).toBe(before);
    expect(await seedCatalogIfEmpty(handle.db)).toBe(false);
  });
});

describe("store list", () => {
  it("filters by city", async () => {
    const taipeiStores = await listStores(handle.db, filters("city=taipei"), WEDNESDAY_MORNING);
    expect(taipeiStores.map((s) => s.id)).toEqual(["xinyi-flagship", "neihu-design-center"]);
    expect(await citiesWithStores(handle.db)).toContain("hualien");
  });

  it("ignores a bogus city and shows every store", async () => {
    const all = await listStores(handle.db, filters(""), WEDNESDAY_MORNING);
    const bogus = await listStores(handle.db, filters("city=atlantis&open=maybe"), WEDNESDAY_MORNING);
    expect(bogus.map((s) => s.id)).toEqual(all.map((s) => s.id));
  });

  it("shows only stores open on a Wednesday at 10:15 Taipei time, with the stock-taking exception", async () => {
    const open = await listStores(handle.db, filters("open=1"), WEDNESDAY_MORNING);
    // Opening at 10:00 on weekdays; Taichung opens at 14:00 that day (stock-taking); Hualien closes on Wednesdays.
    expect(open.map((s) => s.id).sort()).toEqual(["luodong", "neihu-design-center", "zhubei"]);
  });

  it("shows only the stores open late on a Sunday at 21:15", async () => {
    const open = await listStores(handle.db, filters("open=1"), SUNDAY_NIGHT);
    expect(open.map((s) => s.id).sort()).toEqual(["kaohsiung-art-museum", "xinyi-flagship"]);
  });

  it("searches names, districts and addresses in both languages, as plain text", async () => {
    expect((await listStores(handle.db, filters("q=信義"), WEDNESDAY_MORNING)).map((s) => s.id)).toEqual([
      "xinyi-flagship",
    ]);
    expect((await listStores(handle.db, filters("q=gushan"), WEDNESDAY_MORNING)).map((s) => s.id)).toEqual([
      "kaohsiung-art-museum",
    ]);
    for (const q of ["%", "_", "' or 1=1 --", "<script>alert(1)</script>", "\\"]) {
      expect(await listStores(handle.db, filters(`q=${encodeURIComponent(q)}`), WEDNESDAY_MORNING)).toEqual([]);
    }
  });

  it("orders by distance from the visitor", async () => {
    const near = await listStores(handle.db, filters("near=22.63,120.30"), WEDNESDAY_MORNING);
    expect(near[0]?.id).toBe("kaohsiung-art-museum");
    expect(near[0]?.distanceKm).toBeLessThan(5);
    expect(near.at(-1)?.city).toMatch(/taipei|yilan|hualien/);
  });

  it("never lists or opens an unpublished store", async () => {
    const all = await listStores(handle.db, filters(""), WEDNESDAY_MORNING);
    expect(all.map((s) => s.id)).not.toContain("dadaocheng-concept");
    expect(await getStore(handle.db, "dadaocheng-concept", WEDNESDAY_MORNING)).toBeNull();
    expect(await getStore(handle.db, "no-such-store", WEDNESDAY_MORNING)).toBeNull();
  });

  it("gives a store's week ahead with holiday hours and its published materials", async () => {
    const detail = await getStore(handle.db, "xinyi-flagship", taipei("2026-12-29", "12:00"));
    expect(detail?.week.map((d) => d.date)).toEqual([
      "2026-12-29",
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
      "2027-01-02",
      "2027-01-03",
      "2027-01-04",
    ]);
    expect(detail?.week[2]).toMatchObject({ exceptional: true, intervals: [{ open: "10:30", close: "18:00" }] });
    expect(detail?.materials.length).toBeGreaterThanOrEqual(40);
    expect(detail?.materials.map((m) => m.id)).not.toContain("discontinued-glass-mosaic");
  });
});

describe("materials", () => {
  it("filters by category and ignores an unknown one", async () => {
    const categories = (await listCategories(handle.db)).map((c) => c.id);
    const tiles = await listMaterials(
      handle.db,
      parseMaterialFilters(new URLSearchParams("category=tiles"), categories),
    );
    expect(tiles.length).toBe(6);
    expect(tiles.every((m) => m.categoryId === "tiles")).toBe(true);
    const unknown = parseMaterialFilters(new URLSearchParams("category=DROP%20TABLE"), categories);
    expect(unknown.category).toBeNull();
    expect((await categoryCounts(handle.db)).tiles).toBe(6);
  });

  it("searches as plain text", async () => {
    expect((await listMaterials(handle.db, { category: null, q: "橡木" })).map((m) => m.id)).toContain(
      "alishan-oak-engineered",
    );
    expect((await listMaterials(handle.db, { category: null, q: "walnut" })).length).toBeGreaterThanOrEqual(2);
    for (const q of ["%", "_", "'; drop table material; --", "<b>"]) {
      expect(await listMaterials(handle.db, { category: null, q })).toEqual([]);
    }
    expect((await handle.db.select().from(material)).length).toBeGreaterThan(40);
  });

  it("opens a material with its showrooms and related materials, never an unpublished one", async () => {
    const detail = await getMaterial(handle.db, "hualien-white-marble");
    expect(detail?.category.id).toBe("stone");
    expect(detail?.stores.map((s) => s.id)).toContain("hualien");
    expect(detail?.related.length).toBe(4);
    expect(detail?.related.every((m) => m.categoryId === "stone" && m.id !== "hualien-white-marble")).toBe(true);
    expect(await getMaterial(handle.db, "discontinued-glass-mosaic")).toBeNull();
    // A store that is unpublished later disappears from the material's showrooms.
    await handle.db.update(store).set({ published: false }).where(eq(store.id, "hualien"));
    try {
      expect((await getMaterial(handle.db, "hualien-white-marble"))?.stores.map((s) => s.id)).not.toContain("hualien");
    } finally {
      await handle.db.update(store).set({ published: true }).where(eq(store.id, "hualien"));
    }
  });
});

describe("favourites", () => {
  it("saves, lists, and removes a member's favourite; only published materials", async () => {
    await handle.db.insert(authUser).values({ id: "fav-user", name: "收藏者", email: "886900000001@phone.invalid" });
    const created = await createMember(handle.db, {
      userId: "fav-user",
      phoneNumber: "+886900000001",
      signupMethod: "phone",
      ip: null,
      profile: { nameZh: "收藏者", gender: "male", marketingSms: false, marketingEmail: false, marketingLine: false },
    });
    const member = created.id;
    expect(await saveFavourite(handle.db, member, "kyoto-mist-porcelain")).toBe(true);
    expect(await saveFavourite(handle.db, member, "kyoto-mist-porcelain")).toBe(true);
    expect(await saveFavourite(handle.db, member, "discontinued-glass-mosaic")).toBe(false);
    expect(await isFavourite(handle.db, member, "kyoto-mist-porcelain")).toBe(true);
    expect((await listFavourites(handle.db, member)).map((f) => f.id)).toEqual(["kyoto-mist-porcelain"]);
    expect(await listFavourites(handle.db, "00000000-0000-4000-8000-000000000000")).toEqual([]);
    await removeFavourite(handle.db, member, "kyoto-mist-porcelain");
    expect(await handle.db.select().from(materialFavourite)).toEqual([]);
  });
});
