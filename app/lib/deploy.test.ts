import { CHUNK_RELOAD_GUARD_MS } from "@platform/constants";
import { allowConsoleError } from "@platform/testing/fail-on-console-error";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * deploy.ts runs in the browser. These tests give it the few globals it touches (window,
 * sessionStorage, document) as small fakes; no DOM library is needed. The module keeps state
 * (an update, once seen, stays seen), so every test imports a fresh copy.
 */
type Deploy = typeof import("./deploy");

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    items,
  };
}

type Listener = (event: { preventDefault(): void }) => void;

function fakeWindow(manifestVersion?: string) {
  const listeners = new Map<string, Listener[]>();
  return {
    __reactRouterManifest: manifestVersion === undefined ? undefined : { version: manifestVersion },
    location: { reload: vi.fn() },
    addEventListener: (type: string, listener: Listener) =>
      listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    removeEventListener: (type: string, listener: Listener) =>
      listeners.set(
        type,
        (listeners.get(type) ?? []).filter((l) => l !== listener),
      ),
    dispatch(type: string) {
      const event = { preventDefault: vi.fn() };
      for (const listener of listeners.get(type) ?? []) listener(event);
      return event;
    },
    setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
    clearInterval: (id: ReturnType<typeof setInterval>) => clearInterval(id),
  };
}

function versionResponse(version: unknown, init?: ResponseInit) {
  return new Response(JSON.stringify({ version }), {
    status: 200,
    headers: { "content-type": "application/json" },
    ...init,
  });
}

async function freshDeploy(): Promise<Deploy> {
  vi.resetModules();
  return import("./deploy");
}

let storage: ReturnType<typeof memoryStorage>;
let win: ReturnType<typeof fakeWindow>;

