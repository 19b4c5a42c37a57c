import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AuditModule from "../app/domain/audit/audit.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The catalogue in the console (issue 14 item 2, ADR 033) over HTTP: admins only (a manager and a counter
 * member of staff are refused), a material created as a draft is not public until published, the public
 * page shows a published change at once (the render cache of this instance is cleared), `<script>` is
 * stored as typed and shown escaped, bad input is refused beside its field in the page's language with
 * the values kept, and two admins saving the same version: one wins, the other is told (409), and the
 * audit log holds exactly the committed changes.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let audit: typeof AuditModule;
let admin: TestStaff;
let otherAdmin: TestStaff;
let manager: TestStaff;
let counterStaff: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: "k".repeat(40) }, "console_materials");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  audit = (await load("/app/domain/audit/audit.server.ts")) as typeof AuditModule;
  const staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  admin = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  otherAdmin = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  manager = await staffTesting.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
  counterStaff = await staffTesting.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff, locale?: "en") => `han_console=${staff.token}${locale ? `; locale=${locale}` : ""}`;

function post(path: string, fields: Record<string, string | string[]>, cookie: string) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  return fetch(`${base}${path}`, { method: "POST", body, headers: { origin: base, cookie }, redirect: "manual" });
}

function materialFields(id: string, overrides: Record<string, string | string[]> = {}) {
  return {
    intent: "save",
    id,
    categoryId: "wood-flooring",
    nameZh: `測試橡木 ${id}`,
    nameEn: `Test oak ${id}`,
    seriesZh: "森林",
    seriesEn: "Forest",
    summaryZh: "溫潤的橡木地板",
    summaryEn: "A warm oak floor",
    sizes: "19 × 190 cm",
    finishZh: "油蠟",
    finishEn: "Oiled",
    colourZh: "自然",
    colourEn: "Natural",
    swatch: "#c8a27a",
    originZh: "德國",
    originEn: "Germany",
    careZh: "以微濕拖把清潔",
    careEn: "Clean with a damp mop",
    spec0LabelZh: "厚度",
    spec0LabelEn: "Thickness",
    spec0ValueZh: "15 mm",
    spec0ValueEn: "15 mm",
    image0Src: "/media/wood/c8a27a-8b6a4a/3.svg",
    image0AltZh: "測試橡木：正面",
    image0AltEn: "Test oak: front view",
    stores: ["xinyi-flagship"],
    ...overrides,
  };
}

async function versionOf(id: string) {
  const [row] = await db
    .select({ version: schema.material.version })
    .from(schema.material)
    .where(eq(schema.material.id, id));
  return row?.version ?? 0;
}

function auditRows(targetId: string, action?: string) {
  return db
    .select()
    .from(schema.auditLog)
    .where(
      action
        ? and(eq(schema.auditLog.targetId, targetId), eq(schema.auditLog.action, action))
        : eq(schema.auditLog.targetId, targetId),
    );
}

