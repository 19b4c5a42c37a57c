import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AuditModule from "../app/domain/audit/audit.server";
import type * as SessionsModule from "../app/domain/staff/sessions.server";
import type * as TestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import type * as TotpModule from "../app/domain/staff/totp";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The staff pages over HTTP (issues 13 and 14, ADR 020): who may open and post to /admin/staff, the
 * invitation with every bad input answered beside its field (values kept, nothing written), the step-up
 * code, role and store changes, disable (ends the sessions), reset of the second factor, revoking an
 * invitation; each write audited.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let testing: typeof TestingModule;
let totp: typeof TotpModule;
let sessions: typeof SessionsModule;
let audit: typeof AuditModule;
let admin: TestStaff;
let clerk: TestStaff;
let manager: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: "x".repeat(40) }, "staff_pages");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  testing = (await load("/app/domain/staff/testing.server.ts")) as typeof TestingModule;
  totp = (await load("/app/domain/staff/totp.ts")) as typeof TotpModule;
  sessions = (await load("/app/domain/staff/sessions.server.ts")) as typeof SessionsModule;
  audit = (await load("/app/domain/audit/audit.server.ts")) as typeof AuditModule;
  const secret = app.running.config.secrets.session;
  admin = await testing.createTestStaff(db, secret, { role: "admin", displayName: "王總監" });
  clerk = await testing.createTestStaff(db, secret, {
    role: "staff",
    storeIds: ["xinyi-flagship"],
    displayName: "陳店員",
  });
  manager = await testing.createTestStaff(db, secret, {
    role: "manager",
    storeIds: ["xinyi-flagship"],
    displayName: "張店長",
  });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function post(pathname: string, fields: Record<string, string> | URLSearchParams, cookie = "") {
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: fields instanceof URLSearchParams ? fields : new URLSearchParams(fields),
    headers: { origin: base, cookie },
    redirect: "manual",
  });
}

function get(pathname: string, cookie = "") {
  return fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });
}

async function auditRows(action: string, targetId?: string) {
  const { and, eq } = await import("drizzle-orm");
  return db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.action, action), targetId ? eq(schema.auditLog.targetId, targetId) : undefined));
}

function inviteForm(fields: Record<string, string | string[]> = {}) {
  const form = new URLSearchParams();
  const all: Record<string, string | string[]> = {
    contact: `new-${crypto.randomUUID()}@example.com`,
    displayName: "林新人",
    role: "staff",
    storeIds: ["xinyi-flagship"],
    ...fields,
  };
  for (const [key, value] of Object.entries(all)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
  }
  return form;
}

describe("who may open the staff pages", () => {
  it("anonymous visitors go to the console login; clerks and managers get 403 and write nothing", async () => {
    const pages = ["/admin/staff", "/admin/staff/invite", `/admin/staff/${clerk.userId}`];
    for (const pathname of pages) {
      const anonymous = await get(pathname);
      expect(anonymous.headers.get("location"), pathname).toMatch(/^\/admin\/login/);
      const posted = await post(pathname, inviteForm({ intent: "disable" }));
      expect(posted.headers.get("location"), pathname).toMatch(/^\/admin\/login/);
      for (const who of [clerk, manager]) {
        expect((await get(pathname, cookieOf(who))).status, `${who.role} ${pathname}`).toBe(403);
        const refused = await post(pathname, inviteForm({ intent: "disable" }), cookieOf(who));
        expect(refused.status, `${who.role} POST ${pathname}`).toBe(403);
      }
    }
    expect(await auditRows("staff.invited")).toHaveLength(0);
    expect(await auditRows("staff.disabled")).toHaveLength(0);
    // The navigation offers the page to admins only.
    expect(await (await get("/admin", cookieOf(admin))).text()).toContain('href="/admin/staff"');
    expect(await (await get("/admin", cookieOf(manager))).text()).not.toContain('href="/admin/staff"');
  });
});

