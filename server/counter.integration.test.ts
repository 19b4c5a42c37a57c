import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AuditModule from "../app/domain/audit/audit.server";
import type * as DemoMemberModule from "../app/domain/demo/demo-member";
import type * as DemoStaffModule from "../app/domain/demo/demo-staff";
import type * as CardTokensModule from "../app/domain/loyalty/card-tokens.server";
import type * as PointsModule from "../app/domain/loyalty/points.server";
import type * as PurchasesModule from "../app/domain/loyalty/purchases.server";
import type * as RewardsModule from "../app/domain/loyalty/rewards.server";
import type * as TotpModule from "../app/domain/staff/totp";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The counter (issue 13 item 5, ADR 022) over HTTP, in the real app on a development database (the
 * demo member, the demo admin and the demo clerk of 信義旗艦店 exist): finding members, the summary,
 * purchases, refunds and coupons, every refusal with its message and status, and the audit rows.
 */
let app: DevApp;
let running: DevApp["running"];
let base: string;
let secret: string;
let totp: typeof TotpModule;
let demoStaff: typeof DemoStaffModule;
let demoMember: typeof DemoMemberModule;
let audit: typeof AuditModule;
let cards: typeof CardTokensModule;
let points: typeof PointsModule;
let purchases: typeof PurchasesModule;
let rewards: typeof RewardsModule;
let schema: typeof Schema;
let drizzle: typeof import("drizzle-orm");
let clerkCookie: string;
let adminCookie: string;
let memberId: string;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "development" }, "counter");
  running = app.running;
  base = app.base;
  secret = running.config.secrets.session;
  const vite = app.vite;
  const load = <T>(module: string) => vite.ssrLoadModule(module) as Promise<T>;
  totp = await load("/app/domain/staff/totp.ts");
  demoStaff = await load("/app/domain/demo/demo-staff.ts");
  demoMember = await load("/app/domain/demo/demo-member.ts");
  audit = await load("/app/domain/audit/audit.server.ts");
  cards = await load("/app/domain/loyalty/card-tokens.server.ts");
  points = await load("/app/domain/loyalty/points.server.ts");
  purchases = await load("/app/domain/loyalty/purchases.server.ts");
  rewards = await load("/app/domain/loyalty/rewards.server.ts");
  schema = await load("/platform/db/schema/index.ts");
  drizzle = await import("drizzle-orm");
  const [found] = await db()
    .select({ id: schema.member.id })
    .from(schema.member)
    .where(drizzle.eq(schema.member.phoneNumber, demoMember.DEMO_MEMBER.phoneNumber));
  memberId = found?.id ?? "";
  const [admin, clerk] = demoStaff.DEMO_STAFF;
  clerkCookie = await consoleLogin(clerk.email, clerk.password, clerk.totpSecret);
  adminCookie = await consoleLogin(admin.email, admin.password, admin.totpSecret);
  // The admin works at 信義旗艦店 too.
  await post("/admin/store", { storeId: "xinyi-flagship", redirectTo: "/admin" }, adminCookie);
}, 180_000);

afterAll(() => app?.stop());

const db = () => running.database.db;

function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((c) => c.split(";")[0] ?? "");
}

function post(pathname: string, fields: Record<string, string>, cookie = "", headers: Record<string, string> = {}) {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie, ...headers },
    redirect: "manual",
  });
}

function get(pathname: string, cookie = "") {
  return fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });
}

async function consoleLogin(email: string, password: string, totpSecret: string): Promise<string> {
  const login = await post("/admin/login", { identifier: email, password });
  const cookie = cookiesOf(login).find((c) => c.startsWith("han_console=")) ?? "";
  const code = totp.hotp(totp.base32Decode(totpSecret), totp.totpStep(new Date()));
  const verified = await post("/admin/verify?redirectTo=%2Fadmin", { code }, cookie);
  expect(verified.status).toBe(302);
  return cookie;
}

