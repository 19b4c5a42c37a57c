import type { Database } from "@platform/db/client";
import { importRun } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerTotals, newMember } from "../app/domain/loyalty/testing.server";
import { createTestStaff, type TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Bulk point grants over HTTP, in the real app (createApp through Vite, its job queue running): who may open
 * the pages, refused forms answered beside their fields (never a 500), and a grant sent from the page applied by
 * the job, its progress on the page.
 */
let app: DevApp;
let running: DevApp["running"];
let base: string;
let db: Database;
let manager: TestStaff;
let clerk: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test" }, "grants_http");
  running = app.running;
  base = app.base;
  db = running.database.db;
  const secret = running.config.secrets.session;
  manager = await createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"], displayName: "張店長" });
  clerk = await createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function post(pathname: string, body: FormData | URLSearchParams, cookie: string) {
  return fetch(`${base}${pathname}`, { method: "POST", body, headers: { origin: base, cookie }, redirect: "manual" });
}

function get(pathname: string, cookie: string) {
  return fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });
}

function upload(fields: Record<string, string>, file: { name: string; text: string } | null) {
  const form = new FormData();
  form.set("intent", "csv");
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("file", new Blob([file.text], { type: "text/csv" }), file.name);
  return form;
}

describe("bulk grant pages", () => {
  it("a clerk gets 403 on every grant page and post; a manager opens them", async () => {
    for (const page of ["/admin/grants", "/admin/grants/new"]) {
      expect((await get(page, cookieOf(clerk))).status, page).toBe(403);
      expect((await get(page, cookieOf(manager))).status, page).toBe(200);
    }
    const refused = await post(
      "/admin/grants/new",
      upload({ reason: "x" }, { name: "a.csv", text: "會員編號,點數\n" }),
      cookieOf(clerk),
    );
    expect(refused.status).toBe(403);
    expect((await get("/admin/grants/00000000-0000-4000-8000-000000000000", cookieOf(manager))).status).toBe(404);
  });

  it("refused forms answer beside their fields with the values kept, never a 500", async () => {
    const empty = await post("/admin/grants/new?_data", upload({ reason: "" }, null), cookieOf(manager));
    expect(empty.status).toBe(400);
    const page = await (await post("/admin/grants/new", upload({ reason: "" }, null), cookieOf(manager))).text();
    expect(page).toContain("請選擇 CSV 檔案");
    expect(page).toContain("請填寫原因");
    const notCsv = await post(
      "/admin/grants/new",
      upload({ reason: "週年慶" }, { name: "x.csv", text: "姓名,電話\n王,1\n" }),
      cookieOf(manager),
    );
    expect(notCsv.status).toBe(400);
    const text = await notCsv.text();
    expect(text).toContain("無法讀取這個檔案");
    expect(text).toContain("週年慶");
    const badPoints = await post(
      "/admin/grants/new?source=members&tier=gold",
      new URLSearchParams({ intent: "filter", points: "1.5", reason: "x" }),
      cookieOf(manager),
    );
    expect(badPoints.status).toBe(400);
    expect(await badPoints.text()).toContain("請輸入 1 到 100,000 的整數");
    // A file over the limit (5 MB) is refused by its size, beside the file field.
    const big = await post(
      "/admin/grants/new",
      upload({ reason: "x" }, { name: "big.csv", text: `會員編號,點數\n${"HL10000001,1\n".repeat(420_000)}` }),
      cookieOf(manager),
    );
    expect(big.status).toBe(413);
    expect(await big.text()).toContain("檔案太大");
    expect(await db.select().from(importRun)).toEqual([]);
  });

  it("a grant uploaded, sent and applied by the job: the page shows the total, then the result", async () => {
    const a = await newMember(db);
    const b = await newMember(db);
    const csv = `會員編號,點數,原因\n${a.memberNumber},120,補點\n${b.memberNumber},80,\nHL00000001,5,\n`;
    const created = await post(
      "/admin/grants/new",
      upload({ reason: "補登" }, { name: "g.csv", text: csv }),
      cookieOf(manager),
    );
    expect(created.status).toBe(302);
    const location = created.headers.get("location") ?? "";
    expect(location).toMatch(/^\/admin\/grants\/[0-9a-f-]{36}$/);
    const detail = await (await get(location, cookieOf(manager))).text();
    expect(detail).toContain("找不到這位會員");
    expect(detail).toMatch(/data-testid="grant-total"[^>]*>200</);
    const sent = await post(location, new URLSearchParams({ intent: "submit" }), cookieOf(manager));
    expect(sent.status).toBe(302);
    const runId = location.split("/").at(-1) as string;
    for (let i = 0; i < 120; i++) {
      const [run] = await db.select().from(importRun).where(eq(importRun.id, runId));
      if (run?.status === "done") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(await ledgerTotals(db, a.id)).toMatchObject({ balance: 120, ledgerSum: 120 });
    expect(await ledgerTotals(db, b.id)).toMatchObject({ balance: 80 });
    const result = await (await get(location, cookieOf(manager))).text();
    expect(result).toContain("已贈點 200 點");
    expect(result).toContain("這筆批次贈點不會發送訊息給會員。");
    const list = await (await get("/admin/grants", cookieOf(manager))).text();
    expect(list).toContain("g.csv");
  }, 120_000);

  it("a second grant of the day over what is left waits for approval, and the page says why", async () => {
    const splitter = await createTestStaff(db, running.config.secrets.session, {
      role: "manager",
      storeIds: ["xinyi-flagship"],
    });
    const grantOf = async (points: number) => {
      const m = await newMember(db);
      const created = await post(
        "/admin/grants/new",
        upload({ reason: "拆單" }, { name: "s.csv", text: `會員編號,點數\n${m.memberNumber},${points}\n` }),
        cookieOf(splitter),
      );
      return created.headers.get("location") ?? "";
    };
    const first = await grantOf(600);
    expect(await (await get(first, cookieOf(splitter))).text()).toContain("今天還可直接贈出 1,000 點");
    expect(
      (await post(first, new URLSearchParams({ intent: "submit" }), cookieOf(splitter))).headers.get("location"),
    ).toBe(`${first}?done=submitted`);
    for (let i = 0; i < 120; i++) {
      const [run] = await db
        .select()
        .from(importRun)
        .where(eq(importRun.id, first.split("/").at(-1) as string));
      if (run?.status === "done") break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const second = await grantOf(600);
    const page = await (await get(second, cookieOf(splitter))).text();
    expect(page).toContain("今天還可直接贈出 400 點");
    expect(page).toContain("今天已直接贈出的點數加上這次會超過上限");
    expect(page).toMatch(/data-testid="grant-submit"[^>]*>送審</);
    const sent = await post(second, new URLSearchParams({ intent: "submit" }), cookieOf(splitter));
    expect(sent.headers.get("location")).toBe(`${second}?done=requestedDaily`);
    const after = await (await get(`${second}?done=requestedDaily`, cookieOf(splitter))).text();
    expect(after).toContain("今天直接贈出的點數已達上限，已送審，等待另一位管理員核准。");
  }, 120_000);

  it("the member list links to a grant with its filters; the grant takes the members that list finds", async () => {
    const { member } = await import("@platform/db/schema");
    const fresh = await newMember(db, { createdAt: new Date("2024-02-03T04:00:00Z") });
    await newMember(db, { createdAt: new Date("2024-02-05T04:00:00Z") });
    const list = await (await get("/admin/members?from=2024-02-03&to=2024-02-03", cookieOf(manager))).text();
    const href = /href="(\/admin\/grants\/new\?[^"]+)"/.exec(list)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(href).toContain("source=members");
    expect(href).toContain("from=2024-02-03");
    const page = await (await get(href, cookieOf(manager))).text();
    expect(page).toContain("2024-02-03");
    // 通知會員: a checkbox in each form, off by default.
    expect(page).toContain("通知會員（LINE／簡訊／電子郵件，依會員的接收設定）");
    expect(page.match(/<input[^>]*name="notify"[^>]*>/g)?.length).toBe(2);
    expect(page).not.toMatch(/<input[^>]*name="notify"[^>]*checked/);
    const created = await post(
      href,
      new URLSearchParams({ intent: "filter", points: "30", reason: "活動", notify: "on" }),
      cookieOf(manager),
    );
    expect(created.status).toBe(302);
    const runId = (created.headers.get("location") ?? "").split("/").at(-1) as string;
    const [run] = await db.select().from(importRun).where(eq(importRun.id, runId));
    expect(run?.report).toMatchObject({ rows: 1, valid: 1, total: 30 });
    expect(run?.options).toMatchObject({ notify: true });
    expect(await (await get(`/admin/grants/${runId}`, cookieOf(manager))).text()).toContain("贈點入帳後會通知會員");
    expect((await db.select().from(member).where(eq(member.id, fresh.id))).length).toBe(1);
    await post(`/admin/grants/${runId}`, new URLSearchParams({ intent: "cancel" }), cookieOf(manager));
    const [cancelled] = await db.select().from(importRun).where(eq(importRun.id, runId));
    expect(cancelled?.status).toBe("cancelled");
  });

  it("grants awaiting approval are listed on /admin/approvals for admins, each linking to its page", async () => {
    const secret = running.config.secrets.session;
    const approver = await createTestStaff(db, secret, { role: "admin", displayName: "王核准" });
    const starterAdmin = await createTestStaff(db, secret, { role: "admin", displayName: "李管理" });
    const stage = async (staff: TestStaff, points: number, reason: string) => {
      const m = await newMember(db);
      const created = await post(
        "/admin/grants/new",
        upload({ reason }, { name: "w.csv", text: `會員編號,點數\n${m.memberNumber},${points}\n` }),
        cookieOf(staff),
      );
      const location = created.headers.get("location") ?? "";
      expect(location).toMatch(/^\/admin\/grants\/[0-9a-f-]{36}$/);
      const sent = await post(location, new URLSearchParams({ intent: "submit" }), cookieOf(staff));
      expect(sent.headers.get("location")).toBe(`${location}?done=requested`);
      return location.split("/").at(-1) as string;
    };
    const byManager = await stage(manager, 3000, "年終大額補點");
    const byAdmin = await stage(starterAdmin, 2500, "管理員發起");

    expect((await get("/admin/approvals", cookieOf(manager))).status).toBe(403);
    const page = await (await get("/admin/approvals", cookieOf(approver))).text();
    expect(page).toContain("待核准的批次贈點");
    const card = (id: string) => new RegExp(`data-grant-id="${id}"[\\s\\S]*?</li>`).exec(page)?.[0] ?? "";
    const managers = card(byManager);
    expect(managers).toContain("年終大額補點");
    expect(managers).toContain("共 3,000 點");
    expect(managers).toContain("張店長");
    expect(managers).toMatch(/贈點筆數[\s\S]*?>1</);
    expect(managers).toContain(`href="/admin/grants/${byManager}"`);
    expect(managers).toContain("查看並核准或退回");
    expect(managers).not.toContain("這是您發起的批次贈點");
    // The starter sees their own grant, marked as another admin's to decide.
    const own = await (await get("/admin/approvals", cookieOf(starterAdmin))).text();
    const ownCard = new RegExp(`data-grant-id="${byAdmin}"[\\s\\S]*?</li>`).exec(own)?.[0] ?? "";
    expect(ownCard).toContain("這是您發起的批次贈點，需由另一位管理員核准。");
    expect(ownCard).not.toContain("查看並核准或退回");
    // In English too.
    const en = await (
      await fetch(`${base}/admin/approvals`, { headers: { cookie: `${cookieOf(approver)}; locale=en` } })
    ).text();
    expect(en).toContain("Bulk grants awaiting approval");

    // Decided on the grant's page, it leaves the list.
    const rejected = await post(
      `/admin/grants/${byManager}`,
      new URLSearchParams({ intent: "reject" }),
      cookieOf(approver),
    );
    expect(rejected.headers.get("location")).toBe(`/admin/grants/${byManager}?done=rejected`);
    const after = await (await get("/admin/approvals", cookieOf(approver))).text();
    expect(after).not.toContain(`data-grant-id="${byManager}"`);
    expect(after).toContain(`data-grant-id="${byAdmin}"`);
    await post(`/admin/grants/${byAdmin}`, new URLSearchParams({ intent: "cancel" }), cookieOf(starterAdmin));
    const none = await (await get("/admin/approvals", cookieOf(approver))).text();
    expect(none).not.toContain(`data-grant-id="${byAdmin}"`);
  }, 120_000);

  it("all the refused rows download as CSV, formula cells neutralised; bad ids and clerks refused", async () => {
    const m = await newMember(db);
    const unknown = Array.from({ length: 205 }, (_, i) => `HL9${String(i).padStart(7, "0")},5,`).join("\n");
    const csv = `會員編號,點數,原因\n${m.memberNumber},10,\n"=HYPERLINK(""http://x.example"")",5,\n${m.memberNumber},1.5,@SUM(A1)\n${unknown}\n`;
    const created = await post(
      "/admin/grants/new",
      upload({ reason: "下載" }, { name: "r.csv", text: csv }),
      cookieOf(manager),
    );
    const location = created.headers.get("location") ?? "";
    const runId = location.split("/").at(-1) as string;
    const detail = await (await get(location, cookieOf(manager))).text();
    expect(detail).toContain("只列出前 200 筆。");
    expect(detail).toContain(`href="/admin/grants/${runId}/rejected.csv"`);
    expect(detail).toContain("下載所有無法贈點的資料（CSV）");

    const download = await get(`/admin/grants/${runId}/rejected.csv`, cookieOf(manager));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="grant-${runId.slice(0, 8)}-rejected.csv"`,
    );
    const bytes = new Uint8Array(await download.arrayBuffer());
    // The byte-order mark first (spreadsheet programs read the Chinese cells as UTF-8).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"line","member_number","phone","member_id","points","reason","problem","problem_text"');
    // Every refused row (207, more than the page shows), the booked one not among them.
    expect(lines).toHaveLength(1 + 207);
    expect(lines[1]).toBe('2,"\'=HYPERLINK(""http://x.example"")","",,"5","","member_unknown","找不到這位會員"');
    expect(lines[2]).toBe(
      `3,"${m.memberNumber}","",,"1.5","'@SUM(A1)","duplicate_in_file points_invalid","同一位會員重複出現; 點數須為 1 到 100,000 的整數"`,
    );
    expect(lines.at(-1)).toContain('"HL90000204"');
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);

    expect((await get(`/admin/grants/${runId}/rejected.csv`, cookieOf(clerk))).status).toBe(403);
    expect(
      (await get("/admin/grants/00000000-0000-4000-8000-000000000000/rejected.csv", cookieOf(manager))).status,
    ).toBe(404);
    for (const bad of ["not-a-run", "%00", `${runId.slice(0, 35)}%00`, "'%3B--"]) {
      const answer = await get(`/admin/grants/${bad}/rejected.csv`, cookieOf(manager));
      expect(answer.status, bad).toBeGreaterThanOrEqual(400);
      expect(answer.status, bad).toBeLessThan(500);
    }
    // Without a session: the sign-in page, not the file.
    expect((await fetch(`${base}/admin/grants/${runId}/rejected.csv`, { redirect: "manual" })).status).toBe(302);
  });
});
