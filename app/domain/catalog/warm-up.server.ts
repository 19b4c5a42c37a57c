import type { Database } from "@platform/db/client";
import { featuredMaterials, getMaterial, listCategories, listMaterials } from "../materials/materials.server";
import { parseStoreFilters } from "../stores/filters";
import { featuredStores, getStore, listStores } from "../stores/stores.server";

/**
 * Runs each catalogue query once before the instance reports ready, so the first visitors do not pay
 * for cold query paths (the embedded database compiles and caches its plans on first use) and cold
 * code. Failures are only logged by the caller: an empty catalogue is a valid catalogue.
 */
export async function warmUpCatalogue(db: Database): Promise<void> {
  const now = new Date();
  const stores = await listStores(db, parseStoreFilters(new URLSearchParams("q=warm")), now);
  await listStores(db, parseStoreFilters(new URLSearchParams()), now);
  await featuredStores(db, now);
  await getStore(db, stores[0]?.id ?? "warm-up", now);
  const categories = await listCategories(db);
  const materials = await listMaterials(db, { category: categories[0]?.id ?? null, q: "" });
  await listMaterials(db, { category: null, q: "warm" });
  await featuredMaterials(db);
  await getMaterial(db, materials[0]?.id ?? "warm-up");
}
