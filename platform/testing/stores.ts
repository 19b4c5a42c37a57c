import type { Database } from "@platform/db/client";
import { store } from "@platform/db/schema";

/**
 * Stores for tests that need one (API keys belong to a store that exists): an unpublished showroom
 * per id, with placeholder details. Existing ids are left as they are.
 */
export async function insertTestStores(db: Database, ids: string[]): Promise<void> {
  const text = (value: string) => ({ "zh-TW": value, en: value });
  await db
    .insert(store)
    .values(
      ids.map((id) => ({
        id,
        name: text(`測試門市 ${id}`),
        summary: text("test store"),
        city: "taipei",
        district: text("信義區"),
        postalCode: "110",
        address: text("測試路 1 號"),
        phone: "02-2345-0000",
        email: `${id.toLowerCase()}@stores.example`,
        latitude: 25.033,
        longitude: 121.565,
        weeklyHours: [[], [], [], [], [], [], []],
      })),
    )
    .onConflictDoNothing();
}
