import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ImagesTesting from "../app/domain/images/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Stores in the console over HTTP (issue 14 items 1 and 4; ADR 027): who may edit which store (a manager only
 * their own, by id, whatever the URL or form says), bad input answered beside its field in the page's language
 * with nothing written, drafts that the public page does not show until published, the preview (staff only,
 * never cached), publishing as one action that the public page follows, optimistic concurrency (the later save
 * is told), and an audit row for every write.
 */

const HOOKS_SECRET = "s".repeat(40);
let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let admin: TestStaff;
let admin2: TestStaff;
let manager: TestStaff;
let clerk: TestStaff;
let files: typeof ImagesTesting;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, "console_stores");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  files = (await load("/app/domain/images/testing.server.ts")) as typeof ImagesTesting;
  const secret = app.running.config.secrets.session;
  admin = await staff.createTestStaff(db, secret, { role: "admin", displayName: "王總監" });
  admin2 = await staff.createTestStaff(db, secret, { role: "admin", displayName: "李經理" });
  manager = await staff.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
  clerk = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff, locale = "") => `han_console=${staff.token}${locale ? `; locale=${locale}` : ""}`;

function get(pathname: string, cookie = "", headers: Record<string, string> = {}) {
  return fetch(`${base}${pathname}`, { headers: { cookie, ...headers }, redirect: "manual" });
}

function post(pathname: string, fields: Record<string, string> | URLSearchParams, cookie = "") {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: fields instanceof URLSearchParams ? fields : new URLSearchParams(fields),
    headers: { origin: base, cookie },
    redirect: "manual",
  });
}

/** A date a month ahead (Taipei): a holiday that is never past while the test runs. */
const HOLIDAY = new Date(Date.now() + 8 * 3_600_000 + 30 * 86_400_000).toISOString().slice(0, 10);

/** A complete, valid editor form (a Taipei store open every day, a holiday a month ahead). */
function storeForm(overrides: Record<string, string> = {}): URLSearchParams {
  const form = new URLSearchParams({
    intent: "save",
    nameZh: "測試門市",
    nameEn: "Test showroom",
    summaryZh: "測試用的門市。",
    summaryEn: "A showroom for tests.",
    postalCode: "110",
    addressZh: "松仁路 1 號",
    addressEn: "No. 1, Songren Rd.",
    phone: "02-2723-0199",
    email: "test-store@han-living.example",
    latitude: "25.0330",
    longitude: "121.5654",
    hours0: "11:00–18:00",
    hours1: "10:30–21:00",
    hours2: "10:30–21:00",
    hours3: "10:30–21:00",
    hours4: "10:30–21:00",
    hours5: "10:30–21:00",
    hours6: "10:30–21:00",
    ex0Date: HOLIDAY,
    ex0Hours: "",
    ex0NoteZh: "元旦",
    ex0NoteEn: "New Year's Day",
    ...overrides,
  });
  form.append("services", "parking");
  form.append("services", "samples");
  return form;
}

async function auditRows(action: string, targetId: string) {
  return db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, action), eq(schema.auditLog.targetId, targetId)));
}

async function draftOf(id: string) {
  const [row] = await db
    .select()
    .from(schema.contentDraft)
    .where(and(eq(schema.contentDraft.kind, "store"), eq(schema.contentDraft.entityId, id)));
  return row ?? null;
}

/** The version the editor page carries in its save form. */
async function editorVersion(id: string, staff: TestStaff): Promise<string> {
  const html = await (await get(`/admin/stores/${id}`, cookieOf(staff))).text();
  return /name="intent" value="save"\/><input type="hidden" name="version" value="(\d+)"/.exec(html)?.[1] ?? "missing";
}

