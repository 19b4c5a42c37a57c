import type { Database } from "@platform/db/client";
import { auditLog, pointAdjustment, staffSession } from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../app/domain/auth/auth.server";
import { placeholderEmail, setPassword } from "../app/domain/auth/flows.server";
import { adjustPoints, memberPoints } from "../app/domain/loyalty/points.server";
import { newMember } from "../app/domain/loyalty/testing.server";
import { createMember } from "../app/domain/members/members.server";
import { createTestStaff, type TestStaff } from "../app/domain/staff/testing.server";
import { base32Decode, hotp, totpStep } from "../app/domain/staff/totp";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Point adjustments over HTTP, in the real app (createApp through Vite): who may open and post to the
 * three pages, every bad input answered beside its field with a 4xx (nothing booked), the step-up code
 * that keeps what was typed, and bodies that are not forms.
 */
let app: DevApp;
let running: DevApp["running"];
let base: string;
let db: Database;
let secret: string;
let manager: TestStaff;
let admin: TestStaff;
let admin2: TestStaff;
let clerk: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test" }, "adjust_http");
  running = app.running;
  base = app.base;
  db = running.database.db;
  secret = running.config.secrets.session;
  manager = await createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"], displayName: "張店長" });
  admin = await createTestStaff(db, secret, { role: "admin", displayName: "王總監" });
  admin2 = await createTestStaff(db, secret, { role: "admin", displayName: "李經理" });
  clerk = await createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function post(pathname: string, fields: Record<string, string>, cookie = "") {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie },
    redirect: "manual",
  });
}

function get(pathname: string, cookie = "") {
  return fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });
}

function adjustForm(fields: Record<string, string> = {}) {
  return { amount: "100", reason: "goodwill", detail: "", requestKey: crypto.randomUUID(), ...fields };
}

async function memberWith(points: number, fields: { disabled?: boolean } = {}) {
  const m = await newMember(db);
  if (points) await adjustPoints(db, { memberId: m.id, amount: points, reason: "seed", idempotencyKey: "seed" });
  if (fields.disabled) {
    const { member } = await import("@platform/db/schema");
    await db.update(member).set({ disabled: true }).where(eq(member.id, m.id));
  }
  return m;
}

describe("who may adjust, approve and change settings", () => {
  it("anonymous visitors and member sessions go to the console login; staff and managers get 403 where not theirs", async () => {
    const m = await memberWith(0);
    const pages = [`/admin/members/${m.id}/adjust`, "/admin/approvals", "/admin/settings"];
    // A member with a member session (the member center's cookie) has no console.
    const auth = createAuth({ db, config: running.config });
    const ctx = await auth.$context;
    const phone = "+886955123456";
    const user = await ctx.internalAdapter.createUser(
      { name: "會員", email: placeholderEmail(phone), phoneNumber: phone, phoneNumberVerified: true },
      { method: "phone-number" },
    );
    await setPassword({ auth }, user.id, "Granite-Terrace-2026!");
    await createMember(db, {
      userId: user.id,
      phoneNumber: phone,
      signupMethod: "phone",
      ip: null,
      profile: { nameZh: "會員", gender: "female", marketingSms: false, marketingEmail: false, marketingLine: false },
    });
    const login = await post("/member-login", {
      method: "phone",
      phone: "0955-123-456",
      password: "Granite-Terrace-2026!",
    });
    const memberCookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(memberCookie).not.toBe("");
    for (const cookie of ["", memberCookie]) {
      for (const pathname of pages) {
        const page = await get(pathname, cookie);
        expect(page.headers.get("location"), pathname).toMatch(/^\/admin\/login\?redirectTo=/);
        const posted = await post(
          pathname,
          adjustForm({ adjustmentId: "x", intent: "approve", managerLimit: "5" }),
          cookie,
        );
        expect(posted.headers.get("location"), pathname).toMatch(/^\/admin\/login/);
      }
    }
    for (const pathname of pages) {
      expect((await get(pathname, cookieOf(clerk))).status, pathname).toBe(403);
      expect((await post(pathname, adjustForm(), cookieOf(clerk))).status, pathname).toBe(403);
    }
    expect((await get("/admin/approvals", cookieOf(manager))).status).toBe(403);
    expect((await get("/admin/settings", cookieOf(manager))).status).toBe(403);
    expect((await post("/admin/settings", { managerLimit: "99999" }, cookieOf(manager))).status).toBe(403);
    expect((await memberPoints(db, m.id)).balance).toBe(0);
  });

  it("the navigation shows approvals and settings to admins only", async () => {
    const adminHome = await (await get("/admin", cookieOf(admin))).text();
    expect(adminHome).toContain('href="/admin/approvals"');
    expect(adminHome).toContain('href="/admin/settings"');
    const managerHome = await (await get("/admin", cookieOf(manager))).text();
    expect(managerHome).not.toContain('href="/admin/approvals"');
    expect(managerHome).not.toContain('href="/admin/settings"');
  });
});

