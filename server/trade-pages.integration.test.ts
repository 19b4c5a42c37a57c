import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base32Decode, hotp, totpStep } from "../app/domain/staff/totp";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The trade account pages over HTTP (issue 38 part 2, ADR 057): the member's application and its refusals beside the
 * fields (a bad 統編, a NUL byte, twice), a mangled page in the query (400, never 500); the console page: permission,
 * a rejection without a reason, a forged id, a second decision (409); the clients' purchases masked on the page.
 */
const HOOKS_SECRET = "trade-pages-test-hooks-secret-0123456789";

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let drizzle: typeof import("drizzle-orm");

async function hook(pathname: string, body: unknown) {
  const response = await fetch(`${base}/__test${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

const cookieOf = (setCookie: string[]) => setCookie.map((c) => c.split(";")[0]).join("; ");

async function member(phoneNumber: string, name = "張設計") {
  const { userId, memberId } = (await hook("/members", { phoneNumber, name })) as { userId: string; memberId: string };
  const { setCookie } = (await hook("/sessions", { userId })) as { setCookie: string[] };
  return { memberId, cookie: cookieOf(setCookie) };
}

async function staffWithSecret(role: "staff" | "admin") {
  const { setCookie, userId, totpSecret } = (await hook("/staff", { role, storeIds: ["xinyi-flagship"] })) as {
    setCookie: string[];
    userId: string;
    totpSecret: string;
  };
  return { cookie: cookieOf(setCookie), userId, totpSecret };
}

async function staff(role: "staff" | "admin") {
  return (await staffWithSecret(role)).cookie;
}

function post(pathname: string, cookie: string, fields: [string, string][]) {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie, "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
}

const get = (pathname: string, cookie: string) =>
  fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });

const application = (taxIdNumber: string, companyName = "張設計工作室"): [string, string][] => [
  ["taxIdNumber", taxIdNumber],
  ["companyName", companyName],
  ["kind", "designer"],
];

/** A member who has applied (a valid 統編), and the id of their pending application. */
async function applied(phoneNumber: string) {
  const m = await member(phoneNumber);
  expect((await post("/member-center/trade", m.cookie, application("04595257"))).status).toBe(302);
  const [row] = await db
    .select({ id: schema.tradeApplication.id })
    .from(schema.tradeApplication)
    .where(drizzle.eq(schema.tradeApplication.memberId, m.memberId));
  if (!row) throw new Error("no application saved");
  return { m, id: row.id };
}

/** The console's decision form: approve, or reject with a reason. */
const decision = (intent: "approve" | "reject", applicationId: string, reason?: string): [string, string][] => [
  ["intent", intent],
  ["applicationId", applicationId],
  ...(reason === undefined ? [] : [["reason", reason] as [string, string]]),
];

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, "trade_pages");
  base = app.base;
  db = app.running.database.db;
  schema = (await app.vite.ssrLoadModule("/platform/db/schema/index.ts")) as typeof Schema;
  drizzle = await import("drizzle-orm");
}, 240_000);

afterAll(async () => {
  await app?.stop();
});

describe("the trade pages", () => {
  it("applies once, refuses bad fields beside them, and answers a mangled query with 400", async () => {
    const m = await member("+886912350101");
    for (const query of ["?page=%00", "?page=abc", "?page=0", "?page=99999"]) {
      expect((await get(`/member-center/trade${query}`, m.cookie)).status, query).toBe(400);
    }
    expect((await get("/member-center/trade?page=2", m.cookie)).status).toBe(200);
    const bad = await post("/member-center/trade", m.cookie, application("12345678"));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("統一編號不正確");
    // A NUL byte is removed before the form is read: a company of nothing but one is an empty company.
    const nul = await post("/member-center/trade", m.cookie, application("22099131", "\u0000"));
    expect(nul.status).toBe(400);
    expect(await nul.text()).toContain("請輸入公司名稱");
    const rows = () =>
      db.select().from(schema.tradeApplication).where(drizzle.eq(schema.tradeApplication.memberId, m.memberId));
    expect(await rows()).toEqual([]);
    expect((await post("/member-center/trade", m.cookie, application("2209 9131"))).status).toBe(302);
    const twice = await post("/member-center/trade", m.cookie, application("22099131"));
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("您已有審核中的申請");
    expect((await rows()).map((r) => r.state)).toEqual(["pending"]);
    expect(await (await get("/member-center/trade", m.cookie)).text()).toContain("審核中");
  });

  it("lets only admins decide, needs a reason to reject, refuses forged ids and a second decision", async () => {
    const { m, id } = await applied("+886912350102");
    const clerk = await staff("staff");
    expect((await get("/admin/trade-accounts", clerk)).status).toBe(403);
    expect((await post("/admin/trade-accounts", clerk, decision("approve", id))).status).toBe(403);
    const admin = await staff("admin");
    expect((await get("/admin/trade-accounts?page=%00", admin)).status).toBe(400);
    const list = await get("/admin/trade-accounts", admin);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("04595257");
    const noReason = await post("/admin/trade-accounts", admin, decision("reject", id, " \u0000 "));
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("不核准時請填寫原因");
    for (const forged of ["not-a-uuid", `${id}0`, "\u0000", "00000000-0000-4000-8000-000000000000"]) {
      const res = await post("/admin/trade-accounts", admin, decision("approve", forged));
      expect(res.status, forged).toBeGreaterThanOrEqual(400);
      expect(res.status, forged).toBeLessThan(500);
    }
    const approved = await post("/admin/trade-accounts", admin, decision("approve", id));
    expect(approved.status).toBe(302);
    const again = await post("/admin/trade-accounts", admin, decision("reject", id, "太晚了"));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("這筆申請已由其他人審核過");
    const page = await (await get("/member-center/trade", m.cookie)).text();
    expect(page).toContain("已核准");
    // A client this trade member referred, and the client's purchase: masked on the page.
    const client = await member("+886912350103", "林美華");
    await db.insert(schema.referral).values({
      referrerId: m.memberId,
      friendId: client.memberId,
      code: "TESTCODE22",
      createdAt: new Date(Date.now() - 60_000),
    });
    await db.insert(schema.purchase).values({
      storeId: "xinyi-flagship",
      receiptNumber: `TP-${Date.now()}`,
      memberId: client.memberId,
      netAmount: 12_345,
      pointsEarned: 123,
      purchasedAt: new Date(),
    });
    const clients = await (await get("/member-center/trade", m.cookie)).text();
    expect(clients).toContain("林＊＊");
    expect(clients).toContain("12,xxx");
    expect(clients).not.toContain("12,345");
    expect(clients).not.toContain("林美華");
  });

  it("asks for the second factor when the admin's last code is old: nothing decided before a good code", async () => {
    const { id } = await applied("+886912350104");
    const admin = await staffWithSecret("admin");
    await hook(`/staff/${admin.userId}/second-factor-age`, { minutes: 10 });
    const state = async () =>
      (await db.select().from(schema.tradeApplication).where(drizzle.eq(schema.tradeApplication.id, id)))[0]?.state;
    // A rejection without a reason is refused beside its field first: no code asked, none spent.
    const noReason = await post("/admin/trade-accounts", admin.cookie, decision("reject", id));
    expect(noReason.status).toBe(400);
    expect(await noReason.text()).toContain("不核准時請填寫原因");
    const reject = decision("reject", id, "統編與公司名稱不符");
    const asked = await post("/admin/trade-accounts", admin.cookie, reject);
    expect(asked.status).toBe(401);
    const html = await asked.text();
    expect(html).toContain('name="stepUpCode"');
    expect(html).toContain("不核准 張設計工作室 的申請");
    expect(html).toContain("統編與公司名稱不符");
    expect(await state()).toBe("pending");
    const wrong = await post("/admin/trade-accounts", admin.cookie, [...reject, ["stepUpCode", "000000"]]);
    expect(wrong.status).toBe(400);
    expect(await state()).toBe("pending");
    const code = hotp(base32Decode(admin.totpSecret), totpStep(new Date()));
    const decided = await post("/admin/trade-accounts", admin.cookie, [...reject, ["stepUpCode", code]]);
    expect(decided.status).toBe(302);
    expect(await state()).toBe("rejected");
    const [audit] = await db
      .select()
      .from(schema.auditLog)
      .where(
        drizzle.and(drizzle.eq(schema.auditLog.action, "trade.rejected"), drizzle.eq(schema.auditLog.targetId, id)),
      );
    expect(audit).toBeTruthy();
  });
});
