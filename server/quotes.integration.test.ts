import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { taipeiIsoDate } from "../app/lib/time";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Quote lists over HTTP (issue 37 part 4, ADR 047): the member's request from favourites with bad quantities,
 * NUL bytes and forged ids answered beside the field with what was typed kept (never a 500, nothing stored),
 * another member's quote a 404; the console's list and answer for staff of the quote's store only, a negative
 * price beside its line, an answer over an old version a 409, and both printable pages.
 */
const HOOKS_SECRET = "quotes-test-hooks-secret-0123456789";
let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let drizzle: typeof import("drizzle-orm");
let clerk: TestStaff;
let stranger: TestStaff;
let member: { memberId: string; cookie: string };
let otherMember: { memberId: string; cookie: string };
let materials: string[];

async function hook(pathname: string, body: unknown) {
  const response = await fetch(`${base}/__test${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function signedInMember(phone: string) {
  const created = (await hook("/members", { phoneNumber: phone, name: "陳詢價", password: "Quote-Test-2026" })) as {
    userId: string;
    memberId: string;
  };
  const session = (await hook("/sessions", { userId: created.userId })) as { setCookie: string[] };
  return { memberId: created.memberId, cookie: session.setCookie.map((c) => c.split(";")[0]).join("; ") };
}

const headers = (cookie: string) => ({
  cookie: `${cookie}; locale=zh-TW`,
  origin: base,
  accept: "text/html",
  "x-test-hooks-secret": HOOKS_SECRET,
});
const get = (pathname: string, cookie: string) =>
  fetch(`${base}${pathname}`, { headers: headers(cookie), redirect: "manual" });
const post = (pathname: string, fields: Record<string, string>, cookie: string) =>
  fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: headers(cookie),
    redirect: "manual",
  });
const staffCookie = (staff: TestStaff) => `han_console=${staff.token}`;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, "quotes_pages");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  drizzle = await import("drizzle-orm");
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  clerk = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
  stranger = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["banqiao"] });
  member = await signedInMember("+886912000371");
  otherMember = await signedInMember("+886912000372");
  const rows = await db
    .select({ id: schema.material.id })
    .from(schema.material)
    .where(drizzle.eq(schema.material.published, true))
    .limit(2);
  materials = rows.map((r) => r.id);
  await db
    .insert(schema.materialFavourite)
    .values(materials.map((materialId) => ({ memberId: member.memberId, materialId })));
}, 180_000);

afterAll(() => app?.stop());

const [A, B] = [() => materials[0] as string, () => materials[1] as string];
const valid = () => ({
  storeId: "xinyi-flagship",
  message: "客廳與浴室",
  [`pick.${A()}`]: "on",
  [`qty.${A()}`]: "12.5",
  [`unit.${A()}`]: "m2",
  [`note.${A()}`]: "客廳",
  [`pick.${B()}`]: "on",
  [`qty.${B()}`]: "30",
  [`unit.${B()}`]: "piece",
});

async function quotesOf(memberId: string) {
  return db.select().from(schema.quoteRequest).where(drizzle.eq(schema.quoteRequest.memberId, memberId));
}

let quoteId = "";

describe("the member's quote request", () => {
  it("lists the favourites to price", async () => {
    const page = await get("/member-center/quotes/new", member.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`name="qty.${A()}"`);
    expect(html).toContain(`name="qty.${B()}"`);
    const english = await fetch(`${base}/member-center/quotes/new`, {
      headers: { ...headers(member.cookie), cookie: `${member.cookie}; locale=en` },
      redirect: "manual",
    });
    expect(await english.text()).toContain("Send the quote request");
  });

  it.each([
    ["0", "m2", "數量需大於 0"],
    ["-3", "m2", "數量需大於 0"],
    ["2.5", "piece", "以片計算時請填整數"],
    ["99999999", "m2", "數量最多 100,000"],
    ["1.234", "m2", "請填寫數字，最多兩位小數"],
  ])("refuses %s %s beside the field, keeping what was typed", async (qty, unit, message) => {
    const response = await post(
      "/member-center/quotes/new",
      { ...valid(), [`qty.${A()}`]: qty, [`unit.${A()}`]: unit },
      member.cookie,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain(message);
    expect(html).toContain(`value="${qty}"`);
    expect(html).toContain("客廳與浴室");
    expect(await quotesOf(member.memberId)).toEqual([]);
  });

  it("refuses a forged store or material beside the field, storing nothing", async () => {
    const store = await post("/member-center/quotes/new", { ...valid(), storeId: "no-such-store" }, member.cookie);
    expect(store.status).toBe(400);
    expect(await store.text()).toContain("找不到這間門市");
    const forged = await post(
      "/member-center/quotes/new",
      { ...valid(), "pick.forged-material": "on", "qty.forged-material": "1", "unit.forged-material": "piece" },
      member.cookie,
    );
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("有建材已下架或不存在");
    const shape = await post(
      "/member-center/quotes/new",
      { ...valid(), storeId: "'; drop table store; --" },
      member.cookie,
    );
    expect(shape.status).toBe(400);
    expect(await quotesOf(member.memberId)).toEqual([]);
  });

  it("takes NUL bytes out of what is stored, never a 500", async () => {
    const response = await post(
      "/member-center/quotes/new",
      { ...valid(), message: "客廳\u0000與浴室", [`note.${A()}`]: "客\u0000廳" },
      member.cookie,
    );
    expect(response.status).toBe(302);
    quoteId = /\/member-center\/quotes\/([0-9a-f-]{36})$/.exec(response.headers.get("location") ?? "")?.[1] ?? "";
    expect(quoteId).not.toBe("");
    const [stored] = await quotesOf(member.memberId);
    expect(stored?.message).toBe("客廳與浴室");
    const page = await get(`/member-center/quotes/${quoteId}`, member.cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(stored?.reference ?? "missing");
  });

  it("is not another member's to see or decide; a malformed id is a 404", async () => {
    expect((await get(`/member-center/quotes/${quoteId}`, otherMember.cookie)).status).toBe(404);
    expect((await get(`/member-center/quotes/${quoteId}/print`, otherMember.cookie)).status).toBe(404);
    expect(
      (await post(`/member-center/quotes/${quoteId}`, { intent: "withdraw", version: "1" }, otherMember.cookie)).status,
    ).toBe(404);
    expect((await get("/member-center/quotes/not-a-uuid", member.cookie)).status).toBe(404);
    expect((await get("/member-center/quotes", "")).status).toBe(302);
  });
});

describe("the console's answer", () => {
  it("is for staff of the quote's store: a clerk of another store neither sees nor answers it", async () => {
    expect((await get(`/admin/quotes/${quoteId}`, staffCookie(stranger))).status).toBe(403);
    expect((await get(`/admin/quotes/${quoteId}/print`, staffCookie(stranger))).status).toBe(403);
    const refused = await post(
      `/admin/quotes/${quoteId}`,
      { version: "1", "price.1": "100", "price.2": "10", validUntil: "2099-01-01" },
      staffCookie(stranger),
    );
    expect(refused.status).toBe(403);
    const list = await get("/admin/quotes", staffCookie(stranger));
    expect(list.status).toBe(200);
    expect(await list.text()).not.toContain(quoteId);
    expect((await get(`/admin/quotes/${quoteId}`, member.cookie)).headers.get("location")).toMatch(/^\/admin\/login/);
  });

  it("lists the store's quotes with validated filters", async () => {
    const list = await get("/admin/quotes?status=bogus&store=banqiao&page=-4", staffCookie(clerk));
    expect(list.status).toBe(200);
    expect(await list.text()).toContain(quoteId);
    expect((await get("/admin/quotes?status=%00", staffCookie(clerk))).status).toBe(400);
    expect((await get("/admin/quotes/00000000-0000-4000-8000-000000000000", staffCookie(clerk))).status).toBe(404);
    expect((await get("/admin/quotes/nope", staffCookie(clerk))).status).toBe(404);
  });

  it("refuses a negative price beside its line, keeping what was typed", async () => {
    const response = await post(
      `/admin/quotes/${quoteId}`,
      { version: "1", "price.1": "-5", "price.2": "85", validUntil: "2099-01-01", staffMessage: "含\u0000運" },
      staffCookie(clerk),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("單價不可為負數");
    expect(html).toContain('value="-5"');
    const [stored] = await quotesOf(member.memberId);
    expect(stored?.status).toBe("requested");
  });

  it("answers once; the same version again is a conflict; the member sees the answer and the printable page", async () => {
    // Today in Taipei (the validity is a Taipei date; a UTC date is yesterday between 00:00 and 08:00 Taipei).
    const today = taipeiIsoDate(new Date());
    const fields = { version: "1", "price.1": "1299", "price.2": "85", validUntil: today, staffMessage: "含運費" };
    const answered = await post(`/admin/quotes/${quoteId}`, fields, staffCookie(clerk));
    expect(answered.status).toBe(302);
    const again = await post(`/admin/quotes/${quoteId}`, { ...fields, "price.1": "1" }, staffCookie(clerk));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("剛被其他人回覆");
    const [stored] = await quotesOf(member.memberId);
    expect([stored?.status, stored?.total]).toEqual(["answered", 18788]);
    const audit = await db
      .select()
      .from(schema.auditLog)
      .where(
        drizzle.and(
          drizzle.eq(schema.auditLog.action, "quote.answered"),
          drizzle.eq(schema.auditLog.targetId, quoteId),
        ),
      );
    expect(audit).toHaveLength(1);
    const page = await get(`/member-center/quotes/${quoteId}`, member.cookie);
    const html = await page.text();
    expect(html).toContain("18,788");
    expect(html).toContain("含運費");
    expect(html).toContain("/appointments/book?store=xinyi-flagship&amp;kind=consultation");
    const print = await get(`/member-center/quotes/${quoteId}/print`, member.cookie);
    expect(print.status).toBe(200);
    expect(await print.text()).toContain("18,788");
    expect((await get(`/admin/quotes/${quoteId}/print`, staffCookie(clerk))).status).toBe(200);
  });
});