describe("bad input on the adjustment form", () => {
  it("answers each beside its field with a 4xx, keeps what was typed, books nothing", async () => {
    const m = await memberWith(200);
    const cases: [string, Record<string, string>, number, string][] = [
      ["zero", { amount: "0" }, 400, "調整點數不能是 0"],
      ["negative beyond balance", { amount: "-201" }, 409, "會員目前只有 200 點，不能扣到負數"],
      ["fractional", { amount: "2.5" }, 400, "點數必須是整數，不能有小數"],
      ["huge", { amount: "99999999999999999999" }, 400, "單筆調整最多 1,000,000 點"],
      ["non-numeric", { amount: "一百" }, 400, "請輸入整數點數"],
      ["empty", { amount: "" }, 400, "請輸入點數"],
      ["unknown reason", { reason: "bribe" }, 400, "請從清單選擇原因"],
      ["other without words", { reason: "other", detail: " " }, 400, "選「其他」時請說明原因"],
      ["no form key", { requestKey: "" }, 400, "表單已過期"],
    ];
    for (const [name, fields, status, message] of cases) {
      const response = await post(
        `/admin/members/${m.id}/adjust`,
        adjustForm({ detail: "客人來電", ...fields }),
        cookieOf(manager),
      );
      expect(response.status, name).toBe(status);
      const html = await response.text();
      expect(html, name).toContain(message);
      expect(html, name).toContain(fields.detail === undefined ? "客人來電" : 'value="other"');
    }
    expect((await memberPoints(db, m.id)).balance).toBe(200);
    expect(await db.select().from(pointAdjustment).where(eq(pointAdjustment.memberId, m.id))).toEqual([]);
  });

  it("an unknown member is a 404, a disabled member a 422; nothing is booked", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await get(`/admin/members/${unknown}/adjust`, cookieOf(manager))).status).toBe(404);
    expect((await get("/admin/members/not-a-uuid/adjust", cookieOf(manager))).status).toBe(404);
    expect((await post(`/admin/members/${unknown}/adjust`, adjustForm(), cookieOf(manager))).status).toBe(404);
    const disabled = await memberWith(50, { disabled: true });
    const page = await get(`/admin/members/${disabled.id}/adjust`, cookieOf(manager));
    expect(await page.text()).toContain("此會員帳號已停用，無法調整點數。");
    const posted = await post(`/admin/members/${disabled.id}/adjust`, adjustForm(), cookieOf(manager));
    expect(posted.status).toBe(422);
    expect(await posted.text()).toContain("此會員帳號已停用");
    expect((await memberPoints(db, disabled.id)).balance).toBe(50);
  });

  it("refuses JSON, text/plain and broken bodies; NUL bytes are removed, not a 500", async () => {
    const m = await memberWith(0);
    for (const [type, body] of [
      ["application/json", JSON.stringify(adjustForm())],
      ["text/plain", "amount=100&reason=goodwill"],
    ] as const) {
      for (const pathname of [`/admin/members/${m.id}/adjust`, "/admin/approvals", "/admin/settings"]) {
        const response = await fetch(`${base}${pathname}`, {
          method: "POST",
          body,
          headers: { origin: base, "content-type": type, cookie: cookieOf(admin) },
          redirect: "manual",
        });
        expect(response.status, `${type} ${pathname}`).toBe(415);
      }
    }
    const nul = await post(
      `/admin/members/${m.id}/adjust`,
      adjustForm({ amount: "1\u00000", detail: "a\u0000b" }),
      cookieOf(manager),
    );
    expect(nul.status).toBe(302);
    expect((await memberPoints(db, m.id)).entries[0]).toMatchObject({ amount: 10, reason: "goodwill: ab" });
    const nulApproval = await post("/admin/approvals", { adjustmentId: "\u0000", intent: "approve" }, cookieOf(admin));
    expect(nulApproval.status).toBe(404);
    const nulSetting = await post("/admin/settings", { managerLimit: "\u0000" }, cookieOf(admin));
    expect(nulSetting.status).toBe(400);
  });
});

