import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as LoyaltyTestingModule from "../app/domain/loyalty/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import type * as TotpModule from "../app/domain/staff/totp";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The step-up code before exporting every member and before sending a campaign (issue 33 item 8), as the settings
 * ask for it: with a second factor older than the window, the export's address leads to the code page (nothing
 * exported, nothing audited) and the members page's export asks for the code beside its button; a campaign's send
 * comes back to its confirmation with the code field and nothing is sent; a wrong code is refused; the right one
 * goes ahead.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let totp: typeof TotpModule;
let staffTesting: typeof StaffTestingModule;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test" }, "console_step_up");
  base = app.base;
  db = app.running.database.db;
  await app.running.dispatcher.stop();
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  totp = (await load("/app/domain/staff/totp.ts")) as typeof TotpModule;
  staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const loyalty = (await load("/app/domain/loyalty/testing.server.ts")) as typeof LoyaltyTestingModule;
  await loyalty.newMember(db, { nameZh: "林雅婷", phoneNumber: "+886912345611", city: "屏東縣" });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;
const code = (staff: TestStaff) => totp.hotp(totp.base32Decode(staff.totpSecret), totp.totpStep(new Date()));

/** An admin whose last code is half an hour old. */
const staleAdmin = () =>
  staffTesting.createTestStaff(db, app.running.config.secrets.session, {
    role: "admin",
    secondFactorAt: new Date(Date.now() - 30 * 60_000),
  });

function get(pathname: string, cookie: string) {
  return fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });
}

function post(pathname: string, fields: Record<string, string>, cookie: string) {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie },
    redirect: "manual",
  });
}

const auditCount = async (action: string) =>
  (await db.select().from(schema.auditLog).where(eq(schema.auditLog.action, action))).length;

describe("the step-up code before exporting every member", () => {
  it("the export's address leads to the code page, which comes back; nothing is exported or audited before", async () => {
    const admin = await staleAdmin();
    const before = await auditCount("member.exported");
    const response = await get("/admin/members/export?q=%E9%9B%85%E5%A9%B7", cookieOf(admin));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `/admin/verify?redirectTo=${encodeURIComponent("/admin/members/export?q=%E9%9B%85%E5%A9%B7")}`,
    );
    expect(await auditCount("member.exported")).toBe(before);
  });

  it("the members page asks for the code beside its export button; a wrong one is refused; the right one exports", async () => {
    const admin = await staleAdmin();
    const before = await auditCount("member.exported");
    const page = "/admin/members?q=%E9%9B%85%E5%A9%B7";
    const listed = await (await get(page, cookieOf(admin))).text();
    expect(listed).toContain('data-testid="member-export"');
    expect(listed).not.toContain('data-testid="step-up"');
    const asked = await post(page, {}, cookieOf(admin));
    expect(asked.status).toBe(401);
    expect(await asked.text()).toContain('data-testid="step-up"');
    const wrong = await post(page, { stepUpCode: "000000" }, cookieOf(admin));
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("驗證碼錯誤或已使用過");
    expect(await auditCount("member.exported")).toBe(before);
    const given = await post(page, { stepUpCode: code(admin) }, cookieOf(admin));
    expect(given.status).toBe(302);
    expect(given.headers.get("location")).toBe("/admin/members/export?q=%E9%9B%85%E5%A9%B7");
    // The export itself is then loaded as a document (a download), within the renewed window.
    expect(given.headers.get("x-remix-reload-document")).toBe("true");
    const csv = await get(given.headers.get("location") ?? "", cookieOf(admin));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(await csv.text()).toContain("林雅婷");
    expect(await auditCount("member.exported")).toBe(before + 1);
  });

  it("a recent second factor exports at once, and a clerk is refused before any code", async () => {
    const admin = await staffTesting.createTestStaff(db, app.running.config.secrets.session, { role: "admin" });
    const given = await post("/admin/members", {}, cookieOf(admin));
    expect(given.status).toBe(302);
    expect(given.headers.get("location")).toBe("/admin/members/export");
    const clerk = await staffTesting.createTestStaff(db, app.running.config.secrets.session, {
      role: "staff",
      storeIds: ["xinyi-flagship"],
      secondFactorAt: new Date(Date.now() - 30 * 60_000),
    });
    expect((await post("/admin/members", {}, cookieOf(clerk))).status).toBe(403);
    expect((await get("/admin/members/export", cookieOf(clerk))).status).toBe(403);
  });
});

describe("the step-up code before sending a campaign", () => {
  const draft = {
    name: "七月會員日",
    city: "屏東縣",
    smsText: "七月會員日：全館建材九折。",
    when: "now",
  };

  it("comes back to the confirmation with the code field, sends nothing without the right code, then sends", async () => {
    const admin = await staleAdmin();
    const created = await post("/admin/messages/campaigns/new", { intent: "save", ...draft }, cookieOf(admin));
    expect(created.status).toBe(302);
    const path = created.headers.get("location")?.replace(/\?.*$/, "") ?? "";
    const id = path.split("/").pop() ?? "";
    const status = async () =>
      (await db.select().from(schema.campaign).where(eq(schema.campaign.id, id)))[0]?.status ?? null;

    // The confirmation shows the code field at once (the send will ask for it).
    const review = await post(path, { ...draft, intent: "review", version: "1" }, cookieOf(admin));
    expect(review.status).toBe(200);
    const confirm = await review.text();
    expect(confirm).toContain('data-testid="confirm-send"');
    expect(confirm).toContain('data-testid="step-up"');

    const asked = await post(path, { ...draft, intent: "send", version: "2" }, cookieOf(admin));
    expect(asked.status).toBe(401);
    const again = await asked.text();
    expect(again).toContain('data-testid="confirm-send"');
    expect(again).toContain('data-testid="step-up"');
    expect(again).toContain("七月會員日：全館建材九折。");
    const wrong = await post(path, { ...draft, intent: "send", version: "3", stepUpCode: "000000" }, cookieOf(admin));
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("驗證碼錯誤或已使用過");
    expect(await status()).toBe("draft");
    expect(
      (
        await db
          .select()
          .from(schema.auditLog)
          .where(and(eq(schema.auditLog.action, "campaign.sent"), eq(schema.auditLog.targetId, id)))
      ).length,
    ).toBe(0);

    const sent = await post(path, { ...draft, intent: "send", version: "4", stepUpCode: code(admin) }, cookieOf(admin));
    expect(sent.status, await sent.clone().text()).toBe(302);
    expect(sent.headers.get("location")).toBe(`${path}?sent=1`);
    expect(await status()).not.toBe("draft");
  });
});
