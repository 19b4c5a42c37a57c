import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AuditModule from "../app/domain/audit/audit.server";
import type * as PointsModule from "../app/domain/loyalty/points.server";
import type * as PurchasesModule from "../app/domain/loyalty/purchases.server";
import type * as RewardsModule from "../app/domain/loyalty/rewards.server";
import type * as LoyaltyTestingModule from "../app/domain/loyalty/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * What a person sees in the console (issue 34, "What a person sees"): words instead of codes, store names
 * instead of ids, Taipei times, notices after a change, one labelled scroll box for every wide table.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let loyalty: typeof LoyaltyTestingModule;
let points: typeof PointsModule;
let purchases: typeof PurchasesModule;
let rewards: typeof RewardsModule;
let audit: typeof AuditModule;
let admin: TestStaff;
let clerk: TestStaff;
let staffModule: typeof StaffTestingModule;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: "z".repeat(40) }, "console_seen");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  loyalty = (await load("/app/domain/loyalty/testing.server.ts")) as typeof LoyaltyTestingModule;
  points = (await load("/app/domain/loyalty/points.server.ts")) as typeof PointsModule;
  purchases = (await load("/app/domain/loyalty/purchases.server.ts")) as typeof PurchasesModule;
  rewards = (await load("/app/domain/loyalty/rewards.server.ts")) as typeof RewardsModule;
  audit = (await load("/app/domain/audit/audit.server.ts")) as typeof AuditModule;
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  staffModule = staff;
  const secret = app.running.config.secrets.session;
  admin = await staff.createTestStaff(db, secret, { role: "admin", displayName: "王總監" });
  clerk = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookie = (staff = admin) => `han_console=${staff.token}`;

function get(pathname: string, staff = admin) {
  return fetch(`${base}${pathname}`, { headers: { cookie: cookie(staff) }, redirect: "manual" });
}

function post(pathname: string, fields: Record<string, string>) {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie: cookie() },
    redirect: "manual",
  });
}

/** The HTML of the section named by the heading with this id. */
function section(html: string, headingId: string): string {
  const start = html.indexOf(`aria-labelledby="${headingId}"`);
  expect(start, headingId).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</section>", start));
}

describe("a member's points and purchases", () => {
  it("names each point entry and its reason in words, and each purchase's store by its name", async () => {
    const member = await loyalty.newMember(db, { nameZh: "紀錄測試" });
    const bought = await purchases.recordPurchase(db, {
      memberId: member.id,
      storeId: "xinyi-flagship",
      receiptNumber: "R-SEEN-1",
      netAmount: 3000,
      purchasedAt: new Date(Date.now() - 86_400_000),
    });
    await purchases.refundPurchase(db, { purchaseId: bought.purchase.id, amount: 1000, idempotencyKey: "seen-r1" });
    await points.adjustPoints(db, {
      memberId: member.id,
      amount: 500,
      reason: "goodwill: 送貨延誤",
      idempotencyKey: "seen-a1",
    });
    const [item] = await db
      .insert(schema.reward)
      .values({ name: "NT$50 折價券", kind: "amount-off", amountOff: 50, pointsCost: 100 })
      .returning();
    const { coupon } = await rewards.redeemReward(db, {
      memberId: member.id,
      rewardId: item?.id ?? "",
      idempotencyKey: "seen-c1",
    });
    const page = `/admin/members/${member.id}`;
    expect((await post(page, { intent: "cancel-coupon", couponId: coupon.id, confirmed: "1" })).status).toBe(302);

    const html = await (await get(page)).text();
    const ledger = section(html, "ledger-title");
    for (const words of [
      "消費累點",
      "退貨扣回",
      "退貨 NT$ 1,000",
      "點數調整",
      "客訴補償：送貨延誤",
      "優惠券取消退點",
      "於後台取消",
    ]) {
      expect(ledger, words).toContain(words);
    }
    for (const code of ["earn-purchase", "refund-reversal", "refund of", "goodwill", "coupon-cancel", "cancelled in"]) {
      expect(ledger, code).not.toContain(code);
    }
    const bought10 = section(html, "purchases-title");
    expect(bought10).toContain("信義旗艦店");
    expect(bought10).not.toContain("xinyi-flagship");
  });
});

