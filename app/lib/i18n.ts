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
 * The full catalog reaches the browser through the root loader (only the active locale's).
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

/** The shell catalog as the root loader sends it: a JSON object of messages (see `shellMessagesJson`). */
export type ShellMessagesJson = string & { readonly __shellMessages: true };

let parsedShell: { json: string; messages: Partial<Messages> } | null = null;

/**
 * The messages of a loader's `messages`: the root's JSON string (parsed once, then reused while the
 * same string comes back), or a route's own object as it is.
 */
export function shellMessages(value: ShellMessagesJson | Partial<Messages> | null | undefined): Partial<Messages> {
  if (typeof value !== "string") return value ?? {};
  if (parsedShell?.json !== value) parsedShell = { json: value, messages: JSON.parse(value) as Partial<Messages> };
  return parsedShell.messages;
}

type RootData = { locale: Locale; messages: ShellMessagesJson } | undefined;

/** The active locale (from the root loader); zh-TW when the root has no data (e.g. a root error). */
export function useLocale(): Locale {
  const data = useRouteLoaderData("root") as RootData;
  return data?.locale ?? DEFAULT_LOCALE;
}

/** Translate with the root's messages, plus a route's own namespace when it loads one. */
export function useT(routeMessages?: Partial<Messages>): Translate {
  const json = (useRouteLoaderData("root") as RootData)?.messages;
  return useMemo(() => {
    const messages = json === undefined ? FALLBACK : shellMessages(json);
    if (!routeMessages) return translator(messages);
    // The route's namespace first, then the shell: no merged copy of the catalog per component (on the
    // server every component's useMemo runs on every render).
    return (key, values) => format(routeMessages[key] ?? messages[key] ?? FALLBACK[key] ?? key, values);
  }, [json, routeMessages]);
}
