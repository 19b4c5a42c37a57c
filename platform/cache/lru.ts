/**
 * A bounded map with a time to live per entry: the least recently read entry goes first when full.
 * A Map keeps insertion order, so re-inserting on every read makes its first key the least recent.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    readonly maxEntries: number,
    readonly ttlMs: number,
    /** Told about every entry that leaves the cache (expired, evicted, deleted or cleared). */
    private readonly onRemove?: (key: K, value: V) => void,
  ) {
    if (!(maxEntries > 0) || !(ttlMs > 0)) throw new Error("LruCache needs a positive size and time to live");
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= now) {
      this.onRemove?.(key, entry.value);
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores a value for at most the cache's time to live (less when `ttlMs` is shorter). */
  set(key: K, value: V, ttlMs = this.ttlMs, now = Date.now()): void {
    this.delete(key);
    this.#entries.set(key, { value, expiresAt: now + Math.min(ttlMs, this.ttlMs) });
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as K;
      this.delete(oldest);
    }
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    this.onRemove?.(key, entry.value);
    return true;
  }

  clear(): void {
    const entries = [...this.#entries];
    this.#entries.clear();
    if (this.onRemove) for (const [key, entry] of entries) this.onRemove(key, entry.value);
  }

  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }
}
