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

/** The messages of one route-only namespace, for that route's loader. */
export function routeMessages(locale: Locale, namespace: RouteNamespace): Partial<Messages> {
  return Object.fromEntries(Object.entries(catalogs[locale]).filter(([key]) => key.startsWith(namespace)));
}

export function getLocale(request: Request): Locale {
  return localeFromCookieHeader(request.headers.get("cookie"));
}

/** A translate function for loaders, actions and meta on the server (every namespace). */
export function serverT(request: Request) {
  return translator(catalogs[getLocale(request)]);
}
