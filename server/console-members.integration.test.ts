import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { waitFor } from "@platform/testing/wait";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AuditModule from "../app/domain/audit/audit.server";
import type * as OneTimeCodesModule from "../app/domain/auth/one-time-codes.server";
import type * as PointsModule from "../app/domain/loyalty/points.server";
import type * as PurchasesModule from "../app/domain/loyalty/purchases.server";
import type * as RewardsModule from "../app/domain/loyalty/rewards.server";
import type * as LoyaltyTestingModule from "../app/domain/loyalty/testing.server";
import type * as PrivacyModule from "../app/domain/members/privacy.server";
import type * as OutboxModule from "../app/domain/messaging/outbox.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The console's member pages over HTTP (issue 15 items 1 and 2): search by phone in any spelling, member number,
 * e-mail and part of a Chinese name through the name's character pairs; masked for clerks; the audited reveal;
 * disable / enable with a reason (ends the member's sessions), end sessions, cancel a coupon (points return),
 * notes; every bad input answered with a 4xx beside its field, nothing written.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let loyalty: typeof LoyaltyTestingModule;
let points: typeof PointsModule;
let rewards: typeof RewardsModule;
let audit: typeof AuditModule;
let purchases: typeof PurchasesModule;
let privacy: typeof PrivacyModule;
let outbox: typeof OutboxModule;
let codes: typeof OneTimeCodesModule;
let admin: TestStaff;
let manager: TestStaff;
let clerk: TestStaff;
let yating: Awaited<ReturnType<typeof LoyaltyTestingModule.newMember>>;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: "z".repeat(40) }, "console_members");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  loyalty = (await load("/app/domain/loyalty/testing.server.ts")) as typeof LoyaltyTestingModule;
  points = (await load("/app/domain/loyalty/points.server.ts")) as typeof PointsModule;
  rewards = (await load("/app/domain/loyalty/rewards.server.ts")) as typeof RewardsModule;
  audit = (await load("/app/domain/audit/audit.server.ts")) as typeof AuditModule;
  purchases = (await load("/app/domain/loyalty/purchases.server.ts")) as typeof PurchasesModule;
  privacy = (await load("/app/domain/members/privacy.server.ts")) as typeof PrivacyModule;
  outbox = (await load("/app/domain/messaging/outbox.server.ts")) as typeof OutboxModule;
  codes = (await load("/app/domain/auth/one-time-codes.server.ts")) as typeof OneTimeCodesModule;
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  admin = await staff.createTestStaff(db, secret, { role: "admin", displayName: "王總監" });
  manager = await staff.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
  clerk = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
  yating = await loyalty.newMember(db, {
    nameZh: "林雅婷",
    phoneNumber: "+886912345611",
    email: "yating@example.com",
    birthday: "1990-05-17",
  });
  await loyalty.newMember(db, { nameZh: "王美玲", phoneNumber: "+886912345622" });
  await loyalty.newMember(db, { nameZh: "陳雅琪", phoneNumber: "+886912345633" });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function get(pathname: string, cookie = "") {
  return fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });
}

function post(pathname: string, fields: Record<string, string>, cookie = "") {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie },
    redirect: "manual",
  });
}

/** The member numbers listed on a search page. */
async function listed(query: string, staff: TestStaff = admin): Promise<string[]> {
  const response = await get(`/admin/members?${query}`, cookieOf(staff));
  expect(response.status, query).toBe(200);
  return [...(await response.text()).matchAll(/href="\/admin\/members\/[0-9a-f-]{36}"[^>]*>(HL\d+)</g)].map(
    (m) => m[1] ?? "",
  );
}

async function auditRows(action: string, targetId: string) {
  const { and, eq } = await import("drizzle-orm");
  return db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, action), eq(schema.auditLog.targetId, targetId)));
}

