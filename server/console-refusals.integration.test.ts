import type { Database } from "@platform/db/client";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The console's files and scripts' answers refuse like its pages (issue 33 item 12): a clerk who opens
 * /admin/members/export, /admin/dashboard/export or /admin/messages/audience gets the console's 沒有權限 page in the
 * console's frame, with the status 403, not React Router's raw JSON. Every console route without a page of its own
 * is walked from app/routes.ts, so one added later is held to it too.
 */

let app: DevApp;
let base: string;
let db: Database;
let clerk: TestStaff;
let admin: TestStaff;
let resources: string[];

function flatten(entries: RouteConfigEntry[], parent = ""): { pattern: string; file: string }[] {
  return entries.flatMap((entry) => {
    const pattern = [parent, entry.path ?? ""].filter(Boolean).join("/");
    return [{ pattern, file: entry.file }, ...flatten(entry.children ?? [], pattern)];
  });
}

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function get(pathname: string, cookie: string) {
  return fetch(`${base}${pathname}`, { headers: { cookie, accept: "text/html" }, redirect: "manual" });
}

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test" }, "console_refusals");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  clerk = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
  admin = await staff.createTestStaff(db, secret, { role: "admin" });
  const config = (await load("/app/routes.ts")) as { default: RouteConfigEntry[] };
  resources = [];
  for (const route of flatten(config.default)) {
    if (!route.pattern.startsWith("admin/")) continue;
    const module = (await load(`/app/${route.file}`)) as { default?: unknown };
    if (module.default === undefined) resources.push(`/${route.pattern.replace(/:[^/]+/g, "unknown")}`);
  }
}, 180_000);

afterAll(() => app?.stop());

describe("refusals of the console's files and scripts' answers", () => {
  it("show the console's 沒有權限 page to a clerk, in the console's frame", async () => {
    for (const pathname of [
      "/admin/members/export",
      "/admin/dashboard/export?panel=sales",
      "/admin/messages/audience",
    ]) {
      const response = await get(pathname, cookieOf(clerk));
      expect(response.status, pathname).toBe(403);
      expect(response.headers.get("content-type"), pathname).toContain("text/html");
      const html = await response.text();
      expect(html, pathname).toContain('data-testid="console-forbidden"');
      expect(html, pathname).toContain("沒有權限");
      // The console's frame: its navigation and the person working.
      expect(html, pathname).toContain('data-testid="console-menu"');
      expect(html, pathname).not.toContain('"permission"');
    }
    const english = await get("/admin/members/export", `${cookieOf(clerk)}; locale=en`);
    expect(english.status).toBe(403);
    expect(await english.text()).toContain('data-testid="console-forbidden"');
  });

  it("every console route without a page answers a refusal or a bad request as a page, never as JSON", async () => {
    expect(resources).toEqual(expect.arrayContaining(["/admin/members/export", "/admin/dashboard/export"]));
    const failures: string[] = [];
    for (const pathname of resources) {
      const response = await get(pathname, cookieOf(clerk));
      const type = response.headers.get("content-type") ?? "";
      await response.arrayBuffer();
      if ([400, 403, 404].includes(response.status) && !type.includes("text/html")) {
        failures.push(`${response.status} ${pathname} answers ${type}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("keeps the files and the composer's count for those allowed", async () => {
    const csv = await get("/admin/members/export", cookieOf(admin));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect([...new Uint8Array(await csv.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const count = await get("/admin/messages/audience?sms=1", cookieOf(admin));
    expect(count.status).toBe(200);
    expect(((await count.json()) as { count: unknown }).count).toBeTruthy();
    // A bad filter: the console's bad-request page for a person, never a raw answer.
    const bad = await get("/admin/members/export?from=2026-99-99", cookieOf(admin));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('data-testid="bad-request"');
  });
});
