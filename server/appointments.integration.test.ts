import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as VisitTestingModule from "../app/domain/appointments/testing.server";
import type * as CardTokensModule from "../app/domain/loyalty/card-tokens.server";
import type * as TestingModule from "../app/domain/loyalty/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * At the showroom over HTTP (issue 37 part 2, ADR 045): today's appointments on the counter, the card scan that
 * checks in, the check-in button; the console list, page and follow-ups with their permission (a clerk of another
 * store gets 404, a visitor without a console session the login), forged ids and NUL bytes answered with a 4xx.
 * The clock is pinned (test hooks) to 14:30 Taipei, so "today" does not depend on when the test runs.
 */
let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let drizzle: typeof import("drizzle-orm");
let visits: typeof VisitTestingModule;
let cards: typeof CardTokensModule;
let secret: string;
let clerk: TestStaff;
let colleague: TestStaff;
let stranger: TestStaff;
let admin: TestStaff;
let memberId: string;

const HOOKS = "visit-hooks-secret-0123456789-abcdefgh";
const NOW = new Date("2026-12-07T06:30:00.000Z");
const STORE = "xinyi-flagship";

const headersOf = (staff: TestStaff | null) => ({
  ...(staff ? { cookie: `han_console=${staff.token}` } : {}),
  accept: "text/html",
  "x-test-hooks-secret": HOOKS,
  "x-test-now": NOW.toISOString(),
});
const get = (pathname: string, staff: TestStaff | null) =>
  fetch(`${base}${pathname}`, { headers: headersOf(staff), redirect: "manual" });
const post = (pathname: string, fields: Record<string, string>, staff: TestStaff) =>
  fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { ...headersOf(staff), origin: base },
    redirect: "manual",
  });

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS }, "showroom_pages");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const testing = (await load("/app/domain/loyalty/testing.server.ts")) as typeof TestingModule;
  visits = (await load("/app/domain/appointments/testing.server.ts")) as typeof VisitTestingModule;
  cards = (await load("/app/domain/loyalty/card-tokens.server.ts")) as typeof CardTokensModule;
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  drizzle = await import("drizzle-orm");
  secret = app.running.config.secrets.session;
  admin = await staff.createTestStaff(db, secret, { role: "admin" });
  clerk = await staff.createTestStaff(db, secret, { role: "staff", storeIds: [STORE], displayName: "陳店員" });
  colleague = await staff.createTestStaff(db, secret, { role: "staff", storeIds: [STORE], displayName: "李顧問" });
  stranger = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["banqiao"], displayName: "別店員" });
  memberId = (await testing.newMember(db, { nameZh: "張預約" })).id;
}, 180_000);

afterAll(() => app?.stop());

const statusOf = async (id: string) =>
  (await db.select().from(schema.appointment).where(drizzle.eq(schema.appointment.id, id)))[0];

describe("the counter", () => {
  it("shows today's appointments; the card scan checks in the member's one booking and says so", async () => {
    const booked = await visits.bookTestAppointment(db, {
      storeId: STORE,
      kind: "consultation",
      startsAt: new Date("2026-12-07T07:00:00.000Z"),
      memberId,
      note: "想看霧面磁磚",
    });
    const start = await (await get("/admin/counter", clerk)).text();
    expect(start).toContain("今日預約");
    expect(start).toContain("張預約");
    expect(start).toContain("設計諮詢");
    expect(start).toContain("想看霧面磁磚");
    const { token } = cards.issueCardToken(secret, memberId, NOW);
    const scanned = await post("/admin/counter?index", { cardToken: token }, clerk);
    expect(scanned.status).toBe(302);
    expect(scanned.headers.get("location")).toMatch(
      new RegExp(`^/admin/counter/member/${memberId}\\?checkedIn=${booked.reference}&scan=[0-9a-z]+\\.[\\w-]{43}$`),
    );
    expect((await statusOf(booked.id))?.status).toBe("checked_in");
    const page = await (await get(scanned.headers.get("location") ?? "", clerk)).text();
    expect(page).toContain(`預約 ${booked.reference} 已報到。`);
    // The button of the same booking again: told, nothing changed.
    const again = await post("/admin/counter?index", { intent: "checkin", appointmentId: booked.id }, clerk);
    expect(again.headers.get("location")).toContain("already=1");
  });

  it("refuses a check-in button of another store (404), a forged id and a NUL byte (400), nothing changed", async () => {
    const there = await visits.bookTestAppointment(db, {
      storeId: "banqiao",
      startsAt: new Date("2026-12-07T07:00:00.000Z"),
      memberId,
    });
    const refused = await post("/admin/counter?index", { intent: "checkin", appointmentId: there.id }, clerk);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain("找不到這筆預約");
    expect((await post("/admin/counter?index", { intent: "checkin", appointmentId: "x'--" }, clerk)).status).toBe(400);
    const nul = await post("/admin/counter?index", { intent: "checkin", appointmentId: `${there.id}\u0000` }, clerk);
    expect(nul.status).toBeGreaterThanOrEqual(400);
    expect(nul.status).toBeLessThan(500);
    expect((await statusOf(there.id))?.status).toBe("booked");
  });
});

