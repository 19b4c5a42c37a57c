import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Saved segments over HTTP (issue 38 part 6, ADR 056): admins only; the live count answers JSON and refuses bad
 * filters (unknown scores, a NUL byte) with 400 before any work; a bad id or a NUL byte in the path is a 404; a
 * taken name is told beside the name field with what was typed kept; each save audited once; a new campaign opened
 * from a segment carries its filters. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let admin: TestStaff;
let manager: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: "segments-test-hooks-secret-0123456789" }, "segments");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  const staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  admin = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  manager = await staffTesting.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}; locale=zh-TW`;
const get = (path: string, staff = admin) =>
  fetch(`${base}${path}`, { headers: { cookie: cookieOf(staff) }, redirect: "manual" });
const post = (path: string, fields: Record<string, string>, staff = admin) =>
  fetch(`${base}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie: cookieOf(staff), "accept-language": "zh-TW" },
    redirect: "manual",
  });

async function audits(action: string, id: string) {
  return (
    await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, action), eq(schema.auditLog.targetId, id)))
  ).length;
}

describe("segments over HTTP", () => {
  it("the count answers JSON for good filters and 400 for bad ones, NUL bytes included", async () => {
    const ok = await get("/admin/segments/count?rfmGroup=champions&tiers=basic");
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { count: number }).count).toBe(0);
    for (const q of ["rfmR=6", "rfmGroup=whales", "rfmGroup=%00", "city=%00", "tiers=basic%00", "rfmM=%00%00"]) {
      const bad = await get(`/admin/segments/count?${q}`);
      expect(bad.status, q).toBe(400);
    }
    expect((await get("/admin/segments/count", manager)).status).toBe(403);
  });

  it("the count reads the store and category its filters name: a known one counts, an unknown or NUL one is a 400", async () => {
    const known = await get("/admin/segments/count?visitedStore=xinyi-flagship&visitedDays=30");
    expect(known.status, await known.clone().text()).toBe(200);
    expect(typeof ((await known.json()) as { count: number }).count).toBe("number");
    const problems = {
      "visitedStore=nowhere&visitedDays=30": ["visitedStore"],
      "favouriteCategory=no-such-category": ["favouriteCategory"],
      "favouriteCategory=no-such-category&visitedStore=xinyi-flagship&visitedDays=3": ["favouriteCategory"],
    };
    for (const [q, fields] of Object.entries(problems)) {
      const bad = await get(`/admin/segments/count?${q}`);
      expect(bad.status, q).toBe(400);
      expect(((await bad.json()) as { problems: string[] }).problems, q).toEqual(fields);
    }
    // A NUL byte: 400 (never a 500 from PostgreSQL, which refuses the byte; the answer may come before the route).
    for (const q of ["visitedStore=xinyi-flagship%00&visitedDays=30", "favouriteCategory=%00"]) {
      expect((await get(`/admin/segments/count?${q}`)).status, q).toBe(400);
    }
  });

  it("pages: the list, a new segment, and 404 for a bad or NUL-byte id", async () => {
    expect((await get("/admin/segments")).status).toBe(200);
    expect((await get("/admin/segments/new")).status).toBe(200);
    expect((await get("/admin/segments", manager)).status).toBe(403);
    expect((await get("/admin/segments/not-a-uuid")).status).toBe(404);
    // A NUL byte in a path is refused before routing (400, server/bad-url), never a 500.
    expect([400, 404]).toContain((await get("/admin/segments/%00")).status);
    expect((await get("/admin/messages/campaigns/new?segment=%00")).status).toBe(400);
    expect((await get("/admin/messages/campaigns/new?segment=nope")).status).toBe(404);
    expect((await get("/admin/messages/campaigns/new?segment=00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("saves, tells a taken name beside its field with what was typed kept, and opens a campaign from it", async () => {
    const saved = await post("/admin/segments/new", { name: "沉睡的老朋友", rfmGroup: "hibernating", rfmM: "2" });
    expect(saved.status).toBe(302);
    const id = /\/admin\/segments\/([0-9a-f-]{36})/.exec(saved.headers.get("location") ?? "")?.[1] as string;
    expect(id).toBeTruthy();
    expect(await audits("segment.created", id)).toBe(1);

    const taken = await post("/admin/segments/new", { name: " 沉睡的老朋友 ", rfmGroup: "lost", rfmR: "1" });
    expect(taken.status).toBe(409);
    const html = await taken.text();
    expect(html).toContain("已有同名的分群，請換一個名稱。");
    expect(html).toMatch(/<option value="lost" selected/);

    const badField = await post("/admin/segments/new", { name: "好名字", rfmR: "9" });
    expect(badField.status).toBe(400);
    expect(await badField.text()).toContain('value="好名字"');

    const campaign = await get(`/admin/messages/campaigns/new?segment=${id}`);
    expect(campaign.status).toBe(200);
    const page = await campaign.text();
    expect(page).toMatch(/<option value="hibernating" selected/);
    expect(page).toContain("沉睡的老朋友");

    const archived = await post(`/admin/segments/${id}`, { intent: "archive" });
    expect(archived.status).toBe(302);
    expect(await audits("segment.archived", id)).toBe(1);
    expect((await get(`/admin/segments/${id}`)).status).toBe(404);
  });
});
