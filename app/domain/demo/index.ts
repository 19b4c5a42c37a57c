import type { Database } from "@platform/db/client";
import {
  material,
  materialCategory,
  materialSampleStore,
  materialStore,
  store,
  storeAppointmentKind,
  storeHoursException,
} from "@platform/db/schema";
import type { CatalogImage, LocalizedText } from "@platform/db/schema/catalog";
import { count, getTableColumns, getTableName, inArray, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { seedAppointmentKinds } from "./appointments";
import { SEED_CATEGORIES, SEED_MATERIALS, type SeedMaterial } from "./materials";
import { seedDemoRewards } from "./member-history";
import { mediaPath, shade } from "./pictures/textures";
import { SEED_EXCEPTIONS, SEED_STORES, storePhotos } from "./stores";

/**
 * The demo catalogue shipped with the repo. `seedCatalog` writes it (insert or update by id, so it
 * can run any number of times and refreshes the demo rows without touching other rows);
 * `seedCatalogIfEmpty` does so only on a database without any store or material, which is what the
 * embedded default does on its first start.
 */
const FLAGSHIPS = ["xinyi-flagship", "taichung-flagship", "kaohsiung-art-museum"];

/** Flagships show everything; every other published showroom shows a stable share of the catalogue. */
export function storesDisplaying(materialIndex: number, categoryId: string): string[] {
  const others = SEED_STORES.filter((s) => s.published && !FLAGSHIPS.includes(s.id)).map((s) => s.id);
  const picked = others.filter((_, i) => (i + materialIndex) % 3 === 0);
  // Regional specialities (see the stores' summaries).
  const speciality: Record<string, string[]> = {
    bathroom: ["banqiao"],
    hardware: ["banqiao"],
    paint: ["taoyuan", "luodong"],
    "wood-flooring": ["taoyuan", "luodong"],
    stone: ["hualien"],
    countertops: ["tainan"],
    tiles: ["tainan", "neihu-design-center"],
  };
  return [...new Set([...FLAGSHIPS, ...picked, ...(speciality[categoryId] ?? [])])];
}

function materialImages(m: SeedMaterial, index: number): CatalogImage[] {
  const name = m.name;
  const alt = (zh: string, en: string): LocalizedText => ({ "zh-TW": `${name["zh-TW"]}${zh}`, en: `${name.en}${en}` });
  const base = m.texture.colours[0] ?? "d8d2c8";
  const second = m.texture.colours[1] ?? shade(`#${base}`, -0.3).slice(1);
  const images: CatalogImage[] = [
    {
      src: mediaPath(m.texture.kind, m.texture.colours, index),
      alt: alt("：正面", ": front view"),
      width: 800,
      height: 600,
    },
  ];
  if (m.detail) {
    images.push({
      src: mediaPath(m.detail.kind, m.detail.colours, index + 50),
      alt: alt("：細節與質地", ": close-up of the surface"),
      width: 800,
      height: 600,
    });
  }
  images.push({
    src: mediaPath("showroom", ["ece5da", second, "5e574e", base], index % 9),
    alt: alt("：展間實景示意", ": as shown in a showroom"),
    width: 800,
    height: 600,
  });
  return images;
}

/** `set` of an upsert that takes every column but the keys from the proposed row (`excluded`). */
function fromExcluded(table: PgTable, keys: string[]): Record<string, SQL> {
  const set: Record<string, SQL> = {};
  for (const [property, column] of Object.entries(getTableColumns(table))) {
    if (keys.includes(property) || property === "createdAt") continue;
    // A re-seed is a change like any other: an edit form loaded before it must not save over it (ADR 033).
    set[property] =
      property === "version" ? sql.raw(`"${getTableName(table)}"."version" + 1`) : sql.raw(`excluded."${column.name}"`);
  }
  return set;
}

export async function seedCatalog(db: Database): Promise<{ stores: number; materials: number; categories: number }> {
  // One statement per table (upserts by id): a few milliseconds even on the embedded database.
  await db.transaction(async (tx) => {
    const now = new Date();
    await tx
      .insert(materialCategory)
      .values(
        SEED_CATEGORIES.map((c, i) => ({
          id: c.id,
          name: c.name,
          summary: c.summary,
          image: {
            src: mediaPath(c.texture.kind, c.texture.colours, c.texture.seed),
            alt: c.name,
            width: 800,
            height: 600,
          },
          sortOrder: i,
          published: true,
        })),
      )
      .onConflictDoUpdate({ target: materialCategory.id, set: fromExcluded(materialCategory, ["id"]) });
    await tx
      .insert(store)
      .values(
        SEED_STORES.map(({ palette: _palette, ...fields }, i) => ({
          ...fields,
          photos: storePhotos(SEED_STORES[i] as (typeof SEED_STORES)[number]),
          sortOrder: i,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({ target: store.id, set: fromExcluded(store, ["id"]) });
    const storeIds = SEED_STORES.map((s) => s.id);
    await tx
      .insert(storeHoursException)
      .values(
        SEED_EXCEPTIONS.flatMap((e) =>
          (e.storeId === "*" ? storeIds : [e.storeId]).map((storeId) => ({
            storeId,
            date: e.date,
            intervals: e.intervals,
            note: e.note,
          })),
        ),
      )
      .onConflictDoUpdate({
        target: [storeHoursException.storeId, storeHoursException.date],
        set: fromExcluded(storeHoursException, ["storeId", "date"]),
      });
    await tx
      .insert(material)
      .values(
        SEED_MATERIALS.map(({ texture, detail: _detail, ...fields }, i) => ({
          ...fields,
          swatch: `#${texture.colours[0] ?? "d8d2c8"}`,
          images: materialImages(SEED_MATERIALS[i] as SeedMaterial, i),
          featured: fields.featured ?? false,
          published: fields.published ?? true,
          sortOrder: i,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({ target: material.id, set: fromExcluded(material, ["id"]) });
    const materialIds = SEED_MATERIALS.map((m) => m.id);
    await tx.delete(materialStore).where(inArray(materialStore.materialId, materialIds));
    await tx
      .insert(materialStore)
      .values(
        SEED_MATERIALS.flatMap((m, i) =>
          storesDisplaying(i, m.categoryId).map((storeId) => ({ materialId: m.id, storeId })),
        ),
      );
    // Samples to lend (issue 37 part 3): at every store displaying it, for two materials in three.
    await tx.delete(materialSampleStore).where(inArray(materialSampleStore.materialId, materialIds));
    const samples = SEED_MATERIALS.flatMap((m, i) =>
      i % 3 === 2 ? [] : storesDisplaying(i, m.categoryId).map((storeId) => ({ materialId: m.id, storeId })),
    );
    if (samples.length > 0) await tx.insert(materialSampleStore).values(samples);
    // Appointment settings (issue 37): kept as the console left them once they exist.
    await tx.insert(storeAppointmentKind).values(seedAppointmentKinds()).onConflictDoNothing();
  });
  await seedDemoRewards(db);
  // Published rows only: the demo also holds one unpublished showroom and one withdrawn material.
  return {
    stores: SEED_STORES.filter((s) => s.published).length,
    materials: SEED_MATERIALS.filter((m) => m.published !== false).length,
    categories: SEED_CATEGORIES.length,
  };
}

/** Seeds only a catalogue that has neither stores nor materials (first start of a fresh database). */
export async function seedCatalogIfEmpty(db: Database): Promise<boolean> {
  const [stores] = await db.select({ n: count() }).from(store);
  const [materials] = await db.select({ n: count() }).from(material);
  if (Number(stores?.n ?? 0) > 0 || Number(materials?.n ?? 0) > 0) return false;
  await seedCatalog(db);
  return true;
}
