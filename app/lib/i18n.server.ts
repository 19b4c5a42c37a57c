import { createHash } from "node:crypto";
import { en } from "~/locales/en";
import { type Messages, zhTW } from "~/locales/zh-TW";
import {
  CATALOG_PATH_PREFIX,
  type CatalogRef,
  type Locale,
  localeFromCookieHeader,
  provideCatalog,
  translator,
} from "./i18n";

const catalogs: Record<Locale, Messages> = { "zh-TW": zhTW, en };

/**
 * Namespaces only one route uses: that route's loader sends them (`routeMessages`), so the root
 * does not ship them with every page.
 */
export const ROUTE_NAMESPACES = [
  "testCrud.",
  "devOutbox.",
  "catalog.",
  "linkedLogins.",
  "lineSignup.",
  "account.",
  "member.center.",
  "loyalty.error.",
  "console.",
  "unsubscribe.",
  // Samples (issue 37 part 3): the member's samples pages.
  "samples.",
  "appointments.",
  // Referrals (issue 38, ADR 053): the link's landing page and the invite page.
  "referrals.",
  // Trade accounts (issue 38 part 2, ADR 057): the member's trade page.
  "trade.",
] as const;
type RouteNamespace = (typeof ROUTE_NAMESPACES)[number];

/** Namespaces the browser never needs: e-mail texts are rendered on the server. */
export const SERVER_ONLY_NAMESPACES = ["email.", "notify."] as const;

/**
 * Namespaces a lazily loaded chunk carries itself: the LINE features inside LINE (`liff.`, ADR 035) come with
 * the LIFF features chunk, so no loader sends them and the pages of everyone else stay as they were.
 */
export const CHUNK_NAMESPACES = ["liff."] as const;
const NOT_IN_SHELL: readonly string[] = [...ROUTE_NAMESPACES, ...SERVER_ONLY_NAMESPACES, ...CHUNK_NAMESPACES];

const shellCatalogs = Object.fromEntries(
  Object.entries(catalogs).map(([locale, messages]) => [
    locale,
    Object.fromEntries(Object.entries(messages).filter(([key]) => !NOT_IN_SHELL.some((ns) => key.startsWith(ns)))),
  ]),
) as Record<Locale, Partial<Messages>>;

/** The messages every page needs (the shell catalog file, `shellCatalogPath`). */
export function messagesFor(locale: Locale): Partial<Messages> {
  return shellCatalogs[locale];
}

type CatalogFile = { path: string; json: string };

function contentHash(json: string): string {
  return createHash("sha256").update(json).digest("base64url").slice(0, 12);
}

/** Every catalog file this instance has named, by path (served by `catalogFileAt`). */
const files = new Map<string, CatalogFile>();

/**
 * Names a catalog by its content's hash (so the browser may cache it for a year), keeps its file to serve and
 * provides it to this process's own renders under the same path. Returns the path.
 */
function nameCatalog(messages: Partial<Messages>, pathFor: (hash: string) => string): string {
  const json = JSON.stringify(messages);
  const path = pathFor(contentHash(json));
  files.set(path, { path, json });
  provideCatalog(path, messages);
  return path;
}

/** Each locale's shell catalog, named once at start (`shellCatalog` in i18n.ts). */
const shellPaths = Object.fromEntries(
  (Object.entries(shellCatalogs) as [Locale, Partial<Messages>][]).map(([locale, messages]) => [
    locale,
    nameCatalog(messages, (hash) => `${CATALOG_PATH_PREFIX}${locale}.${hash}.json`),
  ]),
) as Record<Locale, string>;

/** The path of a locale's shell catalog file, for the root loader (and the page's preload link). */
export function shellCatalogPath(locale: Locale): string {
  return shellPaths[locale];
}

type RoutePrefix = `${RouteNamespace}${string}`;
const routeCatalogRefs = new Map<string, CatalogRef>();

function routeMessagesOf(locale: Locale, prefixes: readonly string[]): Partial<Messages> {
  return Object.fromEntries(
    Object.entries(catalogs[locale]).filter(([name]) => prefixes.some((prefix) => name.startsWith(prefix))),
  ) as Partial<Messages>;
}

/**
 * The messages of a route-only namespace (or of some of its sub-prefixes, e.g. `catalog.city.`), for a route's
 * loader: a page names only what it shows, as a catalog file (`useT` and `pageMeta` take the reference). The
 * file's path says which messages it holds, so any instance can serve it (`catalogFileAt`). Computed once per
 * locale and prefix list.
 */
export function routeMessages(locale: Locale, ...prefixes: RoutePrefix[]): CatalogRef {
  const key = `${locale}|${prefixes.join("+")}`;
  let ref = routeCatalogRefs.get(key);
  if (!ref) {
    const path = nameCatalog(
      routeMessagesOf(locale, prefixes),
      (hash) => `${CATALOG_PATH_PREFIX}${locale}/${prefixes.join("+")}.${hash}.json`,
    );
    ref = { catalog: path };
    routeCatalogRefs.set(key, ref);
  }
  return ref;
}

/** A route catalog's path: a locale, then route-namespace prefixes joined by `+`, then the hash. */
const ROUTE_CATALOG_PATH = /^\/i18n\/(zh-TW|en)\/([A-Za-z0-9.+-]{1,300})\.([A-Za-z0-9_-]{12})\.json$/;

/**
 * The catalog file at a request path: a shell catalog, or a route catalog this or another instance named. An
 * old build's hash, or prefixes outside the route namespaces, are not one. A route catalog this instance has
 * not named yet is computed for the request and not kept (so made-up prefix lists cannot fill the memory).
 */
export function catalogFileAt(requestPath: string): CatalogFile | undefined {
  const known = files.get(requestPath);
  if (known) return known;
  const match = ROUTE_CATALOG_PATH.exec(requestPath);
  if (!match) return undefined;
  const [, locale, joined, hash] = match as unknown as [string, Locale, string, string];
  const prefixes = joined.split("+");
  if (!prefixes.every((prefix) => ROUTE_NAMESPACES.some((ns) => prefix.startsWith(ns)))) return undefined;
  const json = JSON.stringify(routeMessagesOf(locale, prefixes));
  return contentHash(json) === hash ? { path: requestPath, json } : undefined;
}

/** A translate function for one locale on the server, over the whole catalog (e-mails, jobs). */
export function catalogT(locale: Locale) {
  return translator(catalogs[locale]);
}

export function getLocale(request: Request): Locale {
  return localeFromCookieHeader(request.headers.get("cookie"));
}

/** A translate function for loaders, actions and meta on the server (every namespace). */
export function serverT(request: Request) {
  return translator(catalogs[getLocale(request)]);
}
