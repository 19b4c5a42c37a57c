import type { CacheBus } from "./bus";
import { LruCache } from "./lru";

/**
 * One of an instance's caches (ADR 026): bounded, each entry with a time to live and the tags the
 * bus invalidates it by (`u:<user id>`, `m:<member id>`, …). A region answers only while its bus is
 * live, and stores a value only if no invalidation arrived since the read began (`ticket()`).
 *
 *   const ticket = region.ticket();          // before reading the database
 *   const value = await readTheDatabase();
 *   region.set(key, value, ticket, ["u:" + userId]);
 */
export class CacheRegion<V> {
  readonly #lru: LruCache<string, { value: V; tags: readonly string[] }>;
  readonly #byTag = new Map<string, Set<string>>();

  constructor(
    readonly bus: CacheBus,
    readonly name: string,
    options: {
      maxEntries: number;
      ttlMs: number;
      /** A payload this region empties itself on, besides `*` (e.g. `m:*`, `k`). */
      clearOn?: readonly string[];
    },
  ) {
    this.#lru = new LruCache(options.maxEntries, options.ttlMs, (key, entry) => {
      for (const tag of entry.tags) {
        const keys = this.#byTag.get(tag);
        keys?.delete(key);
        if (keys?.size === 0) this.#byTag.delete(tag);
      }
    });
    const clearOn = new Set(["*", ...(options.clearOn ?? [])]);
    bus.subscribe((payload) => {
      if (clearOn.has(payload)) this.clear();
      else this.invalidate(payload);
    });
  }

  get size(): number {
    return this.#lru.size;
  }

  get(key: string, now = Date.now()): V | undefined {
    if (!this.bus.live) return undefined;
    return this.#lru.get(key, now)?.value;
  }

  /** Taken before the database read whose result may be stored. */
  ticket(): number {
    return this.bus.epoch;
  }

  /** Stores the value unless the bus is down or anything was invalidated since `ticket`. */
  set(key: string, value: V, ticket: number, tags: readonly string[], ttlMs?: number, now = Date.now()): boolean {
    if (!this.bus.live || this.bus.epoch !== ticket) return false;
    if (ttlMs !== undefined && ttlMs <= 0) return false;
    this.#lru.set(key, { value, tags }, ttlMs, now);
    for (const tag of tags) {
      let keys = this.#byTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.#byTag.set(tag, keys);
      }
      keys.add(key);
    }
    return true;
  }

  delete(key: string): void {
    this.#lru.delete(key);
  }

  /** How many entries carry the tag. */
  tagged(tag: string): number {
    return this.#byTag.get(tag)?.size ?? 0;
  }

  /** Drops every entry carrying the tag. */
  invalidate(tag: string): void {
    const keys = this.#byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) this.#lru.delete(key);
  }

  clear(): void {
    this.#lru.clear();
  }
}

/**
 * The caches of one database handle. Domain code asks `cacheRegion(db, …)` for a region and gets
 * null when no bus is attached (scripts, tools, tests that open a database of their own): it then
 * reads the database every time, which is always correct.
 */
const buses = new WeakMap<object, { bus: CacheBus; regions: Map<string, CacheRegion<unknown>> }>();

export function attachCacheBus(db: object, bus: CacheBus): void {
  buses.set(db, { bus, regions: new Map() });
}

export function detachCacheBus(db: object): void {
  buses.delete(db);
}

export function cacheBusOf(db: object): CacheBus | null {
  return buses.get(db)?.bus ?? null;
}

export function cacheRegion<V>(
  db: object,
  name: string,
  options: ConstructorParameters<typeof CacheRegion<V>>[2],
): CacheRegion<V> | null {
  const attached = buses.get(db);
  if (!attached) return null;
  let region = attached.regions.get(name) as CacheRegion<V> | undefined;
  if (!region) {
    region = new CacheRegion<V>(attached.bus, name, options);
    attached.regions.set(name, region as CacheRegion<unknown>);
  }
  return region;
}
