import { readFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Never a 5xx for a bad URL (issue 33 item 5). Every console route of app/routes.ts, walked from the route table
 * (so a page added later is covered without touching this file), gets each bad value — a NUL byte, invalid UTF-8
 * (`%FF`, `%C3%28`) and a 10 kB value — in each path parameter and in each query parameter its module reads (found
 * in its source and the files beside it it imports), plus one it does not read, logged in as an admin; as a
 * document and as React Router's data request. None may answer 5xx; the document is the localized 400 page. A
 * refused export writes no audit row.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let admin: TestStaff;

type ConsoleRoute = { pattern: string; file: string; index: boolean; queryNames: string[] };
let routes: ConsoleRoute[];

const BAD_VALUES: { name: string; raw: string }[] = [
  { name: "a NUL byte", raw: "a%00b" },
  { name: "a lone %FF", raw: "%FF" },
  { name: "a broken UTF-8 pair", raw: "%C3%28" },
  { name: "a 10 kB value", raw: "a".repeat(10 * 1024) },
];

/** A parameter no console page reads: every route gets it too. */
const GENERIC = "zz";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Every route of app/routes.ts, with its full path pattern. */
function flatten(entries: RouteConfigEntry[], parent = ""): Omit<ConsoleRoute, "queryNames">[] {
  return entries.flatMap((entry) => {
    const pattern = [parent, entry.path ?? ""].filter(Boolean).join("/");
    const own = { pattern, file: entry.file, index: Boolean(entry.index) };
    return [own, ...flatten(entry.children ?? [], pattern)];
  });
}

/** The file an import names (`./x`, `../x` from `from`, or `~/x` in app/), if it is one of ours. */
function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("~/") ? path.join(ROOT, "app", spec.slice(2)) : path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, base]) {
    try {
      readFileSync(candidate, "utf8");
      return candidate;
    } catch {}
  }
  return null;
}

const importsOf = (file: string, pattern: RegExp) =>
  [...readFileSync(file, "utf8").matchAll(pattern)]
    .map((m) => resolveImport(file, m[1] as string))
    .filter((f): f is string => f !== null);

/**
 * The query names a route module reads: `get("…")` in it and the modules beside it that it imports, and the list
 * query specs (`q: listField.text(80)`) there or in the app's modules it imports, two steps deep (a list's spec may
 * live in the area's domain module, as the dashboard's does).
 */
function queryNamesOf(file: string): string[] {
  const first = path.join(ROOT, "app", file);
  const beside = [first, ...importsOf(first, /from "(\.{1,2}\/[^"]+)"/g)];
  const specFiles = new Set(beside);
  for (const f of beside) {
    for (const g of importsOf(f, /from "(~\/[^"]+)"/g)) {
      specFiles.add(g);
      for (const h of importsOf(g, /from "(\.{1,2}\/[^"]+|~\/[^"]+)"/g)) specFiles.add(h);
    }
  }
  const names = new Set<string>();
  for (const f of beside) {
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/\bget(?:All)?\("([A-Za-z][A-Za-z0-9_.]{0,40})"\)/g)) names.add(m[1] as string);
    // Filter lists: `const FILTERS = ["action", …] as const`.
    for (const list of text.matchAll(/FILTERS\s*=\s*\[([^\]]*)\]/g)) {
      for (const m of (list[1] as string).matchAll(/"([A-Za-z][A-Za-z0-9_]{0,40})"/g)) names.add(m[1] as string);
    }
  }
  for (const f of specFiles) {
    // List query specs (parseListQuery): `{ q: listField.text(80), tier: listField.choice(…) }`.
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/\b([A-Za-z][A-Za-z0-9_]{0,40}):\s*listField\./g)) names.add(m[1] as string);
  }
  names.add(GENERIC);
  return [...names];
}

function pathWith(route: ConsoleRoute, value: string): string {
  return `/${route.pattern.replace(/:[^/]+/g, value).replace(/\/?\*$/, `/${value}`)}`;
}

function dataUrl(pathname: string, query: string, index: boolean): string {
  const data = pathname.endsWith("/") ? `${pathname}_.data` : `${pathname}.data`;
  const q = [index ? "index" : "", query].filter(Boolean).join("&");
  return q ? `${data}?${q}` : data;
}

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function get(url: string, cookie = cookieOf(admin)) {
  return fetch(`${base}${url}`, { headers: { cookie }, redirect: "manual" });
}

