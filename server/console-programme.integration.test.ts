import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ImagesTesting from "../app/domain/images/testing.server";
import type * as LoyaltyPointsModule from "../app/domain/loyalty/points.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { taipeiIsoDate } from "../app/lib/time";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Rewards and programme rules in the console (issue 14 items 5 and 6, ADR 029), over HTTP: admins only;
 * bad input answered beside its field in the page's language with the values kept; HTML stored as text
 * and shown escaped; two admins saving the same version (the later one is told, nothing lost); stock
 * adjustments with history; the member center offers a new reward at once; rules with an effective date,
 * an impact preview required before saving, and every write audited.
 */

const HOOKS_SECRET = "programme-test-hooks-secret-0123456789";
let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let points: typeof LoyaltyPointsModule;
let files: typeof ImagesTesting;
let admin: TestStaff;
let admin2: TestStaff;
let manager: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, "console_programme");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  points = (await load("/app/domain/loyalty/points.server.ts")) as typeof LoyaltyPointsModule;
  files = (await load("/app/domain/images/testing.server.ts")) as typeof ImagesTesting;
  const staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  admin = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  admin2 = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  manager = await staffTesting.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function post(path: string, fields: Record<string, string | string[]>, cookie: string, lang = "zh-TW") {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  return fetch(`${base}${path}`, {
    method: "POST",
    body,
    headers: { origin: base, cookie: `${cookie}; locale=${lang}`, "accept-language": lang },
    redirect: "manual",
  });
}

const get = (path: string, cookie: string) => fetch(`${base}${path}`, { headers: { cookie }, redirect: "manual" });

