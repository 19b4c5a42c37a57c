import { en } from "~/locales/en";
import { type Messages, zhTW } from "~/locales/zh-TW";
import { type Locale, localeFromCookieHeader, type ShellMessagesJson, translator } from "./i18n";

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

/** The messages every page needs (sent once by the root loader). */
export function messagesFor(locale: Locale): Partial<Messages> {
  return shellCatalogs[locale];
}

const shellJson = Object.fromEntries(
  Object.entries(shellCatalogs).map(([locale, messages]) => [locale, JSON.stringify(messages)]),
) as Record<Locale, ShellMessagesJson>;

/**
 * The shell messages as the root loader sends them: one JSON string, serialized once per locale at
 * start. React Router's turbo-stream encoding walks every key and value of an object on every
 * render (~0.8 ms for the ~260 shell messages, issue 17); a string costs it one copy. The browser
 * parses it once (`shellMessages` in i18n.ts).
 */
export function shellMessagesJson(locale: Locale): ShellMessagesJson {
  return shellJson[locale];
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
