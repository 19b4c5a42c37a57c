import { describe, expect, it } from "vitest";
import { en } from "~/locales/en";
import { zhTW } from "~/locales/zh-TW";
import {
  CATALOG_PATH_PREFIX,
  catalogPaths,
  DEFAULT_LOCALE,
  format,
  formatNumber,
  HTML_LANG,
  isLocale,
  LOCALE_COOKIE,
  LOCALES,
  loadCatalog,
  localeCookie,
  localeFromCookieHeader,
  routeCatalog,
  shellCatalog,
  translator,
} from "./i18n";
import {
  CHUNK_NAMESPACES,
  catalogFileAt,
  getLocale,
  messagesFor,
  ROUTE_NAMESPACES,
  routeMessages,
  SERVER_ONLY_NAMESPACES,
  serverT,
  shellCatalogPath,
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
    const routeOnly = ROUTE_NAMESPACES.map((ns) => Object.keys(routeCatalog(routeMessages("zh-TW", ns))).length);
    expect(shellKeys.length + routeOnly.reduce((a, b) => a + b, 0) + serverOnly.length + inChunks.length).toBe(
      Object.keys(zhTW).length,
    );
    expect(routeCatalog(routeMessages("en", "testCrud."))["testCrud.title"]).toBe(en["testCrud.title"]);
  });

  it("reach the browser as one file per locale, named by its content", () => {
    const en = shellCatalogPath("en");
    const zh = shellCatalogPath("zh-TW");
    expect(en).toMatch(new RegExp(`^${CATALOG_PATH_PREFIX}en\\.[A-Za-z0-9_-]{12}\\.json$`));
    expect(zh).not.toBe(en);
    expect(JSON.parse(catalogFileAt(en)?.json ?? "")).toEqual(messagesFor("en"));
    expect(catalogFileAt(`${CATALOG_PATH_PREFIX}en.000000000000.json`)).toBeUndefined();
    // This process renders with the same catalogs, by the same paths.
    expect(shellCatalog(zh)["nav.home"]).toBe(zhTW["nav.home"]);
    expect(shellCatalog(en)).toBe(messagesFor("en"));
  });

  it("load in the browser once per path, and a failed load is tried again", async () => {
    const path = `${CATALOG_PATH_PREFIX}en.test-catalog.json`;
    let calls = 0;
    const failing = async () => {
      calls += 1;
      return new Response("gone", { status: 404 });
    };
    await expect(loadCatalog(path, failing)).rejects.toThrow(/404/);
    const serving = async () => {
      calls += 1;
      return Response.json({ "nav.home": "Home (loaded)" });
    };
    await Promise.all([loadCatalog(path, serving), loadCatalog(path, serving)]);
    await loadCatalog(path, serving);
    expect(calls).toBe(2);
    expect(shellCatalog(path)["nav.home"]).toBe("Home (loaded)");
  });

  it("send a page only the sub-namespaces it asks for", () => {
    const ref = routeMessages("zh-TW", "catalog.city.", "catalog.weekday.");
    const cities = routeCatalog(ref);
    expect(cities["catalog.city.taipei"]).toBe("臺北市");
    expect(cities["catalog.weekday.0"]).toBe("星期日");
    expect(Object.keys(cities).every((k) => k.startsWith("catalog.city.") || k.startsWith("catalog.weekday."))).toBe(
      true,
    );
    // Computed once per locale and prefix list.
    expect(routeMessages("zh-TW", "catalog.city.", "catalog.weekday.")).toBe(ref);
  });

  it("name a route's namespace as a file any instance can serve, and nothing else", () => {
    const ref = routeMessages("en", "catalog.city.", "catalog.weekday.");
    expect(ref.catalog).toMatch(/^\/i18n\/en\/catalog\.city\.\+catalog\.weekday\.\.[A-Za-z0-9_-]{12}\.json$/);
    expect(JSON.parse(catalogFileAt(ref.catalog)?.json ?? "")).toEqual(routeCatalog(ref));
    // A path this instance never named (another instance's, here the same prefixes in the other order, so the
    // same messages and hash) is computed from the path; with a made-up hash it is not a catalog.
    const unseen = ref.catalog.replace("catalog.city.+catalog.weekday.", "catalog.weekday.+catalog.city.");
    expect(unseen).not.toBe(ref.catalog);
    expect(catalogFileAt(unseen)?.json).toBe(catalogFileAt(ref.catalog)?.json);
    expect(catalogFileAt(unseen.replace(/\.[A-Za-z0-9_-]{12}\.json$/, `.${"x".repeat(12)}.json`))).toBeUndefined();
    // Server-only and shell namespaces, made-up hashes and odd paths are not catalogs.
    for (const path of [
      `/i18n/en/email.${"A".repeat(12)}.json`,
      `/i18n/en/nav.${"A".repeat(12)}.json`,
      `/i18n/fr/catalog.city.${"A".repeat(12)}.json`,
      "/i18n/en/catalog.city..json",
      `/i18n/en/../en.${"A".repeat(12)}.json`,
    ])
      expect(catalogFileAt(path), path).toBeUndefined();
  });

  it("find the catalogs a route's data names, and resolve a route's messages", () => {
    expect(catalogPaths({ catalog: "/i18n/en.a.json", locale: "en" })).toEqual(["/i18n/en.a.json"]);
    expect(catalogPaths({ messages: { catalog: "/i18n/en/x.b.json" }, rows: [{ catalog: "not a ref" }] })).toEqual([
      "/i18n/en/x.b.json",
    ]);
    expect(catalogPaths({ result: { ok: true, messages: { catalog: "/i18n/en/y.c.json" } } })).toEqual([
      "/i18n/en/y.c.json",
    ]);
    expect(catalogPaths(null)).toEqual([]);
    expect(catalogPaths("text")).toEqual([]);
    const own = { "nav.home": "x" };
    expect(routeCatalog(own)).toBe(own);
    expect(routeCatalog({ catalog: "/i18n/en/never-loaded.json" })).toEqual({});
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