beforeEach(() => {
  storage = memoryStorage();
  win = fakeWindow("build-1");
  vi.stubGlobal("sessionStorage", storage);
  vi.stubGlobal("window", win);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("claimChunkReload", () => {
  it("allows one reload, refuses for 10 s, then allows again", async () => {
    const { claimChunkReload } = await freshDeploy();
    const t0 = 1_700_000_000_000;
    expect(CHUNK_RELOAD_GUARD_MS).toBe(10_000);

    expect(claimChunkReload(t0)).toBe(true);
    expect(storage.items.get("chunk-reload-at")).toBe(String(t0));
    expect(claimChunkReload(t0 + 1)).toBe(false);
    expect(claimChunkReload(t0 + 9_999)).toBe(false);
    // A refused claim does not extend the window.
    expect(storage.items.get("chunk-reload-at")).toBe(String(t0));
    expect(claimChunkReload(t0 + 10_000)).toBe(true);
    expect(claimChunkReload(t0 + 10_001)).toBe(false);
    expect(claimChunkReload(t0 + 20_000)).toBe(true);
  });

  it("remembers the last reload across page loads (in sessionStorage)", async () => {
    const t0 = 1_700_000_000_000;
    expect((await freshDeploy()).claimChunkReload(t0)).toBe(true);
    // A new module instance is what the reloaded page runs.
    expect((await freshDeploy()).claimChunkReload(t0 + 5_000)).toBe(false);
  });

  it("uses the current time by default", async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const { claimChunkReload } = await freshDeploy();
    expect(claimChunkReload()).toBe(true);
    vi.advanceTimersByTime(9_000);
    expect(claimChunkReload()).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(claimChunkReload()).toBe(true);
  });

  it("never reloads automatically when storage is unavailable", async () => {
    vi.stubGlobal("sessionStorage", {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    });
    const { claimChunkReload } = await freshDeploy();
    expect(claimChunkReload(1_700_000_000_000)).toBe(false);
    expect(claimChunkReload(1_800_000_000_000)).toBe(false);
  });
});

describe("checkForNewBuild", () => {
  it("asks /api/version without caching and sees no update for the same build", async () => {
    const { checkForNewBuild, isUpdateAvailable, runningVersion } = await freshDeploy();
    const fetcher = vi.fn<typeof fetch>(async () => versionResponse("build-1"));
    expect(runningVersion()).toBe("build-1");
    expect(await checkForNewBuild(fetcher)).toBe(false);
    expect(isUpdateAvailable()).toBe(false);
    expect(fetcher).toHaveBeenCalledOnce();
    const [url, init] = fetcher.mock.calls[0] ?? [];
    expect(url).toBe("/api/version");
    expect(init?.cache).toBe("no-store");
  });

  it("reports a different live build, and keeps reporting it", async () => {
    const { checkForNewBuild, isUpdateAvailable } = await freshDeploy();
    expect(await checkForNewBuild(async () => versionResponse("build-2"))).toBe(true);
    expect(isUpdateAvailable()).toBe(true);
    // Even if a later answer comes from an old instance behind the load balancer.
    expect(await checkForNewBuild(async () => versionResponse("build-1"))).toBe(true);
    expect(await checkForNewBuild(async () => Promise.reject(new TypeError("offline")))).toBe(true);
  });

  it.each([
    ["the server answers 503", async () => versionResponse("build-2", { status: 503 })],
    ["the network fails", async () => Promise.reject(new TypeError("Failed to fetch"))],
    ["the body is not JSON", async () => new Response("<html>maintenance</html>", { status: 200 })],
    ["the answer has no version", async () => versionResponse(undefined)],
    ["the answer has an empty version", async () => versionResponse("")],
  ] as [string, typeof fetch][])("sees no update when %s", async (_label, fetcher) => {
    const { checkForNewBuild, isUpdateAvailable } = await freshDeploy();
    await expect(checkForNewBuild(fetcher)).resolves.toBe(false);
    expect(isUpdateAvailable()).toBe(false);
  });

  it("sees no update when the page has no manifest version", async () => {
    vi.stubGlobal("window", fakeWindow(undefined));
    const { checkForNewBuild, runningVersion } = await freshDeploy();
    expect(runningVersion()).toBeUndefined();
    expect(await checkForNewBuild(async () => versionResponse("build-2"))).toBe(false);
  });
});

describe("startBuildPolling", () => {
  it("checks every hour and when the tab becomes visible, until stopped", async () => {
    vi.useFakeTimers();
    const fetcher = vi.fn<typeof fetch>(async () => versionResponse("build-1"));
    vi.stubGlobal("fetch", fetcher);
    const doc = { visibilityState: "hidden", ...fakeWindow() };
    vi.stubGlobal("document", doc);
    const { startBuildPolling } = await freshDeploy();

    const stop = startBuildPolling();
    expect(fetcher).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000 - 1);
    expect(fetcher).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetcher).toHaveBeenCalledTimes(1);

    doc.dispatch("visibilitychange");
    expect(fetcher).toHaveBeenCalledTimes(1);
    doc.visibilityState = "visible";
    doc.dispatch("visibilitychange");
    expect(fetcher).toHaveBeenCalledTimes(2);

    stop();
    await vi.advanceTimersByTimeAsync(3 * 60 * 60 * 1000);
    doc.dispatch("visibilitychange");
    expect(fetcher).toHaveBeenCalledTimes(2);
  });
});

describe("installChunkReloadGuard", () => {
  it("reloads once on a failed preload, and lets the second failure within 10 s reach the error page", async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const { installChunkReloadGuard } = await freshDeploy();
    const originalConsoleError = console.error;
    try {
      installChunkReloadGuard();
      const first = win.dispatch("vite:preloadError");
      expect(first.preventDefault).toHaveBeenCalledOnce();
      expect(win.location.reload).toHaveBeenCalledOnce();

      vi.advanceTimersByTime(5_000);
      const second = win.dispatch("vite:preloadError");
      expect(second.preventDefault).not.toHaveBeenCalled();
      expect(win.location.reload).toHaveBeenCalledOnce();

      vi.advanceTimersByTime(5_000);
      win.dispatch("vite:preloadError");
      expect(win.location.reload).toHaveBeenCalledTimes(2);
    } finally {
      console.error = originalConsoleError;
    }
  });

  it("stops React Router's own module reload inside the guard window", async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    const spy = allowConsoleError();
    const { ChunkLoadError, installChunkReloadGuard } = await freshDeploy();
    const originalConsoleError = console.error;
    try {
      installChunkReloadGuard();
      const message = "Error loading route module `/assets/store-detail-abc.js`, reloading page...";

      expect(() => console.error(message)).not.toThrow();
      expect(() => console.error(message)).toThrow(ChunkLoadError);
      // Other errors pass through untouched, and every message is still printed.
      expect(() => console.error("something else")).not.toThrow();
      expect(spy.mock.calls.map((args) => args[0])).toEqual([message, message, "something else"]);
    } finally {
      console.error = originalConsoleError;
    }
  });
});
