import { BUILD_CHECK_INTERVAL_MS, CHUNK_RELOAD_GUARD_MS } from "@platform/constants";

/**
 * New deployments, seen from the browser.
 * - Every hour the page asks /api/version; when the live build differs from the one this page
 *   runs, the next navigation becomes a full page load (nothing the member typed is lost).
 * - A code chunk that fails to load reloads the page once; a second failure within 10 s shows the
 *   error page instead of reloading again, so a broken deploy can never trap the page in a loop.
 */
const RELOAD_KEY = "chunk-reload-at";

declare global {
  interface Window {
    __reactRouterManifest?: { version?: string };
  }
}

let updateAvailable = false;

export function runningVersion(): string | undefined {
  return window.__reactRouterManifest?.version;
}

export function isUpdateAvailable(): boolean {
  return updateAvailable;
}

export async function checkForNewBuild(fetcher: typeof fetch = fetch): Promise<boolean> {
  try {
    const res = await fetcher("/api/version", { cache: "no-store", headers: { accept: "application/json" } });
    if (!res.ok) return updateAvailable;
    const { version } = (await res.json()) as { version?: string };
    const current = runningVersion();
    if (version && current && version !== current) updateAvailable = true;
  } catch {
    // Offline or server restarting: try again at the next interval.
  }
  return updateAvailable;
}

export function startBuildPolling(intervalMs = BUILD_CHECK_INTERVAL_MS): () => void {
  const id = window.setInterval(() => void checkForNewBuild(), intervalMs);
  // Coming back to a tab that slept through the hour checks at once.
  const onVisible = () => {
    if (document.visibilityState === "visible") void checkForNewBuild();
  };
  document.addEventListener("visibilitychange", onVisible);
  return () => {
    window.clearInterval(id);
    document.removeEventListener("visibilitychange", onVisible);
  };
}

function lastReloadAt(): number {
  try {
    return Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
  } catch {
    return 0;
  }
}

/** True when a reload is allowed now (and records it); false inside the guard window. */
export function claimChunkReload(now = Date.now()): boolean {
  if (now - lastReloadAt() < CHUNK_RELOAD_GUARD_MS) return false;
  try {
    sessionStorage.setItem(RELOAD_KEY, String(now));
  } catch {
    // Without storage we cannot guard, so we do not reload automatically at all.
    return false;
  }
  return true;
}

export class ChunkLoadError extends Error {
  override name = "ChunkLoadError";
}

/**
 * Installs the guard. Two paths load code:
 * - Vite's preload helper (lazy components, route dependencies) fires `vite:preloadError`.
 * - React Router reloads by itself when a route module fails; it announces that with a
 *   console.error first, and throwing from there (inside the guard window) stops the reload;
 *   the router then has no page to render and the root shows the error page instead
 *   (ChunkLoadFailure in root.tsx).
 */
export function installChunkReloadGuard(): void {
  window.addEventListener("vite:preloadError", (event) => {
    if (claimChunkReload()) {
      event.preventDefault();
      window.location.reload();
    }
    // Inside the window the error propagates to the error boundary.
  });

  const originalError = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const first = args[0];
    if (typeof first === "string" && first.startsWith("Error loading route module")) {
      originalError(...args);
      if (!claimChunkReload()) throw new ChunkLoadError(first);
      return;
    }
    originalError(...args);
  };
}