describe("materials in the console", () => {
  it("is for admins only: a manager and counter staff are refused, a visitor is sent to the login", async () => {
    expect((await fetch(`${base}/admin/materials`, { redirect: "manual" })).headers.get("location")).toMatch(
      /^\/admin\/login/,
    );
    for (const staff of [manager, counterStaff]) {
      for (const path of [
        "/admin/materials",
        "/admin/materials/new",
        "/admin/categories",
        "/admin/materials/alishan-oak-engineered",
      ]) {
        expect((await fetch(`${base}${path}`, { headers: { cookie: cookieOf(staff) } })).status, path).toBe(403);
      }
      expect((await post("/admin/materials/new", materialFields("manager-oak"), cookieOf(staff))).status).toBe(403);
      expect((await post("/admin/categories", { id: "wood", direction: "up" }, cookieOf(staff))).status).toBe(403);
    }
    expect(await versionOf("manager-oak")).toBe(0);
    // The console's navigation shows the catalogue to admins only.
    const managerHome = await (await fetch(`${base}/admin`, { headers: { cookie: cookieOf(manager) } })).text();
    expect(managerHome).not.toContain('href="/admin/materials"');
    const adminHome = await (await fetch(`${base}/admin`, { headers: { cookie: cookieOf(admin) } })).text();
    expect(adminHome).toContain('href="/admin/materials"');
  });

  it("creates a draft (audited), shows it only after publishing, with <script> stored as text and escaped", async () => {
    const id = "script-oak";
    const created = await post(
      "/admin/materials/new",
      materialFields(id, { nameEn: "<script>alert(1)</script> Oak", stores: ["xinyi-flagship", "tainan"] }),
      cookieOf(admin),
    );
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe(`/admin/materials/${id}?done=created`);
    const [row] = await db.select().from(schema.material).where(eq(schema.material.id, id));
    expect(row?.name.en).toBe("<script>alert(1)</script> Oak");
    expect(row?.published).toBe(false);
    expect(row?.version).toBe(1);
    const stores = await db.select().from(schema.materialStore).where(eq(schema.materialStore.materialId, id));
    expect(stores.map((s) => s.storeId).sort()).toEqual(["tainan", "xinyi-flagship"]);
    const createdAudit = await auditRows(id, "material.created");
    expect(createdAudit).toHaveLength(1);
    expect(createdAudit[0]?.actorUserId).toBe(admin.userId);

    // A draft is not public.
    expect((await fetch(`${base}/material-detail/${id}`)).status).toBe(404);

    // The edit page shows the text escaped.
    const edit = await (
      await fetch(`${base}/admin/materials/${id}`, { headers: { cookie: cookieOf(admin, "en") } })
    ).text();
    expect(edit).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Oak");
    expect(edit).not.toContain("<script>alert(1)");

    const published = await post(
      `/admin/materials/${id}`,
      materialFields(id, { intent: "publish", version: "1", nameEn: "<script>alert(1)</script> Oak" }),
      cookieOf(admin),
    );
    expect(published.status).toBe(302);
    expect(published.headers.get("location")).toBe(`/admin/materials/${id}?done=published`);
    expect(await auditRows(id, "material.published")).toHaveLength(1);

    const page = await fetch(`${base}/material-detail/${id}`, { headers: { cookie: "locale=en" } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Oak");
    expect(html).not.toContain("<script>alert(1)");
    // The JSON-LD escapes `<` too, and the console's own specification label is shown.
    expect(html).toContain("\\u003cscript>alert(1)");
    expect(html).toContain("Thickness");
    expect(html).toContain("Xinyi");
  });

  it("shows a published change on the public page at once (the render cache of this instance is cleared)", async () => {
    const id = "cache-oak";
    expect((await post("/admin/materials/new", materialFields(id), cookieOf(admin))).status).toBe(302);
    expect(
      (await post(`/admin/materials/${id}`, materialFields(id, { intent: "publish", version: "1" }), cookieOf(admin)))
        .status,
    ).toBe(302);
    const first = await fetch(`${base}/material-detail/${id}`, { headers: { cookie: "locale=en" } });
    expect(await first.text()).toContain(`Test oak ${id}`);
    // A later request is served from the render cache. (The instance reads the content version every 2 s; the
    // read that sees the publish empties the cache once, so one more request may render again.)
    let cached = false;
    for (let attempt = 0; attempt < 5 && !cached; attempt++) {
      const again = await fetch(`${base}/material-detail/${id}`, { headers: { cookie: "locale=en" } });
      cached = again.headers.get("x-render-cache") === "hit";
      await again.text();
    }
    expect(cached).toBe(true);

    const version = await versionOf(id);
    const saved = await post(
      `/admin/materials/${id}`,
      materialFields(id, { version: String(version), nameEn: "Renamed oak" }),
      cookieOf(admin),
    );
    expect(saved.status).toBe(302);
    const after = await fetch(`${base}/material-detail/${id}`, { headers: { cookie: "locale=en" } });
    expect(after.headers.get("x-render-cache")).toBeNull();
    expect(await after.text()).toContain("Renamed oak");

    const unpublished = await post(
      `/admin/materials/${id}`,
      { intent: "unpublish", version: String(version + 1) },
      cookieOf(admin),
    );
    expect(unpublished.status).toBe(302);
    expect((await fetch(`${base}/material-detail/${id}`)).status).toBe(404);
    expect(await auditRows(id, "material.unpublished")).toHaveLength(1);
  });

  it("refuses bad input beside the field, in the page's language, keeping what was typed", async () => {
    const before = (await db.select().from(schema.material)).length;
    const cases: [Record<string, string | string[]>, string, "en" | undefined][] = [
      [{ nameEn: "" }, "此欄必填", undefined],
      [{ nameEn: "" }, "Required", "en"],
      [{ summaryZh: "長".repeat(401) }, "最多 400 個字", undefined],
      [{ careEn: "x".repeat(1001) }, "At most 1000 characters", "en"],
      [{ id: "Not A Slug" }, "只能使用小寫英文字母", undefined],
      [{ image0Src: "https://evil.example/x.png" }, "請填寫本站的圖片路徑", undefined],
      [{ image0AltEn: "" }, "Required", "en"],
      [{ categoryId: "no-such-category" }, "請選擇現有的分類", undefined],
      [{ stores: ["no-such-store"] }, "勾選的門市中有不存在的門市", undefined],
    ];
    for (const [overrides, message, locale] of cases) {
      const response = await post(
        "/admin/materials/new",
        materialFields("bad-input-oak", { ...overrides, seriesZh: "保留<b>系列</b>" }),
        cookieOf(admin, locale),
      );
      expect(response.status, message).toBe(400);
      const html = await response.text();
      expect(html, message).toContain(message);
      expect(html, message).toContain('aria-invalid="true"');
      expect(html, message).toContain("保留&lt;b&gt;系列&lt;/b&gt;");
    }
    // An unknown action, an existing id.
    expect((await post("/admin/materials/new", materialFields("x", { intent: "drop" }), cookieOf(admin))).status).toBe(
      400,
    );
    const taken = await post("/admin/materials/new", materialFields("alishan-oak-engineered"), cookieOf(admin));
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("這個網址代號已被使用");
    expect((await db.select().from(schema.material)).length).toBe(before);
  });

  it("tells the later of two admins saving the same version, loses nothing and audits only what was saved", async () => {
    const id = "conflict-oak";
    expect((await post("/admin/materials/new", materialFields(id), cookieOf(admin))).status).toBe(302);
    const first = await post(
      `/admin/materials/${id}`,
      materialFields(id, { version: "1", nameEn: "First admin's name" }),
      cookieOf(admin),
    );
    expect(first.status).toBe(302);
    const later = await post(
      `/admin/materials/${id}`,
      materialFields(id, { version: "1", nameEn: "Second admin's name" }),
      cookieOf(otherAdmin, "en"),
    );
    expect(later.status).toBe(409);
    const html = await later.text();
    expect(html).toContain("Another admin saved changes after you opened this page");
    expect(html).toContain("Second admin&#x27;s name");
    const [row] = await db.select().from(schema.material).where(eq(schema.material.id, id));
    expect(row?.name.en).toBe("First admin's name");
    expect(row?.version).toBe(2);
    expect(await auditRows(id, "material.updated")).toHaveLength(1);

    // Ten saves of the same version at once: exactly one wins.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(`/admin/materials/${id}`, materialFields(id, { version: "2", nameEn: `Racer ${i}` }), cookieOf(admin)),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    await Promise.all(answers.map((a) => a.text()));
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    expect(await versionOf(id)).toBe(3);
    expect(await auditRows(id, "material.updated")).toHaveLength(2);
    expect(await audit.verifyAuditChain(db)).toMatchObject({ ok: true });
  });

  it("lists with search, filters and keyset pages that never repeat a row", async () => {
    const list = await (
      await fetch(`${base}/admin/materials?q=${encodeURIComponent("橡木")}&category=wood-flooring`, {
        headers: { cookie: cookieOf(admin) },
      })
    ).text();
    expect(list).toContain('href="/admin/materials/conflict-oak"');
    const drafts = await (
      await fetch(`${base}/admin/materials?status=draft`, { headers: { cookie: cookieOf(admin) } })
    ).text();
    expect(drafts).not.toContain('href="/admin/materials/script-oak"');
    const seen: string[] = [];
    for (const sort of ["updated", "name"]) {
      seen.length = 0;
      let next: string | null = `/admin/materials?sort=${sort}`;
      while (next) {
        const html: string = await (await fetch(`${base}${next}`, { headers: { cookie: cookieOf(admin) } })).text();
        seen.push(...[...html.matchAll(/href="\/admin\/materials\/([a-z0-9-]+)"/g)].map((m) => m[1] ?? ""));
        const link: string | undefined = /href="(\/admin\/materials\?[^"]*after=[^"]*)"/.exec(html)?.[1];
        next = link ? link.replaceAll("&amp;", "&") : null;
      }
      const ids = seen.filter((s) => s !== "new");
      expect(new Set(ids).size, sort).toBe(ids.length);
      expect(ids.length, sort).toBe((await db.select().from(schema.material)).length);
    }
    // A cursor this list did not make is the first page, never a database error (a time is cast only once checked).
    const first = await fetch(`${base}/admin/materials?sort=updated`, { headers: { cookie: cookieOf(admin) } });
    const firstIds = [...(await first.text()).matchAll(/href="\/admin\/materials\/([a-z0-9-]+)"/g)].map((m) => m[1]);
    for (const after of ["junk|oak", "2026-13-45T00:00:00.000000Z|oak", "2026-11-25 10:00:00+00|oak'--"]) {
      const res = await fetch(`${base}/admin/materials?sort=updated&after=${encodeURIComponent(after)}`, {
        headers: { cookie: cookieOf(admin) },
      });
      expect(res.status, after).toBe(200);
      expect([...(await res.text()).matchAll(/href="\/admin\/materials\/([a-z0-9-]+)"/g)].map((m) => m[1])).toEqual(
        firstIds,
      );
    }
  });
});

describe("categories in the console", () => {
  it("creates a category (audited) and moves it up; a stale edit is a 409", async () => {
    const fields = {
      id: "test-cat",
      nameZh: "測試分類",
      nameEn: "Test category",
      summaryZh: "測試用",
      summaryEn: "For tests",
      imageSrc: "/media/marble/f2efe9-c9bfae/1.svg",
      imageAltZh: "大理石紋理",
      imageAltEn: "Marble texture",
      published: "on",
    };
    const missing = await post("/admin/categories/new", { ...fields, imageAltEn: "" }, cookieOf(admin, "en"));
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Required");
    expect((await post("/admin/categories/new", fields, cookieOf(admin))).status).toBe(302);
    expect(await auditRows("test-cat", "category.created")).toHaveLength(1);
    const order = async () =>
      (await db.select().from(schema.materialCategory)).sort((a, b) => a.sortOrder - b.sortOrder).map((c) => c.id);
    const before = await order();
    expect(before.at(-1)).toBe("test-cat");
    expect((await post("/admin/categories", { id: "test-cat", direction: "up" }, cookieOf(admin))).status).toBe(302);
    const after = await order();
    expect(after.at(-2)).toBe("test-cat");
    expect(await auditRows("test-cat", "category.moved")).toHaveLength(1);

    // A move does not make an open edit form stale; a save does.
    const ok = await post(
      "/admin/categories/test-cat",
      { ...fields, nameEn: "Renamed category", version: "1" },
      cookieOf(admin),
    );
    expect(ok.status).toBe(302);
    const conflict = await post("/admin/categories/test-cat", { ...fields, version: "1" }, cookieOf(admin, "en"));
    expect(conflict.status).toBe(409);
    expect(await conflict.text()).toContain("Another admin saved changes");
    const [row] = await db.select().from(schema.materialCategory).where(eq(schema.materialCategory.id, "test-cat"));
    expect(row?.name.en).toBe("Renamed category");
    expect(await auditRows("test-cat", "category.updated")).toHaveLength(1);
  });
});
