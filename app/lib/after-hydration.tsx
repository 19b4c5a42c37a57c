import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/**
 * A component whose code the browser loads after the page is up (issue 17: a page's JS before
 * interaction ≤ 120 kB). `afterHydration(() => import("./wallet"), "CouponWallet")`, rendered inside
 * a `<Suspense>`:
 *
 * - On the server the module is loaded when this one is, so the component renders in place and
 *   synchronously, like any other: the HTML is complete and nothing streams in later.
 * - In the browser, hydration reaches the boundary before the code is there. React keeps the server's
 *   HTML as it is (visible, its links working) and hydrates the boundary when the chunk arrives, at
 *   once if it is clicked (React replays the click). Later renders use the loaded code.
 *
 * For sections below the first screen, or whose buttons are not the first thing a person reaches for.
 */
// biome-ignore lint/suspicious/noExplicitAny: any props, as React's own lazy()
export function afterHydration<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  const pick = (module: M) => ({ default: module[name] });
  if (!import.meta.env.SSR) return lazy(() => load().then(pick));
  let loaded: { default: M[K] } | undefined;
  const loading = load().then((module) => {
    loaded = pick(module);
    return loaded;
  });
  // A thenable that calls back at once: React's lazy then resolves within the same render. Only a
  // request served before the module has loaded (the first, right after start) waits for it.
  // biome-ignore lint/suspicious/noThenProperty: a thenable is the point (React's lazy accepts one)
  const ready = { then: (resolve: (module: { default: M[K] }) => void) => resolve(loaded as { default: M[K] }) };
  return lazy(() => (loaded ? (ready as unknown as Promise<{ default: M[K] }>) : loading));
}