async function hook(pathname: string, body: unknown) {
  const response = await fetch(`${base}/__test${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

const validReward = {
  intent: "save",
  name: "大理石杯墊",
  kind: "gift",
  pointsCost: "150",
  stock: "5",
  perMemberLimit: "1",
  couponValidDays: "30",
};

async function auditRows(action: string, targetId: string) {
  return db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, action), eq(schema.auditLog.targetId, targetId)));
}

async function createReward(fields: Record<string, string | string[]> = {}) {
  const response = await post("/admin/rewards/new", { ...validReward, ...fields }, cookieOf(admin));
  expect(response.status, await response.clone().text()).toBe(302);
  const id = /\/admin\/rewards\/([0-9a-f-]{36})/.exec(response.headers.get("location") ?? "")?.[1] ?? "";
  expect(id).not.toBe("");
  return id;
}

describe("rewards in the console", () => {
  it("is for admins only", async () => {
    expect((await get("/admin/rewards", "")).headers.get("location")).toMatch(/^\/admin\/login/);
    expect((await get("/admin/rewards", cookieOf(manager))).status).toBe(403);
    expect((await get("/admin/rules", cookieOf(manager))).status).toBe(403);
    expect((await post("/admin/rewards/new", validReward, cookieOf(manager))).status).toBe(403);
    expect((await get("/admin/rewards", cookieOf(admin))).status).toBe(200);
  });

  it("refuses bad input beside each field, in the page's language, keeping what was typed", async () => {
    const missing = await post("/admin/rewards/new", { ...validReward, name: "  ", pointsCost: "" }, cookieOf(admin));
    expect(missing.status).toBe(400);
    const html = await missing.text();
    expect(html).toContain("此欄位必填");
    expect(html).toContain('value="5"'); // the stock typed is kept
    const long = await post("/admin/rewards/new", { ...validReward, name: "長".repeat(61) }, cookieOf(admin));
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("最多 60 個字");
    const negative = await post(
      "/admin/rewards/new",
      { ...validReward, pointsCost: "-5", stock: "-1" },
      cookieOf(admin),
      "en",
    );
    expect(negative.status).toBe(400);
    const en = await negative.text();
    expect(en).toContain("Must be at least 1");
    expect(en).toContain("Must be at least 0");
    const badDates = await post(
      "/admin/rewards/new",
      { ...validReward, validFrom: "2030-05-02", validUntil: "2030-05-01", imageSrc: "https://evil.example/x.png" },
      cookieOf(admin),
    );
    expect(badDates.status).toBe(400);
    const text = await badDates.text();
    expect(text).toContain("結束日不可早於開始日");
    expect(text).toContain("請輸入本站圖片路徑");
    const rows = await db
      .select()
      .from(schema.reward)
      .where(eq(schema.reward.name, "長".repeat(61)));
    expect(rows).toHaveLength(0);
  });

  it("stores HTML as text and shows it escaped; the member center offers the reward at once", async () => {
    const name = `<script>alert(1)</script>杯墊${Date.now() % 1000}`;
    const id = await createReward({
      name,
      storeIds: ["xinyi-flagship"],
      imageSrc: "/media/rewards/cup.svg",
      imageAltZh: "手工陶杯",
      imageAltEn: "A handmade cup",
    });
    const [row] = await db.select().from(schema.reward).where(eq(schema.reward.id, id));
    expect(row?.name).toBe(name);
    expect(row?.storeIds).toEqual(["xinyi-flagship"]);
    const list = await (await get(`/admin/rewards?q=${encodeURIComponent("杯墊")}`, cookieOf(admin))).text();
    expect(list).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(list).not.toContain("<script>alert(1)</script>");
    expect(await auditRows("reward.created", id)).toHaveLength(1);

    const { userId, memberId } = (await hook("/members", { phoneNumber: "+886912345301", name: "兌換會員" })) as {
      userId: string;
      memberId: string;
    };
    const { setCookie } = (await hook("/sessions", { userId })) as { setCookie: string[] };
    const memberCookie = setCookie.map((c) => c.split(";")[0]).join("; ");
    await points.adjustPoints(db, { memberId, amount: 500, reason: "test", idempotencyKey: `seed-${memberId}` });
    const center = await (await get("/member-center", memberCookie)).text();
    expect(center).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(center).toContain(id);
    expect(center).toContain('src="/media/rewards/cup.svg"');
    expect(center).toContain('alt="手工陶杯"');
    const redeemed = await post(
      "/member-center?index",
      { intent: "redeem", rewardId: id, key: "programme-key-1" },
      memberCookie,
    );
    expect([200, 302, 303]).toContain(redeemed.status);
    const coupons = await db.select().from(schema.coupon).where(eq(schema.coupon.rewardId, id));
    expect(coupons).toHaveLength(1);
    // The list counts the reward's own coupons.
    const listed = await (await get(`/admin/rewards?q=${encodeURIComponent(name.slice(-5))}`, cookieOf(admin))).text();
    expect(listed).toMatch(/data-testid="reward-issued">1</);

    // Retired: gone from the member center's rewards at once (the coupon, under its own id, stays).
    const version = String((await db.select().from(schema.reward).where(eq(schema.reward.id, id)))[0]?.version);
    expect((await post(`/admin/rewards/${id}`, { intent: "retire", version }, cookieOf(admin))).status).toBe(302);
    const after = await (await get("/member-center", memberCookie)).text();
    expect(after).not.toContain(id);
    expect(after).toContain(coupons[0]?.id ?? "no coupon");
    expect(await auditRows("reward.retired", id)).toHaveLength(1);
    const retiredList = await (await get("/admin/rewards?status=retired", cookieOf(admin))).text();
    expect(retiredList).toContain("alert(1)");
  });

  it("an uploaded image as the reward's picture: checked on save, shown as a responsive picture, not deletable while in use", async () => {
    const uploaded = await fetch(
      `${base}/admin/images/upload?${new URLSearchParams({ altZh: "柚木杯墊", altEn: "A teak coaster" })}`,
      {
        method: "POST",
        body: await files.photoJpeg(800, 600),
        headers: { origin: base, cookie: cookieOf(admin), "content-type": "image/jpeg" },
      },
    );
    expect(uploaded.status).toBe(201);
    const { image } = (await uploaded.json()) as { image: { id: string; hash: string } };

    // An image that does not exist (or is not an id) is refused beside the field; nothing is saved.
    for (const imageId of [crypto.randomUUID(), "not-an-id"]) {
      const missing = await post("/admin/rewards/new", { ...validReward, name: "無圖兌換", imageId }, cookieOf(admin));
      expect(missing.status).toBe(400);
      const html = await missing.text();
      expect(html).toContain("此圖片已不存在");
      expect(html).toContain('value="無圖兌換"');
    }
    expect(await db.select().from(schema.reward).where(eq(schema.reward.name, "無圖兌換"))).toHaveLength(0);

    const name = `柚木杯墊兌換${Date.now() % 1000}`;
    const id = await createReward({ name, imageId: image.id });
    const [row] = await db.select().from(schema.reward).where(eq(schema.reward.id, id));
    expect(row?.imageId).toBe(image.id);
    expect(row?.image).toBeNull();
    const created = await auditRows("reward.created", id);
    expect(created[0]?.changes?.imageId?.after).toBe(image.id);
    // The editor shows it and carries its id.
    const editor = await (await get(`/admin/rewards/${id}`, cookieOf(admin))).text();
    expect(editor).toContain(`name="imageId" value="${image.id}"`);
    expect(editor).toContain(`/media/${image.hash}/`);

    const { userId } = (await hook("/members", { phoneNumber: "+886912345302", name: "圖片會員" })) as {
      userId: string;
    };
    const { setCookie } = (await hook("/sessions", { userId })) as { setCookie: string[] };
    const memberCookie = setCookie.map((c) => c.split(";")[0]).join("; ");
    const center = await (await get("/member-center", memberCookie)).text();
    const card = center.split('data-testid="reward"').find((part) => part.includes(name)) ?? "";
    const picture = /<picture[^>]*>(.*?)<\/picture>/s.exec(card)?.[1] ?? "";
    expect(picture).toContain('type="image/avif"');
    expect(picture).toContain(`/media/${image.hash}/480.avif 480w`);
    expect(picture).toContain('sizes="44px"');
    expect(picture).toContain('width="800"');
    expect(picture).toContain('height="600"');
    expect(picture).toContain('loading="lazy"');
    expect(picture).toContain('alt="柚木杯墊"');
    // Its alt text edited in the media library: the member center (a cached summary) follows.
    const renamed = await post("/admin/images", { id: image.id, altZh: "柚木圓杯墊", altEn: "" }, cookieOf(admin));
    expect(renamed.status).toBe(200);
    await expect
      .poll(async () => (await get("/member-center", memberCookie)).text(), { timeout: 10_000, interval: 250 })
      .toContain('alt="柚木圓杯墊"');

    // In use by the reward: the media library refuses to delete it (409), and nothing is deleted.
    const refused = await post("/admin/images", { intent: "delete", id: image.id }, cookieOf(admin));
    expect(refused.status).toBe(409);
    expect(await db.select().from(schema.mediaImage).where(eq(schema.mediaImage.id, image.id))).toHaveLength(1);

    // Removed from the reward (no image field sent): no longer in use, so it can be deleted.
    const version = String(row?.version);
    expect((await post(`/admin/rewards/${id}`, { ...validReward, name, version }, cookieOf(admin))).status).toBe(302);
    const [saved] = await db.select().from(schema.reward).where(eq(schema.reward.id, id));
    expect(saved?.imageId).toBeNull();
    expect((await post("/admin/images", { intent: "delete", id: image.id }, cookieOf(admin))).status).toBe(302);
    // An edit that still names the deleted image is refused beside the field.
    const stale = await post(
      `/admin/rewards/${id}`,
      { ...validReward, name, version: String(saved?.version), imageId: image.id },
      cookieOf(admin),
    );
    expect(stale.status).toBe(400);
    expect(await stale.text()).toContain("此圖片已不存在");
  });

  it("tells the later of two admins saving the same version, and loses nothing", async () => {
    const id = await createReward({ name: "同時編輯" });
    const edit = { ...validReward, version: "1" };
    const first = await post(`/admin/rewards/${id}`, { ...edit, name: "第一位的名稱" }, cookieOf(admin));
    expect(first.status).toBe(302);
    const second = await post(`/admin/rewards/${id}`, { ...edit, name: "第二位的名稱" }, cookieOf(admin2));
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(html).toContain("其他人");
    expect(html).toContain("第二位的名稱"); // what the second admin typed is kept
    expect(html).toContain("第一位的名稱"); // and the latest saved values are shown
    const [row] = await db.select().from(schema.reward).where(eq(schema.reward.id, id));
    expect(row?.name).toBe("第一位的名稱");
    expect(row?.version).toBe(2);
    // An edit never touches the stock (it changes by adjustments only): still the 5 it was created with.
    expect(row?.stock).toBe(5);
    expect(await auditRows("reward.updated", id)).toHaveLength(1);
    // Saving again over the version now shown works.
    const again = await post(`/admin/rewards/${id}`, { ...edit, version: "2", name: "第二位的名稱" }, cookieOf(admin2));
    expect(again.status).toBe(302);
  });

  it("adjusts the stock with a reason, never below zero, with history and audit", async () => {
    const id = await createReward({ name: "庫存調整", stock: "2" });
    const tooMuch = await post(
      `/admin/rewards/${id}`,
      { intent: "stock", delta: "-3", reason: "盤點" },
      cookieOf(admin),
    );
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain("庫存不可低於 0");
    const noReason = await post(`/admin/rewards/${id}`, { intent: "stock", delta: "4", reason: "" }, cookieOf(admin));
    expect(noReason.status).toBe(400);
    const ok = await post(`/admin/rewards/${id}`, { intent: "stock", delta: "4", reason: "補貨" }, cookieOf(admin));
    expect(ok.status).toBe(302);
    const [row] = await db.select().from(schema.reward).where(eq(schema.reward.id, id));
    expect(row?.stock).toBe(6);
    const history = await db.select().from(schema.rewardStockChange).where(eq(schema.rewardStockChange.rewardId, id));
    expect(history.map((h) => [h.delta, h.stockAfter, h.reason]).sort()).toEqual([
      [2, 2, "initial stock"],
      [4, 6, "補貨"],
    ]);
    expect(await auditRows("reward.stock-adjusted", id)).toHaveLength(1);
    const page = await (await get(`/admin/rewards/${id}`, cookieOf(admin))).text();
    expect(page).toContain("補貨");
  });
});

describe("the rewards list", () => {
  it("searches, filters, sorts and pages, with everything in the URL", async () => {
    for (let i = 0; i < 22; i++)
      await createReward({ name: `分頁測試 ${String(i).padStart(2, "0")}`, pointsCost: String(100 + i) });
    const first = await (
      await get(`/admin/rewards?q=${encodeURIComponent("分頁測試")}&sort=cost&dir=desc`, cookieOf(admin))
    ).text();
    const names = (html: string) => [...html.matchAll(/>分頁測試 (\d\d)</g)].map((m) => m[1]);
    expect(names(first)).toHaveLength(20);
    expect(names(first)[0]).toBe("21");
    expect(first).toContain("共 22 項");
    const next = /href="(\/admin\/rewards\?[^"]*page=2[^"]*)"/.exec(first)?.[1]?.replace(/&amp;/g, "&") ?? "";
    expect(next).toContain("sort=cost");
    expect(next).toContain("dir=desc");
    const second = await (await get(next, cookieOf(admin))).text();
    expect(names(second)).toEqual(["01", "00"]);
    // Retired ones only under "retired" or "all".
    const retired = await (
      await get(`/admin/rewards?q=${encodeURIComponent("分頁測試")}&status=retired`, cookieOf(admin))
    ).text();
    expect(names(retired)).toHaveLength(0);
    // Unknown values fall back to the defaults instead of failing.
    expect((await get("/admin/rewards?sort=drop%20table&dir=x&page=-3&status=zzz", cookieOf(admin))).status).toBe(200);
  });
});

describe("programme rules in the console", () => {
  const today = () => taipeiIsoDate(new Date());
  const rulesForm = (fields: Record<string, string> = {}) => ({
    amountPerPoint: "100",
    silverSpend: "40000",
    goldSpend: "200000",
    basicMultiplier: "1",
    silverMultiplier: "1.2",
    goldMultiplier: "1.5",
    welcomeEnabled: "on",
    welcomePoints: "100",
    birthdayEnabled: "on",
    birthdayPoints: "200",
    pointValue: "1",
    maxSpendPercent: "50",
    effectiveDate: today(),
    ...fields,
  });
  const baseVersion = async () => {
    const rows = await db.select({ id: schema.loyaltyRules.id }).from(schema.loyaltyRules);
    return String(Math.max(...rows.map((r) => r.id)));
  };

  it("refuses thresholds out of order and a past effective date", async () => {
    const order = await post(
      "/admin/rules",
      { ...rulesForm({ goldSpend: "30000" }), intent: "preview" },
      cookieOf(admin),
    );
    expect(order.status).toBe(400);
    expect(await order.text()).toContain("金卡門檻須高於銀卡門檻");
    const past = await post(
      "/admin/rules",
      { ...rulesForm({ effectiveDate: "2020-01-01" }), intent: "preview" },
      cookieOf(admin),
      "en",
    );
    expect(past.status).toBe(400);
    expect(await past.text()).toContain("cannot be before today");
  });

  it("previews the impact, saves only what was previewed, and tells the later of two admins", async () => {
    const base = await baseVersion();
    const fields = { ...rulesForm({ note: "<b>銀卡門檻</b>調整" }), baseVersion: base };
    // Saving without a preview shows the preview instead.
    const unpreviewed = await post("/admin/rules", { ...fields, intent: "save" }, cookieOf(admin));
    expect(unpreviewed.status).toBe(200);
    const previewHtml = await unpreviewed.text();
    expect(previewHtml).toContain('data-testid="impact"');
    const token = /name="previewToken" value="([^"]+)"/.exec(previewHtml)?.[1] ?? "";
    expect(token).not.toBe("");
    // A token for other values is not a preview of these.
    const changed = await post(
      "/admin/rules",
      { ...fields, silverSpend: "45000", previewToken: token, intent: "save" },
      cookieOf(admin),
    );
    expect(changed.status).toBe(200);
    expect(await db.select().from(schema.loyaltyRules)).toHaveLength(Number(base));

    const saved = await post("/admin/rules", { ...fields, previewToken: token, intent: "save" }, cookieOf(admin));
    expect(saved.status).toBe(302);
    const id = /saved=(\d+)/.exec(saved.headers.get("location") ?? "")?.[1] ?? "";
    const [row] = await db
      .select()
      .from(schema.loyaltyRules)
      .where(eq(schema.loyaltyRules.id, Number(id)));
    expect(row?.silverSpend).toBe(40_000);
    expect(row?.note).toBe("<b>銀卡門檻</b>調整");
    expect(await auditRows("rules.scheduled", id)).toHaveLength(1);
    const page = await (await get("/admin/rules", cookieOf(admin))).text();
    expect(page).toContain("&lt;b&gt;銀卡門檻&lt;/b&gt;調整");

    // The second admin had the page open on the old version.
    const late = await post("/admin/rules", { ...fields, previewToken: token, intent: "save" }, cookieOf(admin2));
    expect(late.status).toBe(409);
    const lateHtml = await late.text();
    expect(lateHtml).toContain(`#${id}`);
    expect(lateHtml).toContain('value="40000"');
    expect(await auditRows("rules.scheduled", String(Number(id) + 1))).toHaveLength(0);
  });

  it("shows the seeded version's note as 預設規則, not the developers' text", async () => {
    const page = await (await get("/admin/rules", cookieOf(admin))).text();
    expect(page).not.toContain("PRODUCT.md");
    expect(page).toMatch(/<td[^>]*>預設規則<\/td>/);
    const en = await (await get("/admin/rules", `${cookieOf(admin)}; locale=en`)).text();
    expect(en).toMatch(/<td[^>]*>Default rules<\/td>/);
  });

  // Last in this file: it leaves a version scheduled ahead, which later dates must follow.
  it("refuses a second version with the same effective date beside the field, keeping what was typed", async () => {
    const ahead = taipeiIsoDate(new Date(Date.now() + 40 * 86_400_000));
    const save = async (fields: Record<string, string>, staff: TestStaff) => {
      const form = { ...rulesForm({ effectiveDate: ahead, ...fields }), baseVersion: await baseVersion() };
      const preview = await (await post("/admin/rules", { ...form, intent: "preview" }, cookieOf(staff))).text();
      const token = /name="previewToken" value="([^"]+)"/.exec(preview)?.[1] ?? "";
      return post("/admin/rules", { ...form, previewToken: token, intent: "save" }, cookieOf(staff));
    };
    expect((await save({ note: "年中調整" }, admin)).status).toBe(302);
    const again = await save({ silverSpend: "41000", note: "同一天" }, admin2);
    expect(again.status).toBe(400);
    const html = await again.text();
    expect(html).toContain(`已有 ${ahead.replaceAll("-", "/")} 生效的版本，同一天只能有一個版本，請選擇之後的日期`);
    // Beside the field: the date input is marked invalid.
    const dateInput = /<input[^>]*name="effectiveDate"[^>]*>/.exec(html)?.[0] ?? "";
    expect(dateInput).toContain('aria-invalid="true"');
    expect(dateInput).toContain(`value="${ahead}"`);
    expect(html).toContain('value="41000"');
    expect(html).toContain('value="同一天"');
    const page = await (await get("/admin/rules", cookieOf(admin))).text();
    expect(page.match(/>已排定</g) ?? []).toHaveLength(1);
    const rows = await db.select().from(schema.loyaltyRules);
    expect(rows.filter((r) => taipeiIsoDate(r.effectiveFrom) === ahead)).toHaveLength(1);
  });
});
