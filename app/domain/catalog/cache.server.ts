import { cacheRegion } from "@platform/cache/shared-cache";
import type { Database } from "@platform/db/client";

/**
 * The catalogue's reads, kept per instance (ADR 031, "Catalogue data"): showrooms, materials,
 * categories and the photos they show change a few times a day, but a public page rendered without
 * the render cache (a new query string, a signed-in visitor, the first request after a publish) read
 * them again: five PGlite queries were a third of the CPU of rendering `/`.
 *
 * Invalidation is the cache bus's (ADR 026): the catalogue tables' triggers send `c` (showrooms' hours
 * exceptions, categories, which materials a showroom displays, uploaded images) or `m:*` (showrooms,
 * materials, image edits) in the transaction of the change, and every instance empties this region
 * when it hears either. While the bus is down the region neither answers nor stores. What depends on
 * the time of the request (open now, the week ahead, distance) is computed from the cached rows on
 * every request; reads that depend on the Taipei day carry the day in their key.
 *
 * Values are shared by every request of the instance: callers must not mutate them.
 */
export const CATALOGUE_CACHE = {
  maxEntries: 500,
  ttlMs: 10 * 60_000,
  clearOn: ["c", "m:*"],
} as const;

export async function cachedCatalogue<V>(db: Database, key: string, read: () => Promise<V>): Promise<V> {
  const region = cacheRegion<V>(db, "catalogue", CATALOGUE_CACHE);
  if (!region) return read();
  const hit = region.get(key);
  if (hit !== undefined) return hit;
  const ticket = region.ticket();
  const value = await read();
  // An unknown id is not kept: probing random addresses must not push the catalogue out.
  if (value !== null) region.set(key, value, ticket, []);
  return value;
}