describe("member search", () => {
  it("finds a member by part of a Chinese name, a phone typed any way, the number and the e-mail", async () => {
    expect((await get("/admin/members")).headers.get("location")).toMatch(/^\/admin\/login/);
    expect(await listed(`q=${encodeURIComponent("雅婷")}`)).toEqual([yating.memberNumber]);
    const ya = await listed(`q=${encodeURIComponent("雅")}`);
    expect(ya).toContain(yating.memberNumber);
    expect(ya).toHaveLength(2);
    expect(await listed(`q=${encodeURIComponent("0912-345-611")}`)).toEqual([yating.memberNumber]);
    expect(await listed(`q=${encodeURIComponent("+886 912 345 611")}`)).toEqual([yating.memberNumber]);
    expect(await listed(`q=${yating.memberNumber.toLowerCase()}`)).toEqual([yating.memberNumber]);
    expect(await listed("q=YaTing%40Example.com")).toEqual([yating.memberNumber]);
    // Names in full for a manager, masked for a clerk; the phone masked for both.
    const managerPage = await (await get(`/admin/members?q=${encodeURIComponent("雅婷")}`, cookieOf(manager))).text();
    expect(managerPage).toContain("林雅婷");
    expect(managerPage).not.toContain("0912345611");
    const clerkPage = await (await get(`/admin/members?q=${encodeURIComponent("雅婷")}`, cookieOf(clerk))).text();
    expect(clerkPage).toContain("林○婷");
    expect(clerkPage).not.toContain("林雅婷");
    expect(clerkPage).toContain("•••••••611");
  });

  it("takes SQL and regex characters literally, refuses a 1,000-character search and reversed dates beside the field", async () => {
    for (const q of ["' or 1=1 --", "%", "_", ".*", "\\", "雅%婷", "(?<x>)"]) {
      expect(await listed(`q=${encodeURIComponent(q)}`), q).toEqual([]);
    }
    const long = await get(`/admin/members?q=${"雅".repeat(1000)}`, cookieOf(admin));
    expect(long.status).toBe(200);
    const longHtml = await long.text();
    expect(longHtml).toContain("搜尋字串最多 100 個字");
    expect(longHtml).toContain('aria-invalid="true"');
    const reversed = await (await get("/admin/members?from=2026-05-10&to=2026-05-01", cookieOf(admin))).text();
    expect(reversed).toContain("迄日不能早於起日");
    const badDate = await (await get("/admin/members?from=2026-13-45", cookieOf(admin))).text();
    expect(badDate).toContain("請輸入正確的日期");
    // Twenty years of sign-ups is a range like any other (the keyset pages keep it cheap).
    expect(await listed(`q=${encodeURIComponent("雅婷")}&from=2010-01-01&to=2030-01-01`)).toEqual([
      yating.memberNumber,
    ]);
    expect(await listed(`q=${encodeURIComponent("雅婷")}&from=1990-01-01&to=2010-01-01`)).toEqual([]);
    expect(
      (
        await get(
          `/admin/members/export?q=${encodeURIComponent("雅婷")}&from=2006-01-01&to=2026-12-31`,
          cookieOf(admin),
        )
      ).status,
    ).toBe(200);
    expect((await get("/admin/members/export?from=2026-05-10&to=2026-05-01", cookieOf(admin))).status).toBe(400);
  });

  it("pages by 25 with a keyset cursor, newest members first, no row twice", async () => {
    for (let i = 0; i < 30; i++) await loyalty.newMember(db, { nameZh: `分頁${String(i).padStart(2, "0")}號` });
    const page1 = await (await get(`/admin/members?q=${encodeURIComponent("分頁")}`, cookieOf(admin))).text();
    const first = [...page1.matchAll(/>(HL\d+)</g)].map((m) => m[1]);
    expect(first).toHaveLength(25);
    const next = /href="(\/admin\/members\?[^"]*after=[^"]+)"/.exec(page1)?.[1]?.replaceAll("&amp;", "&") ?? "";
    const page2 = await (await get(next, cookieOf(admin))).text();
    const second = [...page2.matchAll(/>(HL\d+)</g)].map((m) => m[1]);
    expect(second).toHaveLength(5);
    expect(new Set([...first, ...second]).size).toBe(30);
    expect((await get("/admin/members?after=garbage", cookieOf(admin))).status).toBe(200);
  });
});