const exportAudits = async () =>
  (await db.select().from(schema.auditLog).where(eq(schema.auditLog.action, "member.exported"))).length;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: "b".repeat(40) }, "bad_url");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  admin = await staff.createTestStaff(db, app.running.config.secrets.session, { role: "admin", displayName: "王總監" });
  const routeConfig = (await load("/app/routes.ts")) as { default: RouteConfigEntry[] };
  routes = flatten(routeConfig.default)
    .filter((r) => r.pattern === "admin" || r.pattern.startsWith("admin/"))
    .map((r) => ({ ...r, queryNames: queryNamesOf(r.file) }));
}, 180_000);

afterAll(() => app?.stop());

describe("bad URLs in the console", () => {
  it("finds the console routes and the query parameters they read", () => {
    const byPattern = new Map(routes.map((r) => [r.pattern, r.queryNames]));
    expect(routes.length).toBeGreaterThanOrEqual(45);
    expect(byPattern.get("admin/members")).toEqual(expect.arrayContaining(["q", "tier", "store", "after"]));
    expect(byPattern.get("admin/members/export")).toEqual(expect.arrayContaining(["q", "store"]));
    expect(byPattern.get("admin/audit")).toEqual(expect.arrayContaining(["action", "targetId", "targetType"]));
    expect(byPattern.get("admin/dashboard/export")).toEqual(expect.arrayContaining(["panel"]));
    expect(byPattern.get("admin/images/upload")).toEqual(expect.arrayContaining(["altZh", "altEn"]));
  });

  it("never answers 5xx for a NUL, invalid UTF-8 or 10 kB value in any path or query parameter", async () => {
    const failures: string[] = [];
    const check = async (url: string) => {
      const response = await get(url);
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 500) failures.push(`${response.status} ${url.slice(0, 120)}`);
    };
    for (const route of routes) {
      const clean = pathWith(route, "unknown");
      const index = route.index ? "index&" : "";
      for (const bad of BAD_VALUES) {
        if (route.pattern.includes(":") || route.pattern.endsWith("*")) {
          const pathname = pathWith(route, bad.raw);
          await check(`${pathname}${route.index ? "?index" : ""}`);
          await check(dataUrl(pathname, "", route.index));
        }
        for (const name of route.queryNames) {
          const query = `${name}=${bad.raw}`;
          // The dashboard export needs a real panel to get past its first check.
          const extra = route.pattern === "admin/dashboard/export" && name !== "panel" ? "panel=sales&" : "";
          await check(`${clean}?${index}${extra}${query}`);
          await check(dataUrl(clean, `${extra}${query}`, route.index));
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it("answers the console's localized 400 page, in the console's look, before any work", async () => {
    const response = await get("/admin/members?q=a%00b");
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("無法處理這個請求");
    expect(html).toContain('data-testid="bad-request"');
    expect(html).toContain('href="/admin"');
    expect(html).toContain("回到後台首頁");
    const english = await get("/admin/audit?action=%FF", `${cookieOf(admin)}; locale=en`);
    expect(english.status).toBe(400);
    expect(await english.text()).toContain("We couldn’t process that");
    // A path parameter too, and the data request of a client-side navigation.
    expect((await get("/admin/staff/a%00")).status).toBe(400);
    expect((await get("/admin/members.data?q=%C3%28")).status).toBe(400);
  });

  it("writes no audit row and streams nothing for a refused member export", async () => {
    const before = await exportAudits();
    for (const bad of BAD_VALUES) {
      for (const name of ["q", "store", "tier", "from", "after"]) {
        const response = await get(`/admin/members/export?${name}=${bad.raw}`);
        expect(response.status, `${name}=${bad.name}`).toBe(400);
        expect(response.headers.get("content-disposition")).toBeNull();
        await response.arrayBuffer();
      }
    }
    expect(await exportAudits()).toBe(before);
    const dashboard = await get("/admin/dashboard/export?panel=sales&store=a%00");
    expect(dashboard.status).toBe(400);
    expect(dashboard.headers.get("content-disposition")).toBeNull();
    // A good export still works and is audited.
    const good = await get("/admin/members/export?q=");
    expect(good.status).toBe(200);
    await good.arrayBuffer();
    expect(await exportAudits()).toBe(before + 1);
  });

  it("refuses an image upload whose alt text holds a NUL, with nothing stored", async () => {
    const response = await fetch(`${base}/admin/images/upload?altZh=${encodeURIComponent("門市")}%00&altEn=Shop`, {
      method: "POST",
      headers: { cookie: cookieOf(admin), origin: base, "content-type": "image/png" },
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    });
    expect(response.status).toBe(400);
    expect((await db.select().from(schema.mediaImage)).length).toBe(0);
  });
});
