import { en } from "~/locales/en";
import { type Messages, zhTW } from "~/locales/zh-TW";
import { type Locale, localeFromCookieHeader, translator } from "./i18n";

const catalogs: Record<Locale, Messages> = { "zh-TW": zhTW, en };

/**
 * Namespaces only one route uses: that route's loader sends them (`routeMessages`), so the root
 * does not ship them with every page.
 */
const ROUTE_NAMESPACES = ["testCrud.", "catalog."] as const;
type RouteNamespace = (typeof ROUTE_NAMESPACES)[number];

const shellCatalogs = Object.fromEntries(
  Object.entries(catalogs).map(([locale, messages]) => [
    locale,
    Object.fromEntries(Object.entries(messages).filter(([key]) => !ROUTE_NAMESPACES.some((ns) => key.startsWith(ns)))),
  ]),
) as Record<Locale, Partial<Messages>>;

/** The messages every page needs (sent once by the root loader). */
export function messagesFor(locale: Locale): Partial<Messages> {
  return shellCatalogs[locale];
}

type RoutePrefix = `${RouteNamespace}${string}`;
const routeMessageCache = new Map<string, Partial<Messages>>();

/**
 * The messages of a route-only namespace (or of some of its sub-prefixes, e.g. `catalog.city.`), for
 * a route's loader: a page sends only what it shows. Computed once per locale and prefix list.
 */
export function routeMessages(locale: Locale, ...prefixes: RoutePrefix[]): Partial<Messages> {
  const key = `${locale}|${prefixes.join(",")}`;
  let messages = routeMessageCache.get(key);
  if (!messages) {
    messages = Object.fromEntries(
      Object.entries(catalogs[locale]).filter(([name]) => prefixes.some((prefix) => name.startsWith(prefix))),
    ) as Partial<Messages>;
    routeMessageCache.set(key, messages);
  }
  return messages;
}

export function getLocale(request: Request): Locale {
  return localeFromCookieHeader(request.headers.get("cookie"));
}

/** A translate function for loaders, actions and meta on the server (every namespace). */
export function serverT(request: Request) {
  return translator(catalogs[getLocale(request)]);
}