describe("one member in the console", () => {
  it("masks for a clerk, reveals for a manager (audited), and refuses a clerk's reveal", async () => {
    const page = `/admin/members/${yating.id}`;
    const clerkView = await (await get(page, cookieOf(clerk))).text();
    expect(clerkView).toContain("林○婷");
    expect(clerkView).not.toContain("yating@example.com");
    expect(clerkView).not.toContain("1990-05-17");
    expect((await post(page, { intent: "reveal" }, cookieOf(clerk))).status).toBe(403);
    expect(await auditRows("member.revealed", yating.id)).toHaveLength(0);

    const revealed = await post(page, { intent: "reveal" }, cookieOf(manager));
    expect(revealed.status).toBe(200);
    const html = await revealed.text();
    expect(html).toContain("林雅婷");
    expect(html).toContain("+886912345611");
    expect(html).toContain("yating@example.com");
    const rows = await auditRows("member.revealed", yating.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.actorUserId).toBe(manager.userId);
    expect(JSON.stringify(rows[0]?.changes)).not.toContain("林雅婷");
    expect((await get("/admin/members/not-a-uuid", cookieOf(admin))).status).toBe(404);
  });

  it("shows internal notes only to who may reveal: a clerk's page and loader data hold no note text (issue 33 item 6)", async () => {
    const member = await loyalty.newMember(db, { nameZh: "備註測試" });
    const page = `/admin/members/${member.id}`;
    const text = "客人說下週搬到台中，新地址再補";
    expect((await post(page, { intent: "note", note: text }, cookieOf(manager))).status).toBe(302);

    for (const path of [page, `${page}.data`]) {
      const clerkView = await get(path, cookieOf(clerk));
      expect(clerkView.status, path).toBe(200);
      const body = await clerkView.text();
      expect(body, path).not.toContain(text);
      expect(body, path).not.toContain("下週搬到台中");
    }
    expect(await (await get(page, cookieOf(clerk))).text()).toContain('data-testid="member-notes-hidden"');
    for (const staff of [manager, admin]) {
      for (const path of [page, `${page}.data`]) {
        expect(await (await get(path, cookieOf(staff))).text(), `${staff.role} ${path}`).toContain(text);
      }
    }
    // The audited reveal shows them too.
    expect(await (await post(page, { intent: "reveal" }, cookieOf(manager))).text()).toContain(text);
  });

  it("disables with a reason (ending the member's sessions) once, enables again; refuses without a reason", async () => {
    const member = await loyalty.newMember(db, { nameZh: "停用測試" });
    const page = `/admin/members/${member.id}`;
    await db.insert(schema.authSession).values({
      id: crypto.randomUUID(),
      token: crypto.randomUUID(),
      userId: member.userId,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    await db.insert(schema.memberDevice).values({ memberId: member.id, name: "iphone/safari", secretEncrypted: "x" });
    expect((await post(page, { intent: "disable", reason: "x", confirmed: "1" }, cookieOf(manager))).status).toBe(403);
    const noReason = await post(page, { intent: "disable", reason: "   ", confirmed: "1" }, cookieOf(admin));
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("請填寫原因");
    // The page's tick box is checked here too: a post without it changes nothing.
    const unconfirmed = await post(page, { intent: "disable", reason: "客訴調查中" }, cookieOf(admin));
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("請勾選確認，才能變更會員狀態");
    expect(await auditRows("member.disabled", member.id)).toHaveLength(0);
    const disabled = await post(page, { intent: "disable", reason: "客訴調查中", confirmed: "1" }, cookieOf(admin));
    expect(disabled.headers.get("location")).toBe(`${page}?done=disable`);
    const again = await post(page, { intent: "disable", reason: "再一次", confirmed: "1" }, cookieOf(admin));
    expect(again.status).toBe(302);
    expect(await auditRows("member.disabled", member.id)).toHaveLength(1);
    const { eq } = await import("drizzle-orm");
    expect(await db.select().from(schema.authSession).where(eq(schema.authSession.userId, member.userId))).toHaveLength(
      0,
    );
    expect(await (await get(page, cookieOf(admin))).text()).toContain('data-testid="member-disabled"');
    // The offline card stopped with the sessions.
    const [card] = await db.select().from(schema.memberDevice).where(eq(schema.memberDevice.memberId, member.id));
    expect(card?.revokedAt).not.toBeNull();
    expect((await auditRows("member.disabled", member.id))[0]?.changes).toMatchObject({
      cardsRevoked: { after: 1 },
    });
    await post(page, { intent: "enable", reason: "調查結束", confirmed: "1" }, cookieOf(admin));
    const [after] = await db.select().from(schema.member).where(eq(schema.member.id, member.id));
    expect(after?.disabled).toBe(false);

    // A deleted (anonymised) member cannot be changed.
    const gone = await loyalty.newMember(db, { nameZh: "已刪除", disabled: true, deletedAt: new Date() });
    const refused = await post(
      `/admin/members/${gone.id}`,
      { intent: "enable", reason: "試試", confirmed: "1" },
      cookieOf(admin),
    );
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("已刪除帳號");
  });

  it("ends every session of a member and revokes their offline cards, audited with both counts", async () => {
    const { eq } = await import("drizzle-orm");
    const member = await loyalty.newMember(db, { nameZh: "遺失手機" });
    await db.insert(schema.authSession).values({
      id: crypto.randomUUID(),
      token: crypto.randomUUID(),
      userId: member.userId,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    await db.insert(schema.memberDevice).values([
      { memberId: member.id, name: "iphone/safari", secretEncrypted: "x", sessionId: "gone" },
      { memberId: member.id, name: "pixel/chrome", secretEncrypted: "y" },
    ]);
    const ended = await post(`/admin/members/${member.id}`, { intent: "end-sessions" }, cookieOf(admin));
    expect(ended.status).toBe(302);
    expect(await db.select().from(schema.authSession).where(eq(schema.authSession.userId, member.userId))).toEqual([]);
    const cards = await db.select().from(schema.memberDevice).where(eq(schema.memberDevice.memberId, member.id));
    expect(cards.map((c) => c.revokedAt !== null)).toEqual([true, true]);
    const [row] = await auditRows("member.sessions_ended", member.id);
    expect(row?.changes).toMatchObject({ sessionsEnded: { after: 1 }, cardsRevoked: { after: 2 } });
  });

  it("cancels an unused coupon (the points come back) once, adds a note, and refuses a used or foreign coupon", async () => {
    const member = await loyalty.newMember(db, { nameZh: "優惠測試" });
    await points.adjustPoints(db, { memberId: member.id, amount: 500, reason: "seed", idempotencyKey: "seed" });
    const [item] = await db
      .insert(schema.reward)
      .values({ name: "NT$100 折價券", kind: "amount-off", amountOff: 100, pointsCost: 300 })
      .returning();
    const { coupon } = await rewards.redeemReward(db, {
      memberId: member.id,
      rewardId: item?.id ?? "",
      idempotencyKey: "c1",
    });
    const page = `/admin/members/${member.id}`;
    const other = await loyalty.newMember(db);
    const foreign = await post(
      `/admin/members/${other.id}`,
      { intent: "cancel-coupon", couponId: coupon.id, confirmed: "1" },
      cookieOf(admin),
    );
    expect(foreign.status).toBe(404);
    const cancelled = await post(
      page,
      { intent: "cancel-coupon", couponId: coupon.id, confirmed: "1" },
      cookieOf(admin),
    );
    expect(cancelled.status).toBe(302);
    expect((await points.memberPoints(db, member.id)).balance).toBe(500);
    await post(page, { intent: "cancel-coupon", couponId: coupon.id, confirmed: "1" }, cookieOf(admin));
    expect(await auditRows("coupon.cancelled", coupon.id)).toHaveLength(1);

    const emptyNote = await post(page, { intent: "note", note: "" }, cookieOf(manager));
    expect(emptyNote.status).toBe(400);
    expect(await emptyNote.text()).toContain("請輸入備註");
    expect((await post(page, { intent: "note", note: "想看大理石" }, cookieOf(clerk))).status).toBe(403);
    expect(
      (await post(page, { intent: "note", note: "來電詢問<script>alert(1)</script>" }, cookieOf(manager))).status,
    ).toBe(302);
    const html = await (await get(page, cookieOf(admin))).text();
    expect(html).toContain("來電詢問&lt;script&gt;");
    const notes = await auditRows("member.note_added", member.id);
    expect(notes).toHaveLength(1);
    expect(JSON.stringify(notes[0]?.changes)).not.toContain("來電詢問");
    for (const [type, body] of [
      ["application/json", JSON.stringify({ intent: "note", note: "x" })],
      ["text/plain", "intent=note&note=x"],
    ] as const) {
      const response = await fetch(`${base}${page}`, {
        method: "POST",
        body,
        headers: { origin: base, "content-type": type, cookie: cookieOf(admin) },
      });
      expect(response.status, type).toBe(415);
    }
    expect(await audit.verifyAuditChain(db)).toMatchObject({ ok: true });
  });

  it("shows an expired coupon as expired, never cancels it for points; cancelling an unused one asks first and says what happened", async () => {
    const member = await loyalty.newMember(db, { nameZh: "過期測試" });
    await points.adjustPoints(db, { memberId: member.id, amount: 400, reason: "seed", idempotencyKey: "seed" });
    const [item] = await db
      .insert(schema.reward)
      .values({ name: "過期兌換券", kind: "gift", pointsCost: 100, couponValidDays: 1 })
      .returning();
    const [fresh] = await db
      .insert(schema.reward)
      .values({ name: "有效兌換券", kind: "gift", pointsCost: 100, couponValidDays: 30 })
      .returning();
    // Redeemed ten days ago for one day: expired (the member center shows 已過期).
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    const expired = (
      await rewards.redeemReward(
        db,
        { memberId: member.id, rewardId: item?.id ?? "", idempotencyKey: "e1" },
        tenDaysAgo,
      )
    ).coupon;
    const usable = (
      await rewards.redeemReward(db, { memberId: member.id, rewardId: fresh?.id ?? "", idempotencyKey: "u1" })
    ).coupon;
    expect((await points.memberPoints(db, member.id)).balance).toBe(200);
    const page = `/admin/members/${member.id}`;

    // The same status as the member center: 已過期, with no way to cancel it.
    const html = await (await get(page, cookieOf(admin))).text();
    const lineOf = (name: string) => html.split("<li").find((part) => part.includes(name)) ?? "";
    expect(lineOf("過期兌換券")).toContain("已過期");
    expect(lineOf("過期兌換券")).not.toContain("可使用");
    expect(lineOf("過期兌換券")).not.toContain("退回點數");
    expect(lineOf("有效兌換券")).toContain("可使用");
    expect(lineOf("有效兌換券")).toContain(`?cancel=${usable.id}`);

    // Posted anyway: refused with its message, no points back, nothing audited.
    const refused = await post(
      page,
      { intent: "cancel-coupon", couponId: expired.id, confirmed: "1" },
      cookieOf(admin),
    );
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("這張優惠券已過期，無法取消並退回點數");
    const english = await fetch(`${base}${page}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "cancel-coupon", couponId: expired.id, confirmed: "1" }),
      headers: { origin: base, cookie: `${cookieOf(admin)}; locale=en`, "accept-language": "en" },
      redirect: "manual",
    });
    expect(await english.text()).toContain("This coupon has expired; its points cannot be returned");
    expect((await points.memberPoints(db, member.id)).balance).toBe(200);
    expect(await auditRows("coupon.cancelled", expired.id)).toHaveLength(0);

    // An unused coupon: the button asks first (the points named), a post without the confirmation only asks.
    const asking = await (await get(`${page}?cancel=${usable.id}`, cookieOf(admin))).text();
    expect(asking).toContain("確定取消「有效兌換券」並退回 100 點？");
    const unconfirmed = await post(page, { intent: "cancel-coupon", couponId: usable.id }, cookieOf(admin));
    expect(unconfirmed.status).toBe(302);
    expect(unconfirmed.headers.get("location")).toBe(`${page}?cancel=${usable.id}`);
    expect((await points.memberPoints(db, member.id)).balance).toBe(200);
    const confirmed = await post(
      page,
      { intent: "cancel-coupon", couponId: usable.id, confirmed: "1" },
      cookieOf(admin),
    );
    expect(confirmed.status).toBe(302);
    const done = confirmed.headers.get("location") ?? "";
    expect(done).toBe(`${page}?done=cancel-coupon&coupon=${usable.id}`);
    expect((await points.memberPoints(db, member.id)).balance).toBe(300);
    expect(await (await get(done, cookieOf(admin))).text()).toContain("已取消「有效兌換券」，100 點已退回會員帳戶");
  });

  it("exports the filtered list as CSV for admins only, formulas neutralised, consents included, audited", async () => {
    await loyalty.newMember(db, { nameZh: '=HYPERLINK("http://x")', phoneNumber: "+886912345644", marketingSms: true });
    await loyalty.newMember(db, { nameZh: "@雅婷", phoneNumber: "+886912345655" });
    await loyalty.newMember(db, { nameZh: "-雅婷+1", phoneNumber: "+886912345666" });
    expect((await get("/admin/members/export", cookieOf(manager))).status).toBe(403);
    expect((await get("/admin/members/export", cookieOf(clerk))).status).toBe(403);
    expect((await get("/admin/members/export?from=2026-99-99", cookieOf(admin))).status).toBe(400);
    const response = await get(`/admin/members/export?q=${encodeURIComponent("0912-345-644")}`, cookieOf(admin));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const csv = (await response.text()).replace(/^\uFEFF/, "");
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe(
      "member_number,name,phone,email,tier,balance,disabled,signed_up_at,signup_method,marketing_sms,marketing_email,marketing_line,last_purchase_store,last_purchase_at",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(lines[1]).toContain(`"+886912345644"`.replace('"+', `"'+`));
    expect(lines[1]).toMatch(/"true","false","false","",""$/);
    const all = (
      await (await get(`/admin/members/export?q=${encodeURIComponent("雅婷")}`, cookieOf(admin))).text()
    ).trim();
    expect(all).toContain(`"'@雅婷"`);
    expect(all).toContain(`"'-雅婷+1"`);
    expect(all).toContain(`"林雅婷"`);
    const { eq } = await import("drizzle-orm");
    const exports = await db.select().from(schema.auditLog).where(eq(schema.auditLog.action, "member.exported"));
    // Two here and the twenty-year export of the search test.
    expect(exports).toHaveLength(3);
    expect(exports[0]?.actorUserId).toBe(admin.userId);
  });
});

describe("the store of the last purchase", () => {
  it("filters the list and the CSV by it, a manager by their own stores only; an older receipt booked late does not move it", async () => {
    const day = 86_400_000;
    const now = Date.now();
    const buy = (memberId: string, storeId: string, daysAgo: number) =>
      purchases.recordPurchase(db, {
        memberId,
        storeId,
        receiptNumber: `R-${crypto.randomUUID()}`,
        netAmount: 1200,
        purchasedAt: new Date(now - daysAgo * day),
      });
    const movedOn = await loyalty.newMember(db, { nameZh: "門市測試甲" });
    await buy(movedOn.id, "xinyi-flagship", 3);
    await buy(movedOn.id, "neihu-design-center", 1);
    const xinyiOnly = await loyalty.newMember(db, { nameZh: "門市測試乙" });
    await buy(xinyiOnly.id, "xinyi-flagship", 2);
    const lateReceipt = await loyalty.newMember(db, { nameZh: "門市測試丙" });
    await buy(lateReceipt.id, "xinyi-flagship", 1);
    await buy(lateReceipt.id, "neihu-design-center", 5);
    await loyalty.newMember(db, { nameZh: "門市測試丁" });

    const q = `q=${encodeURIComponent("門市測試")}`;
    expect(await listed(q)).toHaveLength(4);
    expect(await listed(`${q}&store=xinyi-flagship`)).toEqual([lateReceipt.memberNumber, xinyiOnly.memberNumber]);
    expect(await listed(`${q}&store=neihu-design-center`)).toEqual([movedOn.memberNumber]);
    expect(await listed(`${q}&store=neihu-design-center&tier=basic`)).toEqual([movedOn.memberNumber]);
    const { eq } = await import("drizzle-orm");
    const [account] = await db
      .select()
      .from(schema.loyaltyAccount)
      .where(eq(schema.loyaltyAccount.memberId, lateReceipt.id));
    expect(account?.lastPurchaseAt?.getTime()).toBe(now - day);
    const [row] = await db
      .select()
      .from(schema.memberLastStore)
      .where(eq(schema.memberLastStore.memberId, lateReceipt.id));
    expect(row?.storeId).toBe("xinyi-flagship");

    // A manager chooses among their own stores; another store in the URL is refused beside the field.
    const own = await (await get(`/admin/members?${q}`, cookieOf(manager))).text();
    expect(own).toContain('value="xinyi-flagship"');
    expect(own).not.toContain('value="neihu-design-center"');
    expect(await listed(`${q}&store=xinyi-flagship`, manager)).toHaveLength(2);
    const foreign = await get(`/admin/members?${q}&store=neihu-design-center`, cookieOf(manager));
    expect(foreign.status).toBe(200);
    const foreignHtml = await foreign.text();
    expect(foreignHtml).toContain("請選擇您負責的門市");
    expect(foreignHtml).not.toContain(movedOn.memberNumber);
    expect(await listed(`${q}&store=${encodeURIComponent("' or 1=1 --")}`)).toEqual([]);

    const csv = await get(`/admin/members/export?${q}&store=neihu-design-center`, cookieOf(admin));
    expect(csv.status).toBe(200);
    const rows = (await csv.text()).trim().split("\r\n").slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`"${movedOn.memberNumber}"`);
    expect(rows[0]).toMatch(/"neihu-design-center","\d{4}-\d{2}-\d{2}T[^"]+"$/);
    expect((await get("/admin/members/export?store=nowhere", cookieOf(admin))).status).toBe(400);
  });
});

describe("resend the e-mail verification", () => {
  const HOOKS = { "x-test-hooks-secret": "z".repeat(40) };
  /** A POST at a pinned server time (the test clock of APP_ENV=test, X-Test-Now). */
  function postAt(at: Date, pathname: string, fields: Record<string, string>, cookie: string) {
    return fetch(`${base}${pathname}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { origin: base, cookie, ...HOOKS, "x-test-now": at.toISOString() },
      redirect: "manual",
    });
  }

  it("sends a new code to an unverified address (admins, audited), within the address's cooldown and limits; the code verifies", async () => {
    const address = `pending-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const m = await loyalty.newMember(db, { nameZh: "驗證信測試", pendingEmail: address });
    const page = `/admin/members/${m.id}`;
    const shown = await (await get(page, cookieOf(admin))).text();
    expect(shown).toContain('value="resend-verification"');
    expect(shown).toContain('data-testid="member-pending-email"');
    expect(shown).not.toContain(address);
    expect(await (await get(page, cookieOf(manager))).text()).not.toContain('value="resend-verification"');
    for (const staff of [manager, clerk]) {
      expect((await post(page, { intent: "resend-verification" }, cookieOf(staff))).status).toBe(403);
    }

    // Within one clock hour (the address's hourly limit is 5), a minute apart (the cooldown is 60 s).
    const hour = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
    const at = (seconds: number) => new Date(hour + seconds * 1000);
    const first = await postAt(at(0), page, { intent: "resend-verification" }, cookieOf(admin));
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(`${page}?done=resend-verification`);
    expect(await (await get(`${page}?done=resend-verification`, cookieOf(admin))).text()).toContain("已寄出新的驗證碼");
    const [mail] = await waitFor(
      () => outbox.readOutbox(db, { to: address, channel: "email" }),
      (messages) => messages.length === 1,
    );
    const code = /\b(\d{6})\b/.exec(mail?.body ?? "")?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);
    const secret = app.running.config.secrets.session;
    expect(await codes.verifyCode(db, { purpose: "verify-email", target: address, code, secret }, at(1))).toEqual({
      ok: true,
    });

    const tooSoon = await postAt(at(30), page, { intent: "resend-verification" }, cookieOf(admin));
    expect(tooSoon.status).toBe(429);
    expect(await tooSoon.text()).toContain("嘗試次數過多");
    for (let i = 1; i <= 4; i++) {
      expect((await postAt(at(61 * i), page, { intent: "resend-verification" }, cookieOf(admin))).status).toBe(302);
    }
    const sixth = await postAt(at(61 * 5), page, { intent: "resend-verification" }, cookieOf(admin));
    expect(sixth.status).toBe(429);
    const sent = await auditRows("member.email_verification_sent", m.id);
    expect(sent).toHaveLength(5);
    expect(sent[0]?.actorUserId).toBe(admin.userId);
    expect(JSON.stringify(sent.map((r) => r.changes))).not.toContain(address);

    // Nothing to verify: a verified address, or a deleted member.
    const verified = await loyalty.newMember(db, { email: `ok-${crypto.randomUUID().slice(0, 8)}@example.com` });
    const none = await post(`/admin/members/${verified.id}`, { intent: "resend-verification" }, cookieOf(admin));
    expect(none.status).toBe(409);
    expect(await none.text()).toContain("這位會員沒有待驗證的 E-mail");
    const gone = await loyalty.newMember(db, {
      pendingEmail: "gone@example.com",
      disabled: true,
      deletedAt: new Date(),
    });
    expect((await post(`/admin/members/${gone.id}`, { intent: "resend-verification" }, cookieOf(admin))).status).toBe(
      409,
    );
    expect(await auditRows("member.email_verification_sent", verified.id)).toHaveLength(0);
  });
});

describe("an adjustment on a deleted member", () => {
  it("is refused on the page and in the action, nothing booked", async () => {
    const m = await loyalty.newMember(db, { nameZh: "刪除後調整" });
    await points.adjustPoints(db, { memberId: m.id, amount: 300, reason: "seed", idempotencyKey: `seed-${m.id}` });
    expect(await privacy.deleteMemberAccount(db, { userId: m.userId, ip: null, revokers: [] })).toMatchObject({
      ok: true,
    });
    const pathname = `/admin/members/${m.id}/adjust`;
    const html = await (await get(pathname, cookieOf(admin))).text();
    expect(html).toContain("此會員帳號已停用，無法調整點數。");
    const posted = await post(
      pathname,
      { amount: "100", reason: "goodwill", detail: "", requestKey: crypto.randomUUID() },
      cookieOf(admin),
    );
    expect(posted.status).toBe(422);
    const { eq } = await import("drizzle-orm");
    expect(await db.select().from(schema.pointAdjustment).where(eq(schema.pointAdjustment.memberId, m.id))).toEqual([]);
    // The member page offers no adjustment, no disable and no reveal for a deleted member.
    const member = await (await get(`/admin/members/${m.id}`, cookieOf(admin))).text();
    expect(member).not.toContain(`href="${pathname}"`);
    expect(member).not.toContain('value="reveal"');
  });
});
