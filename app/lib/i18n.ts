import { useMemo } from "react";
import { useRouteLoaderData } from "react-router";
import type { MessageKey, Messages } from "~/locales/zh-TW";

export const LOCALES = ["zh-TW", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "zh-TW";
export const LOCALE_COOKIE = "locale";

export const LOCALE_NAMES: Record<Locale, string> = { "zh-TW": "繁體中文", en: "English" };

/** The value of <html lang> for each locale. */
export const HTML_LANG: Record<Locale, string> = { "zh-TW": "zh-Hant-TW", en: "en" };

export type { MessageKey, Messages };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Reads the locale from the cookie header; anything unknown falls back to zh-TW. */
export function localeFromCookieHeader(cookieHeader: string | null): Locale {
  if (!cookieHeader) return DEFAULT_LOCALE;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === LOCALE_COOKIE) {
      const value = decodeURIComponent(rest.join("="));
      return isLocale(value) ? value : DEFAULT_LOCALE;
    }
  }
  return DEFAULT_LOCALE;
}

export function localeCookie(locale: Locale, secure: boolean): string {
  const oneYear = 60 * 60 * 24 * 365;
  return `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; Path=/; Max-Age=${oneYear}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export type TranslateValues = Record<string, string | number>;

export function format(template: string, values?: TranslateValues): string {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

export type Translate = (key: MessageKey, values?: TranslateValues) => string;

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A whole number grouped the locale's way (11,425). One Intl.NumberFormat per locale: V8 builds a
 * new formatter on every `toLocaleString(locale)` (~12 µs each), and the member center formats
 * a few dozen numbers per render.
 */
export function formatNumber(n: number, locale: string): string {
  let formatter = numberFormats.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale);
    numberFormats.set(locale, formatter);
  }
  return formatter.format(n);
}

export function translator(messages: Partial<Messages>): Translate {
  return (key, values) => format(messages[key] ?? FALLBACK[key] ?? key, values);
}

/**
 * The shell catalog reaches the browser as a file (`shellCatalog`, only the active locale's).
 * These few strings cover the case where the root itself failed and has no data.
 */
const FALLBACK: Partial<Messages> = {
  "brand.name": "漢生活",
  "error.notFoundTitle": "找不到頁面",
  "error.notFoundLocal": "找不到您要的頁面：{path}",
  "error.notFound": "Page not found: {path}",
  "error.serverTitle": "系統發生錯誤",
  "error.serverLocal": "伺服器發生錯誤，我們已記錄這個問題。",
  "error.server": "Internal Server Error",
  "error.serverHint": "請稍後再試。如果問題持續發生，請與我們聯絡。",
  "common.backHome": "回到首頁",
  "common.reload": "重新整理",
  "common.loading": "請稍候...",
};

/**
 * Message catalogs are files of their own, named by their content's hash and cached by the browser for a year
 * (issue 17, ADR 031):
 * - the shell catalog, the messages every page uses: `/i18n/<locale>.<hash>.json`, named by the root loader's
 *   `catalog`;
 * - a route's namespace (`routeMessages` in i18n.server.ts): `/i18n/<locale>/<prefix>+<prefix>.<hash>.json`,
 *   named by the route's `messages: { catalog }`.
 * A page's HTML therefore carries paths, not catalogs. The server provides every catalog it names to this module
 * under its path, so it renders without a fetch. The browser loads a page's catalogs before hydrating
 * (entry.client.tsx, from the preload links the root renders), and the root's `clientMiddleware` loads those of
 * new loader data before a navigation shows it.
 */
const catalogs = new Map<string, Partial<Messages>>();
const loading = new Map<string, Promise<void>>();
let lastShell: Partial<Messages> | undefined;

/** Where the catalog files are served (server/app.ts). */
export const CATALOG_PATH_PREFIX = "/i18n/";

/** A route's messages in its loader data: the path of their catalog file. */
export type CatalogRef = { readonly catalog: string };

const isShellPath = (path: string) => !path.slice(CATALOG_PATH_PREFIX.length).includes("/");

export function provideCatalog(path: string, messages: Partial<Messages>): void {
  catalogs.set(path, messages);
  if (isShellPath(path)) lastShell = messages;
}

/**
 * The shell messages of the catalog at `path`. A path not loaded (only if loading it failed) gets the shell
 * catalog loaded last, so the page keeps its texts rather than showing keys.
 */
export function shellCatalog(path: string | undefined): Partial<Messages> {
  return (path === undefined ? undefined : catalogs.get(path)) ?? lastShell ?? FALLBACK;
}

/** A route's messages: its own object, or the catalog its loader named. */
export function routeCatalog(messages: Partial<Messages> | CatalogRef): Partial<Messages> {
  return isCatalogRef(messages) ? (catalogs.get(messages.catalog) ?? {}) : messages;
}

function isCatalogRef(value: unknown): value is CatalogRef {
  return typeof value === "object" && value !== null && typeof (value as CatalogRef).catalog === "string";
}

/**
 * The catalog paths a route's loader (or action) data names: its own `catalog` (the root's shell catalog) and
 * the `catalog` of its top-level values (`messages`, `previewMessages`, an action's `result.messages`…).
 */
export function catalogPaths(data: unknown): string[] {
  if (typeof data !== "object" || data === null) return [];
  const paths: string[] = [];
  if (isCatalogRef(data)) paths.push(data.catalog);
  for (const value of Object.values(data)) {
    if (isCatalogRef(value)) paths.push(value.catalog);
    else if (typeof value === "object" && value !== null && !Array.isArray(value))
      for (const inner of Object.values(value)) if (isCatalogRef(inner)) paths.push(inner.catalog);
  }
  return paths;
}

/** Loads the catalog at `path` once (the page's `<link rel="preload">` has usually fetched it already). */
export function loadCatalog(path: string, fetcher: typeof fetch = fetch): Promise<void> {
  if (catalogs.has(path)) return Promise.resolve();
  let pending = loading.get(path);
  if (!pending) {
    pending = fetcher(path)
      .then(async (res) => {
        if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
        provideCatalog(path, (await res.json()) as Partial<Messages>);
      })
      .finally(() => loading.delete(path));
    loading.set(path, pending);
  }
  return pending;
}

/** The `<link rel="preload">` of a catalog the page needs (entry.client reads their paths before hydrating). */
export const CATALOG_LINK_ATTRIBUTE = "data-catalog";

type RootData = { locale: Locale; catalog: string } | undefined;

/** The active locale (from the root loader); zh-TW when the root has no data (e.g. a root error). */
export function useLocale(): Locale {
  const data = useRouteLoaderData("root") as RootData;
  return data?.locale ?? DEFAULT_LOCALE;
}

/** Translate with the root's messages, plus a route's own namespace when it loads one. */
export function useT(routeMessagesOrRef?: Partial<Messages> | CatalogRef): Translate {
  const catalog = (useRouteLoaderData("root") as RootData)?.catalog;
  return useMemo(() => {
    const messages = catalog === undefined ? FALLBACK : shellCatalog(catalog);
    if (!routeMessagesOrRef) return translator(messages);
    const routeMessages = routeCatalog(routeMessagesOrRef);
    // The route's namespace first, then the shell: no merged copy of the catalog per component (on the
    // server every component's useMemo runs on every render).
    return (key, values) => format(routeMessages[key] ?? messages[key] ?? FALLBACK[key] ?? key, values);
  }, [catalog, routeMessagesOrRef]);
}
