import type { Locale } from "./i18n";

/** Text stored in both locales (`{ "zh-TW": …, en: … }`); missing English falls back to zh-TW. */
export type Localized = { "zh-TW": string; en: string };

export function pick(text: Localized | null | undefined, locale: Locale): string {
  if (!text) return "";
  return text[locale] || text["zh-TW"];
}
