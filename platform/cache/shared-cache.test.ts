import { describe, expect, it } from "vitest";
import type { CacheBus } from "./bus";
import { LruCache } from "./lru";
import { CacheRegion } from "./shared-cache";

/** A bus driven by hand: `send` is a notification, `live` the listener's state. */
function fakeBus() {
  const listeners = new Set<(payload: string) => void>();
  const bus = {
    driver: "postgres" as const,
    live: true,
    epoch: 0,
    backendPid: null,
    subscribe(listener: (payload: string) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    until: async () => {},
    heard: async () => {},
    fence: async () => {},
    close: async () => {},
    send(payload: string) {
      bus.epoch++;
      for (const listener of listeners) listener(payload);
    },
  };
  return bus satisfies CacheBus & { send(payload: string): void };
}

describe("LruCache", () => {
  it("evicts the least recently read entry and expires entries after their time to live", () => {
    const removed: string[] = [];
    const lru = new LruCache<string, number>(2, 1_000, (key) => removed.push(key));
    lru.set("a", 1, undefined, 0);
    lru.set("b", 2, undefined, 0);
    expect(lru.get("a", 10)).toBe(1);
    lru.set("c", 3, undefined, 10);
    expect(lru.get("b", 10)).toBeUndefined();
    expect(removed).toEqual(["b"]);
    expect(lru.get("a", 999)).toBe(1);
    expect(lru.get("a", 1_000)).toBeUndefined();
    lru.set("d", 4, 50, 0);
    expect(lru.get("d", 49)).toBe(4);
    expect(lru.get("d", 50)).toBeUndefined();
  });
});

describe("CacheRegion", () => {
  const options = { maxEntries: 10, ttlMs: 60_000, clearOn: ["u:*"] };

  it("drops the entries of a tag, and everything on its clear payloads", () => {
    const bus = fakeBus();
    const region = new CacheRegion<string>(bus, "test", options);
    region.set("s1", "one", region.ticket(), ["u:1"]);
    region.set("s2", "two", region.ticket(), ["u:2"]);
    bus.send("u:1");
    expect(region.get("s1")).toBeUndefined();
    expect(region.get("s2")).toBe("two");
    expect(region.tagged("u:1")).toBe(0);
    bus.send("u:*");
    expect(region.size).toBe(0);
  });

  it("stores nothing read before an invalidation, and answers nothing while the bus is down", () => {
    const bus = fakeBus();
    const region = new CacheRegion<string>(bus, "test", options);
    const ticket = region.ticket();
    bus.send("u:9");
    expect(region.set("s1", "stale", ticket, ["u:1"])).toBe(false);
    expect(region.get("s1")).toBeUndefined();
    expect(region.set("s1", "fresh", region.ticket(), ["u:1"])).toBe(true);
    bus.live = false;
    expect(region.get("s1")).toBeUndefined();
    expect(region.set("s2", "x", region.ticket(), [])).toBe(false);
    bus.send("*");
    bus.live = true;
    expect(region.get("s1")).toBeUndefined();
  });
});