describe("disabling and enabling a member", () => {
  it("asks to confirm, naming the member, and says what happened afterwards", async () => {
    const member = await loyalty.newMember(db, { nameZh: "停用測試" });
    const page = `/admin/members/${member.id}`;
    const before = await (await get(page)).text();
    const form = before.slice(before.indexOf('name="reason"'), before.indexOf('value="disable"'));
    expect(form).toMatch(/<input type="checkbox" required=""/);
    expect(form).toContain("我確定要停用 停○○試");
    const disabled = await post(page, { intent: "disable", reason: "客訴調查中", confirmed: "1" });
    const after = await (await get(disabled.headers.get("location") ?? "")).text();
    expect(after).toContain("已停用這位會員，所有登入中的裝置已登出。");
    expect(after).toContain("我確定要重新啟用 停○○試");
    const enabled = await post(page, { intent: "enable", reason: "調查結束", confirmed: "1" });
    expect(await (await get(enabled.headers.get("location") ?? "")).text()).toContain("已重新啟用這位會員。");
  });
});

describe("the audit log", () => {
  it("names actions and fields in words and writes instants in Taipei time, not codes, JSON or UTC", async () => {
    const at = new Date("2026-03-01T16:30:00.000Z");
    await audit.recordAudit(db, {
      context: {
        actorType: "staff",
        userId: admin.userId,
        role: "admin",
        storeId: null,
        ip: null,
        userAgent: null,
        requestId: null,
      },
      action: "campaign.test-sent",
      targetType: "campaign",
      targetId: "seen-campaign",
      before: { expiresAt: null, disabled: false },
      after: { expiresAt: at.toISOString(), disabled: true, storeIds: ["a", "b"] },
    });
    const html = await (await get("/admin/audit?targetId=seen-campaign")).text();
    const start = html.indexOf('data-testid="audit-row"');
    const row = html.slice(start, html.indexOf("</li>", start));
    expect(row).toContain("寄出測試訊息");
    expect(row.replace('data-action="campaign.test-sent"', "")).not.toContain("campaign.test-sent");
    expect(row).toContain("到期時間");
    expect(row).toMatch(/2026\/03\/02\D+00:30/);
    expect(row).not.toContain("2026-03-01T16:30");
    expect(row).toContain("已停用");
    expect(row).not.toContain("&quot;");
    // The action filter offers the words too.
    expect(html).toMatch(/<option value="campaign.test-sent"[^>]*>寄出測試訊息<\/option>/);
  });
});

describe("wide tables", () => {
  it("sit in one labelled, keyboard-focusable scroll box with a visible overflow cue on every console page", async () => {
    await loyalty.newMember(db, { nameZh: "表格測試" });
    // The member's 訊息紀錄 and the campaigns list are the same TableScroll (shown once there is a message).
    const pages = [
      "/admin",
      "/admin/rules",
      "/admin/stores/xinyi-flagship",
      `/admin/members?q=${encodeURIComponent("表格測試")}`,
      "/admin/stores",
      "/admin/staff",
      "/admin/rewards",
      "/admin/materials",
      "/admin/categories",
    ];
    for (const page of pages) {
      const response = await get(page);
      expect(response.status, page).toBe(200);
      const html = await response.text();
      const tables = [...html.matchAll(/<table\b/g)].map((m) => m.index ?? 0);
      expect(tables.length, page).toBeGreaterThan(0);
      for (const at of tables) {
        const box = html.slice(html.lastIndexOf("<section", at), at);
        expect(box, `${page} table at ${at}`).toContain("data-table-scroll");
        expect(box, page).toContain('tabindex="0"');
        expect(box, page).toContain("scroll-cue");
        expect(box, page).toMatch(/aria-label(ledby)?="[^"]+"/);
      }
    }
  });
});