describe("four-eyes over HTTP", () => {
  it("a manager above the limit waits; the requester-admin cannot approve their own; another admin can", async () => {
    const m = await memberWith(0);
    const pending = await post(`/admin/members/${m.id}/adjust`, adjustForm({ amount: "1,500" }), cookieOf(manager));
    expect(pending.status).toBe(302);
    const result = await (await get(pending.headers.get("location") ?? "", cookieOf(manager))).text();
    expect(result).toContain("已送出，等待核准");
    expect((await memberPoints(db, m.id)).balance).toBe(0);
    const [row] = await db.select().from(pointAdjustment).where(eq(pointAdjustment.memberId, m.id));
    expect(row?.status).toBe("pending");
    // The manager cannot approve (403); an admin's own pending request cannot be approved by them (403).
    expect(
      (await post("/admin/approvals", { adjustmentId: row!.id, intent: "approve" }, cookieOf(manager))).status,
    ).toBe(403);
    await db.update(pointAdjustment).set({ requestedBy: admin.userId }).where(eq(pointAdjustment.id, row!.id));
    const own = await post("/admin/approvals", { adjustmentId: row!.id, intent: "approve" }, cookieOf(admin));
    expect(own.status).toBe(403);
    expect(await own.text()).toContain("不能核准自己提出的調整");
    const list = await (await get("/admin/approvals", cookieOf(admin2))).text();
    expect(list).toContain(m.memberNumber);
    expect(list).toContain("+1,500 點");
    expect(list).toContain("王總監");
    expect(list).toContain("信義旗艦店");
    const approved = await post("/admin/approvals", { adjustmentId: row!.id, intent: "approve" }, cookieOf(admin2));
    expect(approved.headers.get("location")).toBe("/admin/approvals?done=approved");
    expect((await memberPoints(db, m.id)).balance).toBe(1_500);
    const again = await post("/admin/approvals", { adjustmentId: row!.id, intent: "reject" }, cookieOf(admin));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("這筆調整已由其他人處理過了");
    const actions = (await db.select().from(auditLog).where(eq(auditLog.targetId, row!.id))).map((r) => r.action);
    expect(actions).toEqual(["points.adjustment_approved"]);
  });

  it("a manager's limit is cumulative per member and day: split adjustments wait once the total is above it (issue 33 item 3)", async () => {
    const m = await memberWith(1_000);
    const own = await createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const page = await (await get(`/admin/members/${m.id}/adjust`, cookieOf(own))).text();
    expect(page).toContain("您今天對同一位會員的調整合計超過 1,000 點");
    expect(page).toContain("所有會員的調整合計超過 5,000 點");
    const first = await post(`/admin/members/${m.id}/adjust`, adjustForm({ amount: "600" }), cookieOf(own));
    expect(first.status).toBe(302);
    // Taking points away counts too: 600 + 500 is above 1,000.
    const second = await post(`/admin/members/${m.id}/adjust`, adjustForm({ amount: "-500" }), cookieOf(own));
    expect(second.status).toBe(302);
    const result = await (await get(second.headers.get("location") ?? "", cookieOf(own))).text();
    expect(result).toContain("已送出，等待核准");
    expect(result).toContain("這筆 -500 點的調整加上您今天的其他調整，超過您的當日上限");
    const third = await post(`/admin/members/${m.id}/adjust`, adjustForm({ amount: "400" }), cookieOf(own));
    expect(third.status).toBe(302);
    const rows = await db.select().from(pointAdjustment).where(eq(pointAdjustment.memberId, m.id));
    expect(rows.map((r) => [r.amount, r.status]).sort()).toEqual([
      [-500, "pending"],
      [400, "booked"],
      [600, "booked"],
    ]);
    expect((await memberPoints(db, m.id)).balance).toBe(2_000);
    const requested = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, m.id), eq(auditLog.action, "points.adjustment_requested")));
    expect(requested).toHaveLength(1);
    expect(JSON.stringify(requested[0]?.changes)).toContain("over_daily_total");
  });

  it("an admin changes the manager's limit; bad limits are refused beside the field", async () => {
    for (const [value, message] of [
      ["-5", "請輸入 0 以上的整數"],
      ["1.5", "請輸入 0 以上的整數"],
      ["2000000", "上限最多 1,000,000 點"],
      ["abc", "請輸入 0 以上的整數"],
    ] as const) {
      const response = await post("/admin/settings", { managerLimit: value }, cookieOf(admin));
      expect(response.status, value).toBe(400);
      const html = await response.text();
      expect(html, value).toContain(message);
      expect(html, value).toContain(`value="${value}"`);
    }
    const saved = await post("/admin/settings", { managerLimit: "2,000" }, cookieOf(admin));
    expect(saved.headers.get("location")).toBe("/admin/settings?saved=1");
    const m = await memberWith(0);
    await post(`/admin/members/${m.id}/adjust`, adjustForm({ amount: "1500" }), cookieOf(manager));
    expect((await memberPoints(db, m.id)).balance).toBe(1_500);
    await post("/admin/settings", { managerLimit: "1000" }, cookieOf(admin));
  });
});

