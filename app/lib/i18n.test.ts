import { describe, expect, it } from "vitest";
import { en } from "~/locales/en";
import { zhTW } from "~/locales/zh-TW";
import {
  DEFAULT_LOCALE,
  format,
  formatNumber,
  HTML_LANG,
  isLocale,
  LOCALE_COOKIE,
  LOCALES,
  localeCookie,
  localeFromCookieHeader,
  shellMessages,
  translator,
} from "./i18n";
import {
  CHUNK_NAMESPACES,
  getLocale,
  messagesFor,
  ROUTE_NAMESPACES,
  routeMessages,
  SERVER_ONLY_NAMESPACES,
  serverT,
  shellMessagesJson,
} from "./i18n.server";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("catalogs", () => {
  const zhKeys = Object.keys(zhTW).sort();
  const enKeys = Object.keys(en).sort();

  it("have exactly the same keys", () => {
    expect(enKeys).toEqual(zhKeys);
    expect(zhKeys.length).toBeGreaterThan(0);
  });

  it("use the same {placeholders} for every key", () => {
    const mismatched = zhKeys.filter(
      (key) =>
        JSON.stringify(placeholders(zhTW[key as keyof typeof zhTW])) !==
        JSON.stringify(placeholders(en[key as keyof typeof en])),
    );
    expect(mismatched).toEqual([]);
    // The check would be vacuous if no message had a placeholder.
    expect(zhKeys.some((key) => placeholders(zhTW[key as keyof typeof zhTW]).length > 0)).toBe(true);
  });

  it("have no empty messages", () => {
    for (const catalog of [zhTW, en]) {
      expect(Object.entries(catalog).filter(([, text]) => text.trim() === "")).toEqual([]);
    }
  });

  it("keep the exact texts the specification fixes", () => {
    expect(zhTW["common.loading"]).toBe("請稍候...");
    for (const catalog of [zhTW, en]) {
      expect(catalog["error.notFound"]).toBe("Page not found: {path}");
    }
  });

  it("are served per locale, route-only namespaces left to their route", () => {
    expect(messagesFor("zh-TW")["nav.home"]).toBe(zhTW["nav.home"]);
    expect(messagesFor("en")["nav.home"]).toBe(en["nav.home"]);
    const shellKeys = Object.keys(messagesFor("zh-TW"));
    for (const ns of [...ROUTE_NAMESPACES, ...SERVER_ONLY_NAMESPACES, ...CHUNK_NAMESPACES]) {
      expect(shellKeys.some((k) => k.startsWith(ns))).toBe(false);
    }
    const serverOnly = Object.keys(zhTW).filter((k) => SERVER_ONLY_NAMESPACES.some((ns) => k.startsWith(ns)));
    expect(serverOnly.length).toBeGreaterThan(0);
    const inChunks = Object.keys(zhTW).filter((k) => CHUNK_NAMESPACES.some((ns) => k.startsWith(ns)));
    expect(inChunks.length).toBeGreaterThan(0);
    const routeOnly = ROUTE_NAMESPACES.map((ns) => Object.keys(routeMessages("zh-TW", ns)).length);
    expect(shellKeys.length + routeOnly.reduce((a, b) => a + b, 0) + serverOnly.length + inChunks.length).toBe(
      Object.keys(zhTW).length,
    );
    expect(routeMessages("en", "testCrud.")["testCrud.title"]).toBe(en["testCrud.title"]);
  });

  it("reach the browser as one JSON string per locale, parsed back to the same messages", () => {
    const json = shellMessagesJson("en");
    expect(typeof json).toBe("string");
    expect(shellMessagesJson("en")).toBe(json);
    expect(shellMessages(json)).toEqual(messagesFor("en"));
    // Parsed once while the same string comes back; a route's own object passes through.
    expect(shellMessages(json)).toBe(shellMessages(json));
    expect(shellMessages(shellMessagesJson("zh-TW"))["nav.home"]).toBe(zhTW["nav.home"]);
    const own = { "nav.home": "x" };
    expect(shellMessages(own)).toBe(own);
    expect(shellMessages(undefined)).toEqual({});
  });

  it("send a page only the sub-namespaces it asks for", () => {
    const cities = routeMessages("zh-TW", "catalog.city.", "catalog.weekday.");
    expect(cities["catalog.city.taipei"]).toBe("臺北市");
    expect(cities["catalog.weekday.0"]).toBe("星期日");
    expect(Object.keys(cities).every((k) => k.startsWith("catalog.city.") || k.startsWith("catalog.weekday."))).toBe(
      true,
    );
    // Computed once per locale and prefix list.
    expect(routeMessages("zh-TW", "catalog.city.", "catalog.weekday.")).toBe(cities);
  });
});

