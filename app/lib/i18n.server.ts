import { en } from "~/locales/en";
import { type Messages, zhTW } from "~/locales/zh-TW";
import { type Locale, localeFromCookieHeader, translator } from "./i18n";

const catalogs: Record<Locale, Messages> = { "zh-TW": zhTW, en };

export function messagesFor(locale: Locale): Messages {
  return catalogs[locale];
}

export function getLocale(request: Request): Locale {
  return localeFromCookieHeader(request.headers.get("cookie"));
}

/** A translate function for loaders, actions and meta on the server. */
export function serverT(request: Request) {
  return translator(messagesFor(getLocale(request)));
}