describe("the step-up code before sensitive actions", () => {
  it("an old second factor: the form comes back with the code field and the typed values; a wrong code is refused; the right one books", async () => {
    const staff = await createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const m = await memberWith(0);
    const old = new Date(Date.now() - 10 * 60_000);
    await db.update(staffSession).set({ secondFactorAt: old }).where(eq(staffSession.id, staff.sessionId));
    // The page itself shows the code field before the form is filled in (no redirect that loses anything).
    const page = await get(`/admin/members/${m.id}/adjust`, cookieOf(staff));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="step-up"');
    const form = adjustForm({ amount: "321", detail: "門市活動" });
    const asked = await post(`/admin/members/${m.id}/adjust`, form, cookieOf(staff));
    expect(asked.status).toBe(401);
    const html = await asked.text();
    expect(html).toContain('data-testid="step-up"');
    expect(html).toContain('value="321"');
    expect(html).toContain("門市活動");
    const wrong = await post(`/admin/members/${m.id}/adjust`, { ...form, stepUpCode: "000000" }, cookieOf(staff));
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("驗證碼錯誤或已使用過");
    expect((await memberPoints(db, m.id)).balance).toBe(0);
    const code = hotp(base32Decode(staff.totpSecret), totpStep(new Date()));
    const booked = await post(`/admin/members/${m.id}/adjust`, { ...form, stepUpCode: code }, cookieOf(staff));
    expect(booked.status).toBe(302);
    expect((await memberPoints(db, m.id)).balance).toBe(321);
    // The approvals and settings ask the same way.
    const [session] = await db.select().from(staffSession).where(eq(staffSession.id, admin2.sessionId));
    expect(session).toBeDefined();
    await db.update(staffSession).set({ secondFactorAt: old }).where(eq(staffSession.id, admin2.sessionId));
    expect(
      (await post("/admin/approvals", { adjustmentId: crypto.randomUUID(), intent: "approve" }, cookieOf(admin2)))
        .status,
    ).toBe(401);
    expect((await post("/admin/settings", { managerLimit: "5" }, cookieOf(admin2))).status).toBe(401);
  });
});