describe("the console's appointments", () => {
  it("lists the clerk's store today; another store is refused beside the filter; NUL bytes are a 4xx", async () => {
    const visit = await visits.bookTestAppointment(db, {
      storeId: STORE,
      startsAt: new Date("2026-12-07T08:00:00.000Z"),
      guestName: "林小姐",
    });
    const list = await get("/admin/appointments", clerk);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain("林小姐（訪客）");
    expect(html).toContain(`/admin/appointments/${visit.id}`);
    const other = await get("/admin/appointments?store=banqiao", clerk);
    expect(other.status).toBe(200);
    expect(await other.text()).toContain("您無法查看這家門市的預約");
    const badDay = await (await get("/admin/appointments?from=2026-02-30", clerk)).text();
    expect(badDay).toContain("請填寫有效的日期");
    const nul = await get("/admin/appointments?store=x%00y", clerk);
    expect(nul.status).toBeGreaterThanOrEqual(400);
    expect(nul.status).toBeLessThan(500);
    // In English.
    const english = await fetch(`${base}/admin/appointments`, {
      headers: { ...headersOf(clerk), cookie: `han_console=${clerk.token}; locale=en` },
    });
    const englishHtml = await english.text();
    expect(englishHtml).toContain("Today&#x27;s follow-ups");
    expect(englishHtml).toContain("林小姐 (guest)");
    // Without a console session: the console's login.
    const visitor = await get("/admin/appointments", null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toContain("/admin/login");
  });

  it("the page: a clerk of another store gets 404; a consultant of the store only; a note and follow-up after check-in", async () => {
    const visit = await visits.bookTestAppointment(db, {
      storeId: STORE,
      startsAt: new Date("2026-12-07T09:00:00.000Z"),
      memberId,
    });
    expect((await get(`/admin/appointments/${visit.id}`, stranger)).status).toBe(404);
    expect((await get("/admin/appointments/not-a-uuid", clerk)).status).toBe(404);
    expect((await post(`/admin/appointments/${visit.id}`, { intent: "cancel", version: "1" }, stranger)).status).toBe(
      404,
    );
    const forged = await post(
      `/admin/appointments/${visit.id}`,
      { intent: "consultant", version: "1", consultant: stranger.userId },
      clerk,
    );
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("請選擇這家門市的人員");
    expect((await post(`/admin/appointments/${visit.id}`, { intent: "bogus", version: "1" }, clerk)).status).toBe(400);
    const assigned = await post(
      `/admin/appointments/${visit.id}`,
      { intent: "consultant", version: "1", consultant: colleague.userId },
      clerk,
    );
    expect(assigned.status).toBe(302);
    expect((await statusOf(visit.id))?.consultantUserId).toBe(colleague.userId);
    // A stale version is a 409, what was chosen kept.
    const stale = await post(
      `/admin/appointments/${visit.id}`,
      { intent: "consultant", version: "1", consultant: clerk.userId },
      clerk,
    );
    expect(stale.status).toBe(409);
    const early = await post(
      `/admin/appointments/${visit.id}`,
      { intent: "note", version: "2", visitNote: "x", followUpOn: "" },
      clerk,
    );
    expect(early.status).toBe(409);
    await post("/admin/counter?index", { intent: "checkin", appointmentId: visit.id }, clerk);
    const noted = await post(
      `/admin/appointments/${visit.id}`,
      { intent: "note", version: "3", visitNote: "帶走兩片樣品\u0000", followUpOn: "2026-12-07" },
      colleague,
    );
    expect(noted.status).toBe(302);
    const row = await statusOf(visit.id);
    expect(row).toMatchObject({ visitNote: "帶走兩片樣品", followUpOn: "2026-12-07" });
    const mine = await (await get("/admin/appointments/follow-ups", colleague)).text();
    expect(mine).toContain("帶走兩片樣品");
    expect(await (await get("/admin/appointments/follow-ups", clerk)).text()).not.toContain("帶走兩片樣品");
    expect(await (await get("/admin/appointments/follow-ups?scope=all", admin)).text()).toContain("帶走兩片樣品");
    const done = await post("/admin/appointments/follow-ups", { appointmentId: visit.id, version: "4" }, colleague);
    expect(done.status).toBe(302);
    expect((await statusOf(visit.id))?.followUpDoneAt).not.toBeNull();
    const audits = await db
      .select({ action: schema.auditLog.action })
      .from(schema.auditLog)
      .where(drizzle.eq(schema.auditLog.targetId, visit.id));
    expect(audits.map((a) => a.action).sort()).toEqual([
      "appointment.checked_in",
      "appointment.consultant_assigned",
      "appointment.follow_up_done",
      "appointment.visit_noted",
    ]);
    // The member's console page lists the appointment.
    const memberPage = await (await get(`/admin/members/${memberId}`, clerk)).text();
    expect(memberPage).toContain("預約紀錄");
    expect(memberPage).toContain(`/admin/appointments/${visit.id}`);
  });
});
