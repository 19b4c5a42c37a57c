import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AuditModule from "../app/domain/audit/audit.server";
import type * as DemoMemberModule from "../app/domain/demo/demo-member";
import type * as DemoStaffModule from "../app/domain/demo/demo-staff";
import type * as AccountsModule from "../app/domain/staff/accounts.server";
import type * as TotpModule from "../app/domain/staff/totp";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The console over HTTP, in the real app (createApp through Vite, as in app.integration.test.ts) on a
 * development database: the demo member, demo admin and demo clerk exist (README).
 */

let app: DevApp;
let base: string;
let totp: typeof TotpModule;
let demoStaff: typeof DemoStaffModule;
let demoMember: typeof DemoMemberModule;
let accounts: typeof AccountsModule;
let audit: typeof AuditModule;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "development" }, "console");
  base = app.base;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  totp = (await load("/app/domain/staff/totp.ts")) as typeof TotpModule;
  demoStaff = (await load("/app/domain/demo/demo-staff.ts")) as typeof DemoStaffModule;
  demoMember = (await load("/app/domain/demo/demo-member.ts")) as typeof DemoMemberModule;
  accounts = (await load("/app/domain/staff/accounts.server.ts")) as typeof AccountsModule;
  audit = (await load("/app/domain/audit/audit.server.ts")) as typeof AuditModule;
}, 180_000);

afterAll(() => app?.stop());

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