describe("the counter's back links", () => {
  it("name where they lead: 回櫃檯 to the counter, the purchase page's to the member", async () => {
    const member = await loyalty.newMember(db, { nameZh: "返回測試" });
    const html = await (await get(`/admin/counter/member/${member.id}/purchase`, clerk)).text();
    const links = [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]*(?:<!-- -->)?[^<]*)<\/a>/g)].map((m) => ({
      href: m[1],
      text: (m[2] ?? "").replaceAll("<!-- -->", ""),
    }));
    expect(links).toContainEqual({ href: `/admin/counter/member/${member.id}`, text: "← 回會員資料" });
    for (const link of links.filter((l) => l.text.includes("回櫃檯"))) expect(link.href).toBe("/admin/counter");
  });
});

describe("filter choices", () => {
  /** The options of the select named `name`, as [value, text]. */
  function options(html: string, name: string): [string, string][] {
    const start = html.indexOf(`name="${name}"`);
    expect(start, name).toBeGreaterThan(-1);
    const select = html.slice(start, html.indexOf("</select>", start));
    return [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1] ?? "", m[2] ?? ""]);
  }

  it("offer 全部 only where it means no filter, and once", async () => {
    const html = await (await get("/admin/rewards")).text();
    const status = options(html, "status");
    expect(status.filter(([, text]) => text === "全部")).toHaveLength(1);
    expect(options(html, "sort").map(([, text]) => text)).not.toContain("全部");
    expect(options(html, "dir").map(([, text]) => text)).toEqual(["遞增", "遞減"]);
  });

  it("let a campaign reach the members SMS can reach", async () => {
    const html = await (await get("/admin/messages/campaigns/new")).text();
    expect(options(html, "reachable").map(([value]) => value)).toContain("sms");
    expect(options(html, "reachable")).toContainEqual(["sms", "簡訊"]);
  });
});

describe("an approval's step-up code", () => {
  it("is asked inside the adjustment's card, its button naming the member and the points", async () => {
    const { eq } = await import("drizzle-orm");
    const m = await loyalty.newMember(db, { nameZh: "核准測試" });
    const manager = await staffModule.createTestStaff(db, app.running.config.secrets.session, {
      role: "manager",
      storeIds: ["xinyi-flagship"],
    });
    const form = { amount: "1,500", reason: "goodwill", detail: "", requestKey: crypto.randomUUID() };
    const requested = await fetch(`${base}/admin/members/${m.id}/adjust`, {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { origin: base, cookie: cookie(manager) },
      redirect: "manual",
    });
    expect(requested.status).toBe(302);
    const [row] = await db.select().from(schema.pointAdjustment).where(eq(schema.pointAdjustment.memberId, m.id));
    expect(row?.status).toBe("pending");
    const old = new Date(Date.now() - 10 * 60_000);
    await db
      .update(schema.staffSession)
      .set({ secondFactorAt: old })
      .where(eq(schema.staffSession.id, admin.sessionId));
    const asked = await post("/admin/approvals", { adjustmentId: row?.id ?? "", intent: "approve" });
    expect(asked.status).toBe(401);
    const html = await asked.text();
    const card = html.slice(html.indexOf(`data-adjustment-id="${row?.id}"`));
    const stepUp = card.indexOf('data-testid="approval-step-up"');
    expect(stepUp).toBeGreaterThan(-1);
    expect(stepUp).toBeLessThan(card.indexOf("</li>"));
    expect(card.slice(stepUp, card.indexOf("</form>", stepUp))).toMatch(
      /核○○試 的 \+1,500 點調整|核准測試 的 \+1,500 點調整/,
    );
    expect(html.slice(0, html.indexOf('data-testid="approvals-list"'))).not.toContain('data-testid="step-up"');
  });
});

describe("a campaign on a phone", () => {
  it("shows the audience count and the previews before the 寄送 button (the phone's order is the page's)", async () => {
    const html = await (await get("/admin/messages/campaigns/new")).text();
    const send = html.indexOf('value="review"');
    expect(send).toBeGreaterThan(-1);
    expect(html.indexOf('data-testid="audience-count"')).toBeLessThan(send);
    expect(html.indexOf('aria-labelledby="preview-title"')).toBeLessThan(send);
  });
});