describe("locales", () => {
  it("default to zh-TW and map to <html lang>", () => {
    expect(DEFAULT_LOCALE).toBe("zh-TW");
    expect(LOCALES).toEqual(["zh-TW", "en"]);
    expect(HTML_LANG).toEqual({ "zh-TW": "zh-Hant-TW", en: "en" });
  });

  it("recognise only supported locales", () => {
    expect(isLocale("zh-TW")).toBe(true);
    expect(isLocale("en")).toBe(true);
    for (const value of ["EN", "zh-tw", "fr", "", null, undefined, 1]) expect(isLocale(value)).toBe(false);
  });
});

describe("locale cookie", () => {
  it.each([
    [null, "zh-TW"],
    ["", "zh-TW"],
    ["locale=en", "en"],
    ["locale=zh-TW", "zh-TW"],
    ["theme=dark; locale=en; other=1", "en"],
    ["  locale=en  ", "en"],
    ["locale=zh%2DTW", "zh-TW"],
    ["locale=fr", "zh-TW"],
    ["locale=", "zh-TW"],
    ["mylocale=en", "zh-TW"],
    ["locale_old=en", "zh-TW"],
    ["other=locale=en", "zh-TW"],
  ])("%j → %s", (header, expected) => {
    expect(localeFromCookieHeader(header)).toBe(expected);
  });

  it("uses the first locale cookie when there are several", () => {
    expect(localeFromCookieHeader("locale=en; locale=zh-TW")).toBe("en");
  });

  it("is read from the request", () => {
    const request = new Request("http://localhost/", { headers: { cookie: `${LOCALE_COOKIE}=en` } });
    expect(getLocale(request)).toBe("en");
    expect(getLocale(new Request("http://localhost/"))).toBe("zh-TW");
    expect(serverT(request)("common.loading")).toBe(en["common.loading"]);
    expect(serverT(new Request("http://localhost/"))("common.loading")).toBe("請稍候...");
  });

  it("is set for a year, site-wide, SameSite=Lax, Secure only when asked", () => {
    const cookie = localeCookie("en", false);
    expect(cookie).toBe("locale=en; Path=/; Max-Age=31536000; SameSite=Lax");
    expect(localeCookie("zh-TW", true)).toBe("locale=zh-TW; Path=/; Max-Age=31536000; SameSite=Lax; Secure");
    // What we write, we read back.
    expect(localeFromCookieHeader(cookie.split(";")[0] ?? "")).toBe("en");
  });
});

describe("format and translator", () => {
  it("fills named placeholders and leaves unknown ones", () => {
    expect(format("步驟 {step} / 3", { step: 2 })).toBe("步驟 2 / 3");
    expect(format("{a}-{b}-{a}", { a: "x", b: 0 })).toBe("x-0-x");
    expect(format("Page not found: {path}", {})).toBe("Page not found: {path}");
    expect(format("Hello {name}")).toBe("Hello {name}");
  });

  it("does not interpret replacement patterns in values", () => {
    expect(format("path: {path}", { path: "/a/$&/$1" })).toBe("path: /a/$&/$1");
  });

  it("translates with the catalog, falls back to the built-in strings, then to the key", () => {
    const t = translator(en);
    expect(t("footer.copyright", { year: 2026 })).toBe("© 2026 Han Living Group. All rights reserved.");
    const partial = translator({});
    expect(partial("error.notFound", { path: "/x" })).toBe("Page not found: /x");
    expect(partial("common.loading")).toBe("請稍候...");
    expect(partial("nav.home")).toBe("nav.home");
  });

  it("groups numbers the locale's way, as toLocaleString does, per locale", () => {
    expect(formatNumber(11425, "zh-TW")).toBe("11,425");
    expect(formatNumber(954380, "en")).toBe("954,380");
    expect(formatNumber(-1200, "de")).toBe("-1.200");
    for (const n of [0, 7, 1234567]) expect(formatNumber(n, "zh-TW")).toBe(n.toLocaleString("zh-TW"));
  });
});