/** Where a console answer sends the browser: a Location header, or the redirect inside a `.data` answer. */
async function redirectedTo(response: Response): Promise<string> {
  const location = response.headers.get("location");
  if (location) return location;
  if (response.status === 202) return /\/admin\/login[^"]*/.exec(await response.text())?.[0] ?? "";
  return "";
}

function get(pathname: string, cookie = "") {
  return fetch(`${base}${pathname}`, { headers: { cookie }, redirect: "manual" });
}

/** Password, then the code computed from the secret: the console cookie of an active session. */
async function consoleLogin(email: string, password: string, secret: string, offsetSteps = 0): Promise<string> {
  const login = await post("/admin/login", { identifier: email, password });
  expect(login.status).toBe(302);
  expect(login.headers.get("location")).toBe("/admin/verify?redirectTo=%2Fadmin");
  const cookie = cookiesOf(login).find((c) => c.startsWith("han_console=")) ?? "";
  expect(login.headers.getSetCookie()[0]).toMatch(/HttpOnly; SameSite=Strict/);
  const code = totp.hotp(totp.base32Decode(secret), totp.totpStep(new Date()) + offsetSteps);
  const verified = await post("/admin/verify?redirectTo=%2Fadmin", { code }, cookie);
  expect(verified.status).toBe(302);
  expect(verified.headers.get("location")).toBe("/admin");
  return cookie;
}

const CONSOLE_PATHS = [
  "/admin",
  "/admin/",
  "/admin/counter",
  "/admin/staff/123",
  "/admin.data",
  "/admin/anything.data",
];

describe("the console over HTTP", () => {
  it("sends anonymous visitors to the console login from every console page and action", async () => {
    for (const pathname of CONSOLE_PATHS) {
      const response = await get(pathname);
      expect([302, 202], pathname).toContain(response.status);
      expect(response.headers.get("cache-control"), pathname).toBe("private, no-store");
      expect(await redirectedTo(response), pathname).toMatch(/^\/admin\/login(\?|$)/);
    }
    const switched = await post("/admin/store", { storeId: "banqiao" });
    expect(switched.headers.get("location")).toMatch(/^\/admin\/login/);
    const login = await get("/admin/login");
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain("後台登入");
    // The console page is outside the public layout: no site header.
    expect(html).not.toContain('aria-label="主要導覽"');
  });

  it("a member session opens no console; the member's password opens no console either", async () => {
    const memberLogin = await post("/member-login", {
      method: "phone",
      phone: "0912-345-678",
      password: demoMember.DEMO_MEMBER.password,
    });
    expect(memberLogin.status).toBe(302);
    const memberCookie = cookiesOf(memberLogin).join("; ");
    for (const pathname of CONSOLE_PATHS) {
      const response = await get(pathname, memberCookie);
      expect(await redirectedTo(response), pathname).toMatch(/^\/admin\/login/);
    }
    const consoleLoginAsMember = await post("/admin/login", {
      identifier: "0912-345-678",
      password: demoMember.DEMO_MEMBER.password,
    });
    expect(consoleLoginAsMember.status).toBe(403);
    expect(await consoleLoginAsMember.text()).toContain("這個帳號沒有後台權限");
    expect(cookiesOf(consoleLoginAsMember).some((c) => c.startsWith("han_console="))).toBe(false);
  });

  it("refuses wrong passwords and wrong codes beside the field, and bodies that are not forms", async () => {
    const clerk = demoStaff.DEMO_STAFF[1];
    const wrong = await post("/admin/login", { identifier: clerk.email, password: "not-the-password" });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain("帳號或密碼錯誤");
    expect(wrongHtml).toContain(`value="${clerk.email}"`);

    const login = await post("/admin/login", { identifier: clerk.email, password: clerk.password });
    const cookie = cookiesOf(login).find((c) => c.startsWith("han_console=")) ?? "";
    // A pending session (password only) opens nothing yet.
    expect((await get("/admin", cookie)).headers.get("location")).toMatch(/^\/admin\/login/);
    const badCode = await post("/admin/verify", { code: "000000" }, cookie);
    expect(badCode.status).toBe(400);
    expect(await badCode.text()).toContain("驗證碼錯誤或已使用過");

    for (const [type, body] of [
      ["application/json", JSON.stringify({ identifier: clerk.email, password: clerk.password })],
      ["text/plain", `identifier=${clerk.email}`],
    ] as const) {
      const response = await fetch(`${base}/admin/login`, {
        method: "POST",
        body,
        headers: { origin: base, "content-type": type },
        redirect: "manual",
      });
      expect(response.status, type).toBe(415);
    }
    const nul = await post("/admin/login", { identifier: `${clerk.email}\u0000`, password: "x\u0000" });
    expect(nul.status).toBe(400);
  });

  it("the demo clerk logs in with password and TOTP, sees the shell, and cannot act at another store", async () => {
    const clerk = demoStaff.DEMO_STAFF[1];
    const cookie = await consoleLogin(clerk.email, clerk.password, clerk.totpSecret);
    const home = await get("/admin", cookie);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain(clerk.displayName);
    expect(html).toContain("門市人員");
    expect(html).toContain("信義旗艦");
    expect(html).toContain('data-permission="counter.purchase"');
    expect(html).not.toContain('data-permission="staff.manage"');

    const elsewhere = await post("/admin/store", { storeId: "banqiao", redirectTo: "/admin" }, cookie);
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.text()).toContain("沒有權限");
    const unknown = await get("/admin/no-such-page", cookie);
    expect(unknown.status).toBe(404);

    // English works too.
    const english = await get("/admin", `${cookie}; locale=en`);
    expect(await english.text()).toContain("Store staff");

    // Logout ends the console session.
    const logout = await post("/admin/logout", {}, cookie);
    expect(logout.headers.get("location")).toBe("/admin/login");
    expect((await get("/admin", cookie)).headers.get("location")).toMatch(/^\/admin\/login/);
  });

  it("an admin switches stores; disabling the clerk ends the clerk's session at its next request", async () => {
    const admin = demoStaff.DEMO_STAFF[0];
    const clerk = demoStaff.DEMO_STAFF[1];
    const adminCookie = await consoleLogin(admin.email, admin.password, admin.totpSecret);
    const switched = await post("/admin/store", { storeId: "banqiao", redirectTo: "/admin" }, adminCookie);
    expect(switched.status).toBe(302);
    expect(await (await get("/admin", adminCookie)).text()).toMatch(/<option value="banqiao" selected=""/);

    // The clerk's code of this time step was used in the test before (no replay): the next step's code.
    const clerkCookie = await consoleLogin(clerk.email, clerk.password, clerk.totpSecret, 1);
    expect((await get("/admin", clerkCookie)).status).toBe(200);
    const { eq } = await import("drizzle-orm");
    const schema = await app.vite.ssrLoadModule("/platform/db/schema/index.ts");
    const [clerkUser] = await app.running.database.db
      .select()
      .from(schema.authUser)
      .where(eq(schema.authUser.email, clerk.email));
    const [adminUser] = await app.running.database.db
      .select()
      .from(schema.authUser)
      .where(eq(schema.authUser.email, admin.email));
    await accounts.setStaffDisabled(
      app.running.database.db,
      {
        userId: adminUser?.id ?? "",
        role: "admin",
        displayName: admin.displayName,
        storeIds: [],
        currentStoreId: null,
        sessionId: "test",
        secondFactorAt: new Date(),
      },
      clerkUser?.id ?? "",
      true,
      { actorType: "system", label: "test", ip: null, userAgent: null, requestId: null },
    );
    const after = await get("/admin", clerkCookie);
    expect(after.headers.get("location")).toMatch(/^\/admin\/login/);
    expect(after.headers.getSetCookie().join()).toMatch(/han_console=; Path=\/; Max-Age=0/);
    expect(await audit.verifyAuditChain(app.running.database.db)).toMatchObject({ ok: true });
  });
});
