import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as PurchasesModule from "../app/domain/loyalty/purchases.server";
import type * as TestingModule from "../app/domain/loyalty/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The clerk on the sale's console pages over HTTP (issue 36 item 3, ADR 042): the staff code on a staff member's
 * page, the consultant form at the counter and on the member page (permission, audit), and the clerks' report with
 * its bad input answered as the page's message (400), never a 500.
 */
let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let drizzle: typeof import("drizzle-orm");
let admin: TestStaff;
let clerk: TestStaff;
let stranger: TestStaff;
let memberId: string;

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;
const get = (pathname: string, staff: TestStaff) =>
  fetch(`${base}${pathname}`, { headers: { cookie: cookieOf(staff), accept: "text/html" }, redirect: "manual" });
const post = (pathname: string, fields: Record<string, string>, staff: TestStaff) =>
  fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { cookie: cookieOf(staff), origin: base, accept: "text/html" },
    redirect: "manual",
  });

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test" }, "clerk_pages");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const testing = (await load("/app/domain/loyalty/testing.server.ts")) as typeof TestingModule;
  const purchases = (await load("/app/domain/loyalty/purchases.server.ts")) as typeof PurchasesModule;
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  drizzle = await import("drizzle-orm");
  const secret = app.running.config.secrets.session;
  admin = await staff.createTestStaff(db, secret, { role: "admin" });
  clerk = await staff.createTestStaff(db, secret, {
    role: "staff",
    storeIds: ["xinyi-flagship"],
    displayName: "林小櫃",
  });
  stranger = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["banqiao"], displayName: "別店員" });
  memberId = (await testing.newMember(db)).id;
  const at = new Date();
  await purchases.recordPurchase(
    db,
    {
      memberId,
      storeId: "xinyi-flagship",
      receiptNumber: "CLERK-PAGES-1",
      netAmount: 3280,
      purchasedAt: at,
      staffUserId: clerk.userId,
    },
    at,
  );
}, 180_000);

afterAll(() => app?.stop());

const auditCount = async (action: string, targetId: string) =>
  (
    await db
      .select()
      .from(schema.auditLog)
      .where(drizzle.and(drizzle.eq(schema.auditLog.action, action), drizzle.eq(schema.auditLog.targetId, targetId)))
  ).length;

describe("staff codes on the staff page", () => {
  it("are saved by an admin, refused beside the field when malformed or taken", async () => {
    const saved = await post(`/admin/staff/${clerk.userId}`, { intent: "code", staffCode: "lx01" }, admin);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toContain("done=code");
    expect(await auditCount("staff.code_changed", clerk.userId)).toBe(1);
    const page = await (await get(`/admin/staff/${clerk.userId}`, admin)).text();
    expect(page).toContain('value="LX01"');

    const bad = await post(`/admin/staff/${stranger.userId}`, { intent: "code", staffCode: "x!" }, admin);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("人員代碼須為 4 到 6 個英文字母或數字");
    const taken = await post(`/admin/staff/${stranger.userId}`, { intent: "code", staffCode: "LX01" }, admin);
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("這個人員代碼已有其他人員使用");
    // A clerk has no staff page at all.
    expect((await post(`/admin/staff/${stranger.userId}`, { intent: "code", staffCode: "ZZ01" }, clerk)).status).toBe(
      403,
    );
  });
});

describe("the consultant form", () => {
  it("binds the member to the clerk at the counter and shows it on both pages, audited", async () => {
    const summary = await (await get(`/admin/counter/member/${memberId}`, clerk)).text();
    expect(summary).toContain("專屬顧問");
    expect(summary).toContain("我（林小櫃）");
    const bound = await post(
      `/admin/counter/member/${memberId}`,
      { intent: "consultant", consultant: clerk.userId },
      clerk,
    );
    expect(bound.status).toBe(200);
    expect(await bound.text()).toContain("已更新專屬顧問");
    expect(await auditCount("member.consultant_changed", memberId)).toBe(1);
    const console = await (await get(`/admin/members/${memberId}`, admin)).text();
    expect(console).toContain("林小櫃");
  });

  it("refuses another store's clerk (403, audited) and an unknown consultant beside the field", async () => {
    const refusedBefore = await auditCount("console.access_refused", "member.consultant");
    const refused = await post(
      `/admin/members/${memberId}`,
      { intent: "consultant", consultant: stranger.userId },
      clerk,
    );
    expect(refused.status).toBe(403);
    const unknown = await post(`/admin/members/${memberId}`, { intent: "consultant", consultant: "nobody" }, clerk);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("請從清單中選擇一位在職人員");
    const nul = await post(`/admin/members/${memberId}`, { intent: "consultant", consultant: "a\u0000b" }, clerk);
    expect(nul.status).toBe(400);
    const [member] = await db.select().from(schema.member).where(drizzle.eq(schema.member.id, memberId));
    expect(member?.consultantUserId).toBe(clerk.userId);
    const refusals = await db
      .select()
      .from(schema.auditLog)
      .where(drizzle.eq(schema.auditLog.action, "console.access_refused"));
    expect(refusals.length).toBeGreaterThan(refusedBefore);
  });
});

describe("the clerks' report", () => {
  it("shows the clerk's sale and their member to the clerk", async () => {
    const res = await get("/admin/reports", clerk);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("人員業績");
    expect(page).toContain("NT$3,280");
    expect(page).toContain("林小櫃 的顧問名單");
  });

  it("answers bad dates and a NUL byte with a 400 page message, another store with 403", async () => {
    const reversed = await get("/admin/reports?from=2026-03-05&to=2026-03-01", clerk);
    expect(reversed.status).toBe(400);
    expect(await reversed.text()).toContain("結束日期不能早於開始日期");
    const badDay = await get("/admin/reports?from=2026-02-30", clerk);
    expect(badDay.status).toBe(400);
    const nul = await get("/admin/reports?from=2026-01-01%00", clerk);
    expect(nul.status).toBe(400);
    expect(nul.headers.get("content-type")).toContain("text/html");
    expect((await get("/admin/reports?store=banqiao", clerk)).status).toBe(403);
    expect((await get(`/admin/reports?consultant=${stranger.userId}`, clerk)).status).toBe(403);
    // An admin sees every store and anyone's list.
    expect((await get(`/admin/reports?consultant=${clerk.userId}&store=banqiao`, admin)).status).toBe(200);
  });
});