describe("stores in the console", () => {
  it("lets only staff with store.edit in, a manager only at their own store", async () => {
    expect((await get("/admin/stores")).headers.get("location")).toMatch(/^\/admin\/login/);
    expect((await get("/admin/stores", cookieOf(clerk))).status).toBe(403);

    const list = await (await get("/admin/stores", cookieOf(manager))).text();
    expect(list).toContain('href="/admin/stores/xinyi-flagship"');
    expect(list).not.toContain('href="/admin/stores/banqiao"');
    expect(list).not.toContain('href="/admin/stores/new"');

    // A foreign store id in the URL or a posted form is refused before anything is read or written.
    expect((await get("/admin/stores/banqiao", cookieOf(manager))).status).toBe(403);
    expect((await get("/admin/stores/banqiao/preview", cookieOf(manager))).status).toBe(403);
    expect((await post("/admin/stores/banqiao", storeForm({ version: "0" }), cookieOf(manager))).status).toBe(403);
    expect((await post("/admin/stores/banqiao", { intent: "publish", version: "0" }, cookieOf(manager))).status).toBe(
      403,
    );
    expect(await draftOf("banqiao")).toBeNull();
    // Creating stores and unpublishing are for admins.
    expect((await get("/admin/stores/new", cookieOf(manager))).status).toBe(403);
    expect((await post("/admin/stores/new", storeForm({ id: "sneaky" }), cookieOf(manager))).status).toBe(403);
    expect(
      (await post("/admin/stores/xinyi-flagship", { intent: "unpublish", version: "0" }, cookieOf(manager))).status,
    ).toBe(403);

    expect((await get("/admin/stores/no-such-store", cookieOf(admin))).status).toBe(404);
    const all = await (await get("/admin/stores?sort=city&dir=desc", cookieOf(admin))).text();
    expect(all).toContain('href="/admin/stores/banqiao"');
  });

  it("lists with search, status and sort kept in the URL", async () => {
    const found = await (await get("/admin/stores?q=%E4%BF%A1%E7%BE%A9", cookieOf(admin))).text();
    expect(found).toContain('href="/admin/stores/xinyi-flagship"');
    expect(found).not.toContain('href="/admin/stores/banqiao"');
    const unpublished = await (await get("/admin/stores?status=unpublished", cookieOf(admin))).text();
    expect(unpublished).not.toContain('href="/admin/stores/xinyi-flagship"');
    // Odd values fall back to the defaults instead of failing.
    expect((await get("/admin/stores?sort=%27%3Bdrop&page=-4&status=x", cookieOf(admin))).status).toBe(200);
  });

  it("refuses bad input beside each field, in the page's language, keeping what was typed and writing nothing", async () => {
    const bad = storeForm({
      id: "bad-input-store",
      nameZh: "",
      summaryEn: "x".repeat(301),
      latitude: "48.8566",
      longitude: "2.35",
      hours1: "21:00–10:00",
      hours2: "10:00–14:00, 13:00–18:00",
      ex0Date: "2020-01-01",
      addressZh: "仁愛路 9 號",
    });
    const zh = await post("/admin/stores/new", bad, cookieOf(admin));
    expect(zh.status).toBe(400);
    const zhHtml = await zh.text();
    for (const message of [
      "此欄位必填",
      "最多 300 個字",
      "臺灣範圍",
      "時段必須在開始之後結束",
      "重疊",
      "這一天已經過去",
    ]) {
      expect(zhHtml).toContain(message);
    }
    expect(zhHtml).toContain('value="仁愛路 9 號"');

    const en = await post("/admin/stores/new", bad, cookieOf(admin, "en"));
    expect(en.status).toBe(400);
    const enHtml = await en.text();
    expect(enHtml).toContain("Required");
    expect(enHtml).toContain("This date has passed");
    expect(enHtml).toContain("a range must end after it starts");

    const [row] = await db.select().from(schema.store).where(eq(schema.store.id, "bad-input-store"));
    expect(row).toBeUndefined();
    expect(await auditRows("store.created", "bad-input-store")).toHaveLength(0);

    // The editor of an existing store answers the same way, and no draft is written.
    const edit = await post(
      "/admin/stores/xinyi-flagship",
      storeForm({ version: "0", email: "not-an-email" }),
      cookieOf(admin),
    );
    expect(edit.status).toBe(400);
    expect(await edit.text()).toContain("請輸入有效的電子郵件");
    expect(await draftOf("xinyi-flagship")).toBeNull();
  });

  it("creates a store unpublished; a draft stays off the site until published; HTML in texts stays text", async () => {
    const created = await post("/admin/stores/new", storeForm({ id: "test-showroom" }), cookieOf(admin));
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toBe("/admin/stores/test-showroom?done=created");
    expect(await auditRows("store.created", "test-showroom")).toHaveLength(1);
    expect((await post("/admin/stores/new", storeForm({ id: "test-showroom" }), cookieOf(admin))).status).toBe(409);
    expect((await get("/store-detail/test-showroom")).status).toBe(404);

    // A draft with markup in its name: the preview shows it escaped, the public page does not show it at all.
    const saved = await post(
      "/admin/stores/test-showroom",
      storeForm({ version: "0", nameEn: '<script>alert("x")</script> Showroom' }),
      cookieOf(admin, "en"),
    );
    expect(saved.status).toBe(302);
    expect(await auditRows("store.draft_saved", "test-showroom")).toHaveLength(1);
    const preview = await get("/admin/stores/test-showroom/preview", cookieOf(admin, "en"));
    expect(preview.status).toBe(200);
    expect(preview.headers.get("cache-control")).toBe("private, no-store");
    expect(preview.headers.get("x-robots-tag")).toContain("noindex");
    const previewHtml = await preview.text();
    expect(previewHtml).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Showroom");
    expect(previewHtml).not.toContain('<script>alert("x")</script>');
    expect((await get("/admin/stores/test-showroom/preview")).status).toBe(302);

    // Publishing is one action: the store, its holiday, a revision, the catalogue version and the audit row.
    const version = await editorVersion("test-showroom", admin);
    expect(version).toBe("1");
    const [before] = await db.select().from(schema.contentVersion);
    const published = await post("/admin/stores/test-showroom", { intent: "publish", version }, cookieOf(admin));
    expect(published.status).toBe(302);
    const [after] = await db.select().from(schema.contentVersion);
    expect(after?.version).toBe((before?.version ?? 0) + 1);
    const [row] = await db.select().from(schema.store).where(eq(schema.store.id, "test-showroom"));
    expect(row?.published).toBe(true);
    expect(row?.name.en).toBe('<script>alert("x")</script> Showroom');
    expect(row?.services).toEqual(["parking", "samples"]);
    const holidays = await db
      .select()
      .from(schema.storeHoursException)
      .where(eq(schema.storeHoursException.storeId, "test-showroom"));
    expect(holidays.map((h) => h.date)).toEqual([HOLIDAY]);
    expect(await auditRows("store.published", "test-showroom")).toHaveLength(1);
    expect((await draftOf("test-showroom"))?.data).toBeNull();

    const page = await get("/store-detail/test-showroom", "locale=en");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Showroom");
    expect(html).not.toContain('<script>alert("x")</script>');
  });

  it("tells the later of two simultaneous editors, keeping their values; a stale publish is refused too", async () => {
    const v = await editorVersion("banqiao", admin);
    expect(await editorVersion("banqiao", admin2)).toBe(v);
    const first = await post("/admin/stores/banqiao", storeForm({ version: v, nameZh: "板橋（甲）" }), cookieOf(admin));
    expect(first.status).toBe(302);
    const second = await post(
      "/admin/stores/banqiao",
      storeForm({ version: v, nameZh: "板橋（乙）" }),
      cookieOf(admin2),
    );
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(html).toContain("另一位同仁在您開啟此頁後已修改或發布這間門市");
    expect(html).toContain('value="板橋（乙）"');
    const kept = (await draftOf("banqiao"))?.data as { name: { "zh-TW": string } } | undefined;
    expect(kept?.name["zh-TW"]).toBe("板橋（甲）");
    expect(await auditRows("store.draft_saved", "banqiao")).toHaveLength(1);

    // Publishing what was loaded before the first save is refused; the current version publishes.
    expect((await post("/admin/stores/banqiao", { intent: "publish", version: v }, cookieOf(admin2))).status).toBe(409);
    const current = await editorVersion("banqiao", admin2);
    expect(
      (await post("/admin/stores/banqiao", { intent: "publish", version: current }, cookieOf(admin2))).status,
    ).toBe(302);
    // An editor opened before that publish cannot overwrite it silently either.
    expect((await post("/admin/stores/banqiao", storeForm({ version: current }), cookieOf(admin))).status).toBe(409);
  });

  it("a manager saves and publishes their own store; the public page follows within seconds, render cache and ETag included", async () => {
    const path = "/store-detail/xinyi-flagship";
    const first = await get(path);
    const etag = first.headers.get("etag") ?? "";
    expect(await first.text()).not.toContain("信義旗艦（新）");
    await get(path); // now in the render cache
    const v = await editorVersion("xinyi-flagship", manager);
    expect(
      (
        await post(
          "/admin/stores/xinyi-flagship",
          storeForm({ version: v, nameZh: "信義旗艦（新）" }),
          cookieOf(manager),
        )
      ).status,
    ).toBe(302);
    expect(await (await get(path)).text()).not.toContain("信義旗艦（新）");
    const draftVersion = await editorVersion("xinyi-flagship", manager);
    expect(
      (await post("/admin/stores/xinyi-flagship", { intent: "publish", version: draftVersion }, cookieOf(manager)))
        .status,
    ).toBe(302);
    await expect
      .poll(async () => (await get(path)).text(), { timeout: 10_000, interval: 250 })
      .toContain("信義旗艦（新）");
    const now = await get(path, "", { "if-none-match": etag });
    expect(now.status).toBe(200);
    expect(now.headers.get("etag")).not.toBe(etag);
    const audit = await auditRows("store.published", "xinyi-flagship");
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorUserId).toBe(manager.userId);
  });

  it("store photos: an uploaded image and a demo picture in the draft, published as a responsive picture; an image a published store shows cannot be deleted", async () => {
    const id = "hualien";
    const photo = await files.photoJpeg(1200, 900);
    const uploaded = await fetch(
      `${base}/admin/images/upload?${new URLSearchParams({ altZh: "花蓮門市外觀", altEn: "Hualien showroom" })}`,
      {
        method: "POST",
        body: photo,
        headers: { origin: base, cookie: cookieOf(admin), "content-type": "image/jpeg" },
      },
    );
    expect(uploaded.status).toBe(201);
    const { image } = (await uploaded.json()) as { image: { id: string; hash: string } };
    const editor = await (await get(`/admin/stores/${id}`, cookieOf(admin))).text();
    const statics = [...editor.matchAll(/name="photo" value="(static:[^"]+)"/g)].map((m) => m[1] as string);
    expect(statics.length).toBeGreaterThan(0);

    // Refused beside the photos: an image that does not exist, a picture the store does not have.
    for (const bad of [`image:${crypto.randomUUID()}`, "static:/media/not-this-store.svg"]) {
      const form = storeForm({ version: await editorVersion(id, admin), photosField: "1", photo: bad });
      const refused = await post(`/admin/stores/${id}`, form, cookieOf(admin));
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("有照片已不在媒體庫中");
    }
    expect(await draftOf(id)).toBeNull();

    // The uploaded image first, then the demo's first picture: saved in the draft, not on the site yet.
    const form = storeForm({ version: await editorVersion(id, admin), photosField: "1", nameZh: "花蓮照片門市" });
    form.append("photo", `image:${image.id}`);
    form.append("photo", statics[0] as string);
    expect((await post(`/admin/stores/${id}`, form, cookieOf(admin))).status).toBe(302);
    const draft = await draftOf(id);
    const draftPhotos = (draft?.data as { photos: unknown[] } | undefined)?.photos ?? [];
    expect(draftPhotos).toHaveLength(2);
    expect(draftPhotos[0]).toEqual({ imageId: image.id });
    expect(await (await get(`/store-detail/${id}`)).text()).not.toContain(`/media/${image.hash}/`);
    // Not yet in use: nothing published shows it.
    expect(await db.select().from(schema.storePhoto).where(eq(schema.storePhoto.imageId, image.id))).toHaveLength(0);

    const preview = await (await get(`/admin/stores/${id}/preview`, cookieOf(admin))).text();
    expect(preview).toContain(`/media/${image.hash}/960.avif 960w`);

    expect(
      (await post(`/admin/stores/${id}`, { intent: "publish", version: String(draft?.version) }, cookieOf(admin)))
        .status,
    ).toBe(302);
    await expect
      .poll(async () => (await get(`/store-detail/${id}`)).text(), { timeout: 10_000, interval: 250 })
      .toContain(`/media/${image.hash}/`);
    const page = await (await get(`/store-detail/${id}`)).text();
    const main = /<picture[^>]*>(.*?)<\/picture>/s.exec(page)?.[1] ?? "";
    expect(main).toContain('type="image/avif"');
    expect(main).toMatch(/srcSet="[^"]*480w, [^"]*960w, [^"]*1200w"/i);
    expect(main).toContain('width="1200"');
    expect(main).toContain('height="900"');
    expect(main).toContain('alt="花蓮門市外觀"');
    expect(page).toContain(statics[0]?.slice(7)); // the demo picture still shows
    expect(await (await get(`/our-store?q=${encodeURIComponent("花蓮照片門市")}`)).text()).toContain(
      `/media/${image.hash}/`,
    );

    // In use: the media library refuses to delete it (409), and nothing is deleted.
    const refused = await post("/admin/images", { intent: "delete", id: image.id }, cookieOf(admin));
    expect(refused.status).toBe(409);
    expect(await db.select().from(schema.mediaImage).where(eq(schema.mediaImage.id, image.id))).toHaveLength(1);

    // Removed from the store and published: no longer in use, so it can be deleted.
    const without = storeForm({
      version: await editorVersion(id, admin),
      photosField: "1",
      photo: statics[0] as string,
    });
    expect((await post(`/admin/stores/${id}`, without, cookieOf(admin))).status).toBe(302);
    const v = await editorVersion(id, admin);
    expect((await post(`/admin/stores/${id}`, { intent: "publish", version: v }, cookieOf(admin))).status).toBe(302);
    expect(await db.select().from(schema.storePhoto).where(eq(schema.storePhoto.storeId, id))).toHaveLength(0);
    expect((await post("/admin/images", { intent: "delete", id: image.id }, cookieOf(admin))).status).toBe(302);
  });

  it("an admin unpublishes a store: it leaves the site, audited", async () => {
    const v = await editorVersion("test-showroom", admin);
    expect(
      (await post("/admin/stores/test-showroom", { intent: "unpublish", version: v }, cookieOf(admin))).status,
    ).toBe(302);
    expect(await auditRows("store.unpublished", "test-showroom")).toHaveLength(1);
    await expect.poll(async () => (await get("/store-detail/test-showroom")).status, { timeout: 10_000 }).toBe(404);
  });
});