describe("inviting", () => {
  it("creates a single-use link shown once, audited, that opens the invitation page", async () => {
    const contact = `invitee-${Date.now()}@example.com`;
    const response = await post(
      "/admin/staff/invite",
      inviteForm({ contact, displayName: "林新人", storeIds: ["xinyi-flagship", "banqiao"] }),
      cookieOf(admin),
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    const link = /(http:\/\/[^"<]+\/admin\/invitation\/[A-Za-z0-9_-]+)/.exec(html)?.[1];
    expect(link).toBeTruthy();
    expect(html).toContain("邀請連結已建立");
    const path = new URL(link ?? "").pathname;
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("林新人");
    const rows = await auditRows("staff.invited");
    expect(rows.at(-1)?.actorUserId).toBe(admin.userId);
    // Personal values are masked in the log.
    expect(JSON.stringify(rows.at(-1)?.changes)).not.toContain(contact);
    // The list shows the open invitation, with its stores.
    const list = await (await get("/admin/staff", cookieOf(admin))).text();
    expect(list).toContain(contact);
    expect(list).toContain("板橋");
  });

  it("answers every bad input beside its field with a 4xx, keeps what was typed, writes nothing", async () => {
    const before = (await auditRows("staff.invited")).length;
    const cases: [Record<string, string | string[]>, number, string][] = [
      [{ contact: "" }, 400, "請輸入電子郵件或手機號碼"],
      [{ contact: "not-an-address@" }, 400, "電子郵件格式不正確"],
      [{ contact: "02-2345-6789" }, 400, "請輸入台灣手機號碼"],
      [{ displayName: "名".repeat(51) }, 400, "請輸入 1 到 50 字的名稱"],
      [{ displayName: "   " }, 400, "請輸入 1 到 50 字的名稱"],
      [{ role: "owner" }, 400, "請選擇角色"],
      [{ storeIds: [] }, 400, "請至少勾選一間門市"],
      [{ storeIds: ["no-such-store"] }, 400, "門市不存在"],
      [{ contact: `staff-${clerk.userId}@example.com` }, 409, "這個人已是後台人員"],
    ];
    for (const [fields, status, message] of cases) {
      const response = await post(
        "/admin/staff/invite",
        inviteForm({ displayName: "林新人", ...fields }),
        cookieOf(admin),
      );
      const html = await response.text();
      expect(response.status, JSON.stringify(fields)).toBe(status);
      expect(html, JSON.stringify(fields)).toContain(message);
      expect(html).toContain('aria-invalid="true"');
      if (typeof fields.contact === "string" && fields.contact) expect(html).toContain(`value="${fields.contact}"`);
    }
    // A phone number in any accepted format is fine; a NUL byte is removed, not a 500.
    const phone = await post(
      "/admin/staff/invite",
      inviteForm({ contact: "+886 987-654-321", displayName: "王\u0000小明" }),
      cookieOf(admin),
    );
    expect(phone.status).toBe(200);
    expect(await phone.text()).toContain("王小明");
    expect((await auditRows("staff.invited")).length).toBe(before + 1);
    for (const [type, body] of [
      ["application/json", JSON.stringify({ contact: "a@example.com" })],
      ["text/plain", "contact=a@example.com"],
    ] as const) {
      const response = await fetch(`${base}/admin/staff/invite`, {
        method: "POST",
        body,
        headers: { origin: base, "content-type": type, cookie: cookieOf(admin) },
      });
      expect(response.status, type).toBe(415);
    }
  });

  it("asks the code again when the last one is old, keeping what was typed; the code then goes ahead", async () => {
    const stale = await testing.createTestStaff(db, app.running.config.secrets.session, {
      role: "admin",
      displayName: "老管理員",
      secondFactorAt: new Date(Date.now() - 30 * 60_000),
    });
    const contact = `stepup-${Date.now()}@example.com`;
    const form = inviteForm({ contact, displayName: "步驟測試", storeIds: ["banqiao"] });
    const asked = await post("/admin/staff/invite", form, cookieOf(stale));
    expect(asked.status).toBe(401);
    const html = await asked.text();
    expect(html).toContain('data-testid="step-up"');
    expect(html).toContain(`value="${contact}"`);
    expect(html).toMatch(/value="banqiao"[^>]*checked|checked[^>]*value="banqiao"/);
    const wrong = new URLSearchParams(form);
    wrong.set("stepUpCode", "000000");
    expect((await post("/admin/staff/invite", wrong, cookieOf(stale))).status).toBe(400);
    const right = new URLSearchParams(form);
    right.set("stepUpCode", totp.hotp(totp.base32Decode(stale.totpSecret), totp.totpStep(new Date())));
    const done = await post("/admin/staff/invite", right, cookieOf(stale));
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("邀請連結已建立");
  });
});

describe("one staff member's page", () => {
  it("changes role and stores, refuses one's own change, disables (ending sessions), enables, resets the code", async () => {
    const secret = app.running.config.secrets.session;
    const person = await testing.createTestStaff(db, secret, {
      role: "staff",
      storeIds: ["xinyi-flagship"],
      displayName: "周店員",
    });
    const page = `/admin/staff/${person.userId}`;
    const shown = await get(page, cookieOf(admin));
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("周店員");
    expect((await get("/admin/staff/no-such-person", cookieOf(admin))).status).toBe(404);

    const bad = await post(
      page,
      new URLSearchParams([
        ["intent", "access"],
        ["role", "manager"],
      ]),
      cookieOf(admin),
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("請至少勾選一間門市");

    const changed = await post(
      page,
      new URLSearchParams([
        ["intent", "access"],
        ["role", "manager"],
        ["storeIds", "banqiao"],
        ["storeIds", "xinyi-flagship"],
      ]),
      cookieOf(admin),
    );
    expect(changed.status).toBe(302);
    expect(changed.headers.get("location")).toBe(`${page}?done=access`);
    expect(await sessions.staffProfile(db, person.userId)).toMatchObject({
      role: "manager",
      storeIds: ["banqiao", "xinyi-flagship"],
    });
    const changes = await auditRows("staff.access_changed", person.userId);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.changes).toMatchObject({ role: { before: "staff", after: "manager" } });
    // The acting admin's own page lists the change in words, not as codes (action, target type, fields).
    const mine = await (await get(`/admin/staff/${admin.userId}`, cookieOf(admin))).text();
    expect(mine).toContain('data-action="staff.access_changed">變更人員權限</span>');
    expect(mine).toContain('data-target-type="staff">人員');
    expect(mine).not.toContain(">staff.access_changed<");

    const self = await post(`/admin/staff/${admin.userId}`, { intent: "disable" }, cookieOf(admin));
    expect(self.status).toBe(403);
    expect(await self.text()).toContain("不能變更自己的帳號");

    expect((await get("/admin", cookieOf(person))).status).toBe(200);
    const disabled = await post(page, { intent: "disable" }, cookieOf(admin));
    expect(disabled.headers.get("location")).toBe(`${page}?done=disabled`);
    expect((await get("/admin", cookieOf(person))).headers.get("location")).toMatch(/^\/admin\/login/);
    const disabledList = await (await get("/admin/staff?status=disabled", cookieOf(admin))).text();
    expect(disabledList).toContain("周店員");
    expect(await (await get("/admin/staff?status=active", cookieOf(admin))).text()).not.toContain("周店員");
    expect((await post(page, { intent: "enable" }, cookieOf(admin))).headers.get("location")).toBe(
      `${page}?done=enabled`,
    );
    expect(await sessions.staffProfile(db, person.userId)).toMatchObject({ disabled: false });

    const reset = await post(page, { intent: "reset" }, cookieOf(admin));
    expect(reset.headers.get("location")).toBe(`${page}?done=reset`);
    const { eq } = await import("drizzle-orm");
    expect(await db.select().from(schema.staffTotp).where(eq(schema.staffTotp.userId, person.userId))).toHaveLength(0);
    expect(await auditRows("staff.second_factor_reset", person.userId)).toHaveLength(1);
    // The page lists what the admin did, and the search finds the person by name.
    expect(await (await get(`/admin/staff/${admin.userId}`, cookieOf(admin))).text()).toContain("staff.disabled");
    const found = await (await get(`/admin/staff?q=${encodeURIComponent("周")}`, cookieOf(admin))).text();
    expect(found).toContain("周店員");
    expect(found).not.toContain("陳店員");
    const odd = await get(
      `/admin/staff?q=${encodeURIComponent("%_\\'; drop table x")}&status=nonsense`,
      cookieOf(admin),
    );
    expect(odd.status).toBe(200);
    expect(await odd.text()).toContain("沒有符合條件的人員");

    const unknownIntent = await post(page, { intent: "promote" }, cookieOf(admin));
    expect(unknownIntent.status).toBe(400);
    expect(await audit.verifyAuditChain(db)).toMatchObject({ ok: true });
  });

  it("revokes an open invitation once; a second revoke is told", async () => {
    const created = await post("/admin/staff/invite", inviteForm({ displayName: "撤回測試" }), cookieOf(admin));
    const link = /\/admin\/invitation\/([A-Za-z0-9_-]+)/.exec(await created.text())?.[0] ?? "";
    const list = await (await get("/admin/staff", cookieOf(admin))).text();
    const id = /name="invitationId" value="([0-9a-f-]{36})"/.exec(list)?.[1] ?? "";
    expect(id).not.toBe("");
    const revoked = await post("/admin/staff", { invitationId: id }, cookieOf(admin));
    expect(revoked.headers.get("location")).toBe("/admin/staff?revoked=1");
    const again = await post("/admin/staff", { invitationId: id }, cookieOf(admin));
    expect(again.status).toBe(409);
    expect((await get(link)).status).toBe(410);
    expect((await post("/admin/staff", { invitationId: "nonsense" }, cookieOf(admin))).status).toBe(409);
  });
});

/** The actions of the audit rows on a page (not the filter's list of all actions). */
function rowActions(html: string): string[] {
  return [...html.matchAll(/<p class="text-sm font-medium" data-action="([^"]+)">/g)].map((m) => m[1] ?? "");
}

describe("the audit log viewer", () => {
  it("is for admins; filters by who, action prefix, target and Taipei dates; pages by 50; refuses bad ranges", async () => {
    expect((await get("/admin/audit")).headers.get("location")).toMatch(/^\/admin\/login/);
    expect((await get("/admin/audit", cookieOf(clerk))).status).toBe(403);
    expect((await get("/admin/audit", cookieOf(manager))).status).toBe(403);
    expect((await post("/admin/audit", {}, cookieOf(manager))).status).toBe(403);

    // 60 notes on one target by the admin, so there is more than one page.
    const target = crypto.randomUUID();
    for (let i = 0; i < 60; i++) {
      await db.transaction(async (tx) => {
        await audit.recordAudit(tx, {
          context: {
            ...admin.actor,
            actorType: "staff",
            storeId: null,
            ip: "203.0.113.9",
            userAgent: null,
            requestId: `r${i}`,
          },
          action: "member.note_added",
          targetType: "member",
          targetId: target,
          after: { note: `n${i}` },
        });
      });
    }
    const first = await get(`/admin/audit?targetType=member&targetId=${target}`, cookieOf(admin));
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html.match(/data-testid="audit-row"/g)).toHaveLength(50);
    expect(html).toContain("王總監");
    expect(html).toContain("203.0.113.9");
    const next = /href="(\/admin\/audit\?[^"]*before=\d+[^"]*)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "";
    expect(next).toContain(`targetId=${target}`);
    const second = await (await get(next, cookieOf(admin))).text();
    expect(second.match(/data-testid="audit-row"/g)).toHaveLength(10);
    expect(second).not.toMatch(/href="\/admin\/audit\?[^"]*before=/);

    // By who and by an action prefix (the staff changes of the tests above).
    const byWho = await (await get(`/admin/audit?who=${admin.userId}&action=staff.`, cookieOf(admin))).text();
    expect(rowActions(byWho)).toContain("staff.access_changed");
    expect(rowActions(byWho)).not.toContain("member.note_added");
    expect(rowActions(byWho).every((a) => a.startsWith("staff."))).toBe(true);
    const exact = await (await get("/admin/audit?action=staff.disabled", cookieOf(admin))).text();
    expect(new Set(rowActions(exact))).toEqual(new Set(["staff.disabled"]));

    // Taipei dates: today's rows are found by today's date; bad or reversed or too wide ranges are told.
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Taipei" }).format(new Date());
    const todays = await (
      await get(`/admin/audit?from=${today}&to=${today}&targetId=${target}`, cookieOf(admin))
    ).text();
    expect(todays.match(/data-testid="audit-row"/g)).toHaveLength(50);
    for (const [query, message] of [
      ["from=2026-02-30", "請輸入正確的日期"],
      ["from=2026-05-10&to=2026-05-01", "迄日不能早於起日"],
      ["from=2000-01-01&to=2026-01-01", "查詢區間最長 5 年"],
    ] as const) {
      const response = await get(`/admin/audit?${query}`, cookieOf(admin));
      expect(response.status, query).toBe(200);
      expect(await response.text(), query).toContain(message);
    }
    const odd = await get(
      `/admin/audit?targetId=${encodeURIComponent("' or 1=1 --%_")}&action=.*&before=-4`,
      cookieOf(admin),
    );
    expect(odd.status).toBe(200);
    expect(await odd.text()).toContain("沒有符合條件的紀錄");
  });

  it("says the chain was cut when the newest row is deleted and the head moved back (issue 33)", async () => {
    for (const n of [1, 2]) {
      await db.transaction((tx) =>
        audit.recordAudit(tx, {
          context: { actorType: "system", label: "test", ip: null, userAgent: null, requestId: null },
          action: "settings.changed",
          targetType: "test",
          targetId: String(n),
        }),
      );
    }
    await post("/admin/audit", {}, cookieOf(admin));
    expect(await (await get("/admin/audit", cookieOf(admin))).text()).toContain("雜湊鏈完整");
    const { desc, sql } = await import("drizzle-orm");
    const [last, kept] = await db.select().from(schema.auditLog).orderBy(desc(schema.auditLog.seq)).limit(2);
    if (!last || !kept) throw new Error("two rows were appended above");
    await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await db.execute(sql`delete from audit_log where seq = ${last.seq}`);
    await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    await db.execute(sql`update audit_chain_head set seq = ${kept.seq}, hash = ${kept.hash}`);
    await post("/admin/audit", {}, cookieOf(admin));
    const cut = await (await get("/admin/audit", cookieOf(admin))).text();
    expect(cut).toContain(`雜湊鏈遭截斷：紀錄止於第 ${kept.seq} 筆，但已簽署的鏈頭記到第 ${last.seq} 筆`);
    expect(cut).not.toContain("雜湊鏈完整");

    // The row put back: intact again.
    await db.insert(schema.auditLog).values(last);
    await db.execute(sql`update audit_chain_head set seq = ${last.seq}, hash = ${last.hash}`);
    await post("/admin/audit", {}, cookieOf(admin));
    expect(await (await get("/admin/audit", cookieOf(admin))).text()).toContain("雜湊鏈完整");
  });

  it("shows the chain check, and a broken chain after a row is altered by hand", async () => {
    const never = await (await get("/admin/audit", cookieOf(admin))).text();
    expect(never).toMatch(/雜湊鏈尚未檢查過|雜湊鏈完整/);
    const run = await post("/admin/audit", {}, cookieOf(admin));
    expect(run.headers.get("location")).toBe("/admin/audit?checked=1");
    expect(await (await get("/admin/audit?checked=1", cookieOf(admin))).text()).toContain("雜湊鏈完整");

    const { sql } = await import("drizzle-orm");
    await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await db.execute(sql`update audit_log set target_id = 'changed-by-hand' where seq = 2`);
    await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    await post("/admin/audit", {}, cookieOf(admin));
    const broken = await (await get("/admin/audit", cookieOf(admin))).text();
    expect(broken).toContain("雜湊鏈異常：第 2 筆無法驗證");
  });
});