/** The form key a page rendered (each render makes a new one). */
async function formKey(pathname: string, cookie = clerkCookie): Promise<string> {
  const html = await (await get(pathname, cookie)).text();
  const key = /name="formKey" value="([0-9a-f-]{36})"/.exec(html)?.[1];
  expect(key, `form key on ${pathname}`).toBeTruthy();
  return key as string;
}

async function auditRows(action: string) {
  return db().select().from(schema.auditLog).where(drizzle.eq(schema.auditLog.action, action));
}

async function storePurchases(receiptNumber: string) {
  return db().select().from(schema.purchase).where(drizzle.eq(schema.purchase.receiptNumber, receiptNumber));
}

const purchasePath = () => `/admin/counter/member/${memberId}/purchase`;

describe("the counter over HTTP", () => {
  it("sends anonymous visitors and members to the console login from every counter page and action", async () => {
    const memberLogin = await post("/member-login", {
      method: "phone",
      phone: "0912-345-678",
      password: demoMember.DEMO_MEMBER.password,
    });
    const memberCookie = cookiesOf(memberLogin).join("; ");
    const pages = [
      "/admin/counter",
      `/admin/counter/member/${memberId}`,
      purchasePath(),
      "/admin/counter/refund?receipt=X",
      "/admin/counter/coupon",
    ];
    for (const cookie of ["", memberCookie]) {
      for (const pathname of pages) {
        const page = await get(pathname, cookie);
        expect(page.status, pathname).toBe(302);
        expect(page.headers.get("location"), pathname).toMatch(/^\/admin\/login\?redirectTo=/);
        const action = await post(pathname, { query: "0912345678", netAmount: "100", receiptNumber: "R" }, cookie);
        expect(action.headers.get("location"), pathname).toMatch(/^\/admin\/login/);
      }
    }
    expect(await storePurchases("R")).toHaveLength(0);
  });

  it("finds the member by any spelling of the phone, the member number, or a live card token", async () => {
    const page = await get("/admin/counter", clerkCookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("信義旗艦店");
    expect(html).not.toContain("xinyi-flagship</");
    expect(html).toContain('href="/admin/counter"');
    for (const query of ["0912-345-678", "+886 912 345 678", "886912345678", "0912345678"]) {
      const found = await post("/admin/counter?index", { query }, clerkCookie);
      expect(found.status, query).toBe(302);
      expect(found.headers.get("location")).toBe(`/admin/counter/member/${memberId}`);
    }
    const [row] = await db()
      .select({ number: schema.member.memberNumber })
      .from(schema.member)
      .where(drizzle.eq(schema.member.id, memberId));
    const byNumber = await post("/admin/counter?index", { query: (row?.number ?? "").toLowerCase() }, clerkCookie);
    expect(byNumber.headers.get("location")).toBe(`/admin/counter/member/${memberId}`);

    const { token } = cards.issueCardToken(secret, memberId);
    const scanned = await post("/admin/counter?index", { cardToken: token }, clerkCookie);
    // A scanned card carries the scan proof of this clerk, store and member (ADR 046: the walk-in sample loan).
    expect(scanned.headers.get("location")).toMatch(
      new RegExp(`^/admin/counter/member/${memberId}\\?scan=[0-9a-z]+\\.[\\w-]{43}$`),
    );
  });

  it("refuses unknown numbers, expired and forged card tokens with words a clerk can repeat", async () => {
    const unknown = await post("/admin/counter?index", { query: "0987-000-111" }, clerkCookie);
    expect(unknown.status).toBe(404);
    const unknownHtml = await unknown.text();
    expect(unknownHtml).toContain("查無此會員");
    expect(unknownHtml).toContain('value="0987-000-111"');
    const empty = await post("/admin/counter?index", { query: "  " }, clerkCookie);
    expect(empty.status).toBe(400);

    const old = cards.issueCardToken(secret, memberId, new Date(Date.now() - 60_000)).token;
    const expired = await post("/admin/counter?index", { cardToken: old }, clerkCookie);
    expect(expired.status).toBe(422);
    expect(await expired.text()).toContain("條碼已過期，請會員重新整理條碼");
    const english = await post("/admin/counter?index", { cardToken: old }, `${clerkCookie}; locale=en`);
    expect(await english.text()).toContain("ask the member to refresh their card");

    const { token } = cards.issueCardToken(secret, memberId);
    const forgedToken = `${token.slice(0, -3)}${token.endsWith("AAA") ? "BBB" : "AAA"}`;
    const forged = await post("/admin/counter?index", { cardToken: forgedToken }, clerkCookie);
    expect(forged.status).toBe(422);
    expect(await forged.text()).toContain("這不是有效的會員條碼");
    const otherSecret = cards.issueCardToken("another-secret-another-secret-1234", memberId).token;
    expect((await post("/admin/counter?index", { cardToken: otherSecret }, clerkCookie)).status).toBe(422);
  });

  it("shows the summary with the phone masked; only a role with member.reveal reveals it, audited", async () => {
    const page = await get(`/admin/counter/member/${memberId}`, clerkCookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    const phoneShown = (page: string) => /data-testid="member-phone"[^>]*>([^<]*)</.exec(page)?.[1];
    expect(phoneShown(html)).toBe("••••-•••-678");
    expect(html).not.toContain('value="reveal"');
    expect(html).not.toContain("/adjust");
    expect(html).toContain("點數餘額");
    expect(html).toContain("最近消費");

    const before = (await auditRows("member.revealed")).length;
    const refused = await post(`/admin/counter/member/${memberId}`, { intent: "reveal" }, clerkCookie);
    expect(refused.status).toBe(403);
    expect((await auditRows("member.revealed")).length).toBe(before);

    const adminPage = await (await get(`/admin/counter/member/${memberId}`, adminCookie)).text();
    expect(adminPage).toContain('value="reveal"');
    expect(adminPage).toContain(`href="/admin/members/${memberId}/adjust"`);
    expect(adminPage).toContain("調整點數");
    const revealed = await post(`/admin/counter/member/${memberId}`, { intent: "reveal" }, adminCookie);
    expect(revealed.status).toBe(200);
    expect(phoneShown(await revealed.text())).toBe("0912-345-678");
    const rows = await auditRows("member.revealed");
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ targetId: memberId, storeId: "xinyi-flagship", actorRole: "admin" });

    expect((await get("/admin/counter/member/not-a-member", clerkCookie)).status).toBe(404);
  });

  it("refuses bad amounts and receipts beside the field, keeping what was typed, booking nothing", async () => {
    const key = await formKey(purchasePath());
    const cases: [string, string, string][] = [
      ["0", "netAmount", "金額必須大於 0"],
      ["-500", "netAmount", "金額必須大於 0"],
      ["12.5", "netAmount", "請輸入整數金額"],
      ["999999999999", "netAmount", "金額不可超過"],
      ["100000001", "netAmount", "金額不可超過"],
      ["abc", "netAmount", "金額只能輸入數字"],
      ["1e5", "netAmount", "金額只能輸入數字"],
      ["", "netAmount", "請輸入金額"],
    ];
    for (const [netAmount, , message] of cases) {
      const res = await post(purchasePath(), { receiptNumber: "BAD-1", netAmount, formKey: key }, clerkCookie);
      expect(res.status, netAmount).toBe(400);
      const html = await res.text();
      expect(html, netAmount).toContain(message);
      expect(html).toContain('value="BAD-1"');
    }
    const badReceipt = await post(
      purchasePath(),
      { receiptNumber: "<script>", netAmount: "100", formKey: key },
      clerkCookie,
    );
    expect(badReceipt.status).toBe(400);
    expect(await badReceipt.text()).toContain("收據號碼只能包含");
    const noKey = await post(purchasePath(), { receiptNumber: "BAD-1", netAmount: "100" }, clerkCookie);
    expect(noKey.status).toBe(400);
    expect(await noKey.text()).toContain("表單已失效");
    expect(await storePurchases("BAD-1")).toHaveLength(0);

    for (const [type, body] of [
      ["application/json", JSON.stringify({ receiptNumber: "BAD-2", netAmount: 100, formKey: key })],
      ["text/plain", `receiptNumber=BAD-2\nnetAmount=100\nformKey=${key}`],
    ] as const) {
      const res = await fetch(`${base}${purchasePath()}`, {
        method: "POST",
        body,
        headers: { origin: base, cookie: clerkCookie, "content-type": type },
        redirect: "manual",
      });
      expect(res.status, type).toBe(415);
    }
    // NUL bytes are removed (readForm): what is left is empty, refused beside each field.
    const nul = await post(
      purchasePath(),
      { receiptNumber: "\u0000", netAmount: "\u0000\u0000", formKey: key },
      clerkCookie,
    );
    expect(nul.status).toBe(400);
    const nulHtml = await nul.text();
    expect(nulHtml).toContain("請輸入收據號碼");
    expect(nulHtml).toContain("請輸入金額");
    expect(await storePurchases("BAD-2")).toHaveLength(0);
  });

  it("books a purchase once per form: a double tap and a retry answer the first result", async () => {
    const key = await formKey(purchasePath());
    const balanceBefore = (await points.memberPoints(db(), memberId, 0)).balance;
    const fields = { receiptNumber: "XY-10001", netAmount: "12,000", formKey: key };
    const [first, second] = await Promise.all([
      post(purchasePath(), fields, clerkCookie),
      post(purchasePath(), fields, clerkCookie),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const html = await first.text();
    expect(html).toContain("消費已登錄");
    expect(await second.text()).toContain("消費已登錄");
    const booked = await storePurchases("XY-10001");
    expect(booked).toHaveLength(1);
    expect(booked[0]).toMatchObject({ storeId: "xinyi-flagship", netAmount: 12_000 });
    const earned = booked[0]?.pointsEarned ?? 0;
    expect(earned).toBeGreaterThan(0);
    expect((await points.memberPoints(db(), memberId, 0)).balance).toBe(balanceBefore + earned);
    const retry = await post(purchasePath(), fields, clerkCookie);
    expect(retry.status).toBe(200);
    expect(await storePurchases("XY-10001")).toHaveLength(1);
    const rows = (await auditRows("purchase.recorded")).filter((r) => r.targetId === booked[0]?.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorType: "staff", storeId: "xinyi-flagship", actorRole: "staff" });

    // The same key with other details: refused, nothing booked.
    const changed = await post(purchasePath(), { ...fields, receiptNumber: "XY-10002" }, clerkCookie);
    expect(changed.status).toBe(409);
    expect(await storePurchases("XY-10002")).toHaveLength(0);
    // The same receipt again on a new form for another amount: a conflict beside the field.
    const conflict = await post(
      purchasePath(),
      { receiptNumber: "XY-10001", netAmount: "500", formKey: await formKey(purchasePath()) },
      clerkCookie,
    );
    expect(conflict.status).toBe(409);
    expect(await conflict.text()).toContain("這張收據已用其他會員或其他金額登錄過");
    // A refusal frees the form's key: the corrected form books.
    const key2 = await formKey(purchasePath());
    expect(
      (await post(purchasePath(), { receiptNumber: "XY-10003", netAmount: "0", formKey: key2 }, clerkCookie)).status,
    ).toBe(400);
    const fixed = await post(
      purchasePath(),
      { receiptNumber: "XY-10003", netAmount: "800", formKey: key2 },
      clerkCookie,
    );
    expect(fixed.status).toBe(200);
    expect(await storePurchases("XY-10003")).toHaveLength(1);
  });

  it("refunds a purchase of this store by receipt, showing the reversal first; never another store's", async () => {
    const missing = await get("/admin/counter/refund?receipt=NO-SUCH-1", clerkCookie);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("本店查無此收據號碼");
    const [purchase] = await storePurchases("XY-10001");
    const found = await get("/admin/counter/refund?receipt=XY-10001", clerkCookie);
    expect(found.status).toBe(200);
    expect(await found.text()).toContain("可退金額");
    for (const [amount, status, message] of [
      ["0", 400, "金額必須大於 0"],
      ["6000.5", 400, "請輸入整數金額"],
      ["99999", 422, "退貨金額超過可退金額"],
      ["x", 400, "金額只能輸入數字"],
    ] as const) {
      const res = await get(`/admin/counter/refund?receipt=XY-10001&amount=${amount}`, clerkCookie);
      expect(res.status, amount).toBe(status);
      expect(await res.text()).toContain(message);
    }
    const preview = await get("/admin/counter/refund?receipt=XY-10001&amount=6000", clerkCookie);
    const previewHtml = await preview.text();
    const half = Math.floor((purchase?.pointsEarned ?? 0) / 2);
    expect(previewHtml).toContain(`將扣回 ${half} 點`);
    const key = /name="formKey" value="([0-9a-f-]{36})"/.exec(previewHtml)?.[1] ?? "";
    const fields = { purchaseId: purchase?.id ?? "", amount: "6000", formKey: key };
    const [a, b] = await Promise.all([
      post("/admin/counter/refund", fields, clerkCookie),
      post("/admin/counter/refund", fields, clerkCookie),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await a.text()).toContain("退貨完成");
    const refunds = await db()
      .select()
      .from(schema.purchaseRefund)
      .where(drizzle.eq(schema.purchaseRefund.purchaseId, purchase?.id ?? ""));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 6000, pointsReversed: half });
    expect((await auditRows("purchase.refunded")).filter((r) => r.targetId === purchase?.id)).toHaveLength(1);

    // A purchase booked at another store: 403 for the clerk of 信義旗艦店, nothing refunded.
    const elsewhere = await purchases.recordPurchase(db(), {
      memberId,
      storeId: "banqiao",
      receiptNumber: "BQ-1",
      netAmount: 3000,
      purchasedAt: new Date(),
    });
    const notHere = await get("/admin/counter/refund?receipt=BQ-1", clerkCookie);
    expect(notHere.status).toBe(404);
    const forbidden = await post(
      "/admin/counter/refund",
      {
        purchaseId: elsewhere.purchase.id,
        amount: "1000",
        formKey: await formKey("/admin/counter/refund?receipt=XY-10001&amount=1"),
      },
      clerkCookie,
    );
    expect(forbidden.status).toBe(403);
    // An admin (every store) is still refused at a store they are not working at now.
    const adminKey = await formKey("/admin/counter/refund?receipt=XY-10001&amount=1", adminCookie);
    const adminElsewhere = await post(
      "/admin/counter/refund",
      { purchaseId: elsewhere.purchase.id, amount: "1000", formKey: adminKey },
      adminCookie,
    );
    expect(adminElsewhere.status).toBe(403);
    expect(await adminElsewhere.text()).toContain("這筆消費屬於其他門市");
    const [after] = await storePurchases("BQ-1");
    expect(after?.refundedAmount).toBe(0);
  });

  it("uses a coupon once, and refuses used, expired and other-store coupons with the reason", async () => {
    const issue = async (storeIds: string[] | null = null) => {
      const key = crypto.randomUUID();
      await points.adjustPoints(db(), { memberId, amount: 100, reason: "test", idempotencyKey: key });
      const [item] = await db()
        .insert(schema.reward)
        .values({
          name: storeIds ? "板橋限定贈品" : "NT$100 折價券",
          kind: "amount-off",
          amountOff: 100,
          pointsCost: 100,
          storeIds,
        })
        .returning();
      const { coupon } = await rewards.redeemReward(db(), { memberId, rewardId: item?.id ?? "", idempotencyKey: key });
      return coupon;
    };
    const coupon = await issue();
    const summary = await (await get(`/admin/counter/member/${memberId}`, clerkCookie)).text();
    expect(summary).toContain(`/admin/counter/coupon?id=${coupon.id}`);
    const picked = await get(`/admin/counter/coupon?id=${coupon.id}`, clerkCookie);
    const pickedHtml = await picked.text();
    expect(pickedHtml).toContain("確認核銷");
    const key = /name="formKey" value="([0-9a-f-]{36})"/.exec(pickedHtml)?.[1] ?? "";
    const found = await post("/admin/counter/coupon", { code: coupon.code.toLowerCase(), intent: "find" }, clerkCookie);
    expect(found.status).toBe(200);
    expect(await found.text()).toContain("NT$100 折價券");
    const used = await post("/admin/counter/coupon", { code: coupon.code, intent: "use", formKey: key }, clerkCookie);
    expect(used.status).toBe(200);
    expect(await used.text()).toContain("優惠券已核銷");
    const replay = await post("/admin/counter/coupon", { code: coupon.code, intent: "use", formKey: key }, clerkCookie);
    expect(replay.status).toBe(200);
    expect((await auditRows("coupon.used")).filter((r) => r.targetId === coupon.id)).toHaveLength(1);

    const again = await post(
      "/admin/counter/coupon",
      { code: coupon.code, intent: "use", formKey: await formKey(`/admin/counter/coupon?id=${coupon.id}`) },
      clerkCookie,
    );
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("這張優惠券已使用過");

    const other = await issue(["banqiao"]);
    const wrongStore = await post(
      "/admin/counter/coupon",
      { code: other.code, intent: "use", formKey: await formKey(`/admin/counter/coupon?id=${other.id}`) },
      clerkCookie,
    );
    expect(wrongStore.status).toBe(422);
    expect(await wrongStore.text()).toContain("這張優惠券不適用於本門市");

    const old = await issue();
    await db()
      .update(schema.coupon)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(drizzle.eq(schema.coupon.id, old.id));
    const expired = await post(
      "/admin/counter/coupon",
      { code: old.code, intent: "use", formKey: await formKey(`/admin/counter/coupon?id=${old.id}`) },
      clerkCookie,
    );
    expect(expired.status).toBe(422);
    expect(await expired.text()).toContain("這張優惠券已過期");
    const unknown = await post("/admin/counter/coupon", { code: "NOPE", intent: "find" }, clerkCookie);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("查無此優惠券");
  });

  it("lists today's purchases, refunds and coupon uses of this store with totals", async () => {
    const html = await (await get("/admin/counter", clerkCookie)).text();
    expect(html).toContain("XY-10001");
    expect(html).toContain("XY-10003");
    expect(html).not.toContain("BQ-1");
    expect(html).toContain("NT$12,800");
    expect(html).toContain("NT$6,000");
    expect(html).toContain("信義旗艦店");
    expect(await audit.verifyAuditChain(db())).toMatchObject({ ok: true });
  });

  it("refuses a disabled member at lookup and booking", async () => {
    const key = await formKey(purchasePath());
    await db().update(schema.member).set({ disabled: true }).where(drizzle.eq(schema.member.id, memberId));
    const lookup = await post("/admin/counter?index", { query: "0912-345-678" }, clerkCookie);
    expect(lookup.status).toBe(422);
    expect(await lookup.text()).toContain("此會員帳號已停用");
    const { token } = cards.issueCardToken(secret, memberId);
    expect((await post("/admin/counter?index", { cardToken: token }, clerkCookie)).status).toBe(422);
    const booking = await post(
      purchasePath(),
      { receiptNumber: "XY-DIS", netAmount: "1000", formKey: key },
      clerkCookie,
    );
    expect(booking.status).toBe(422);
    expect(await booking.text()).toContain("此會員帳號已停用");
    expect(await storePurchases("XY-DIS")).toHaveLength(0);
    await db().update(schema.member).set({ disabled: false }).where(drizzle.eq(schema.member.id, memberId));
  });
});
