import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { waitFor } from "@platform/testing/wait";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type * as SecurityModule from "../app/domain/audit/security-events.server";
import type * as FlowsModule from "../app/domain/auth/flows.server";
import type * as PasswordsModule from "../app/domain/auth/passwords.server";
import type * as AccountsModule from "../app/domain/staff/accounts.server";
import type * as SessionsModule from "../app/domain/staff/sessions.server";
import type * as TestingModule from "../app/domain/staff/testing.server";
import type * as TotpModule from "../app/domain/staff/totp";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Issue 33 items 1, 4 and 7, on two instances of the full app over ONE PostgreSQL database, 20 requests
 * at once spread over both (ADR 018, ADR 020):
 * - the second factor's wrong codes count per staff account, whatever session they come from: exactly
 *   the account's daily allowance is compared, then the account is locked (audited) and even the right
 *   code is refused until an admin lifts the lock (audited);
 * - an invitation for an existing login claims that login's counters before the password is checked;
 * - failed security events (wrong codes ending a session, wrong passwords, refused console actions)
 *   are audited, at most a few rows per actor or IP per minute: the refusals stay, the extra rows go.
 * PostgreSQL only (PGlite is one process and cannot race).
 */

const PASSWORD = "Granite-Terrace-2026!";

let apps: DevApps;
let db: Database;
let secret: string;
let schema: typeof Schema;
let testing: typeof TestingModule;
let sessions: typeof SessionsModule;
let totp: typeof TotpModule;
let passwords: typeof PasswordsModule;
let accounts: typeof AccountsModule;
let flows: typeof FlowsModule;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test" }, { label: "console_security", poolMax: 20 });
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  secret = first.running.config.secrets.session;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  testing = (await load("/app/domain/staff/testing.server.ts")) as typeof TestingModule;
  sessions = (await load("/app/domain/staff/sessions.server.ts")) as typeof SessionsModule;
  totp = (await load("/app/domain/staff/totp.ts")) as typeof TotpModule;
  passwords = (await load("/app/domain/auth/passwords.server.ts")) as typeof PasswordsModule;
  accounts = (await load("/app/domain/staff/accounts.server.ts")) as typeof AccountsModule;
  flows = (await load("/app/domain/auth/flows.server.ts")) as typeof FlowsModule;
}, 240_000);

afterAll(() => apps?.stop(), 120_000);

beforeEach(async () => {
  // Every request comes from 127.0.0.1: each test starts with no counters.
  await db.delete(schema.rateLimitCounter);
  // The audit rows' budget is per minute and the login's per hour: never start a burst in the last
  // 20 s of a minute or the last half minute of an hour (a wait for a condition, not a fixed sleep).
  await waitFor(
    async () => ({ minute: 60_000 - (Date.now() % 60_000), hour: 3_600_000 - (Date.now() % 3_600_000) }),
    (left) => left.minute > 20_000 && left.hour > 30_000,
    45_000,
    500,
  );
}, 60_000);

function base(i: number): string {
  return apps.instances[i % apps.instances.length]?.base ?? "";
}

function post(i: number, pathname: string, fields: Record<string, string>, cookie = "") {
  return fetch(`${base(i)}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base(i), cookie },
    redirect: "manual",
  });
}

/** `count` posts at once, alternating between the two instances. */
function postAll(
  count: number,
  pathname: (i: number) => string,
  fields: (i: number) => Record<string, string>,
  cookie: (i: number) => string,
) {
  return Promise.all(Array.from({ length: count }, (_, i) => post(i, pathname(i), fields(i), cookie(i))));
}

/** A login password for a user created without one (argon2, as the app stores it). */
async function givePassword(userId: string, password = PASSWORD) {
  await db.insert(schema.authAccount).values({
    id: `acct-${userId}`,
    accountId: userId,
    providerId: "credential",
    userId,
    password: await passwords.hashPassword(password),
    createdAt: new Date(),
    updatedAt: new Date(),
  });
}

/** A fresh console login with the password: the pending session's cookie (the code page comes next). */
async function freshLogin(email: string, i = 0): Promise<string> {
  const login = await post(i, "/admin/login", { identifier: email, password: PASSWORD });
  expect(login.status).toBe(302);
  expect(login.headers.get("location")).toMatch(/^\/admin\/verify/);
  return (
    login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .find((c) => c.startsWith("han_console=")) ?? ""
  );
}

/** Six-digit codes the authenticator does not show now (nor one step either side). */
function wrongCodes(totpSecret: string, count: number): string[] {
  const key = totp.base32Decode(totpSecret);
  const step = totp.totpStep(new Date());
  const valid = new Set([-2, -1, 0, 1, 2].map((d) => totp.hotp(key, step + d)));
  const codes: string[] = [];
  for (let n = 100_000; codes.length < count; n += 7919) if (!valid.has(String(n))) codes.push(String(n));
  return codes;
}

function rightCode(totpSecret: string): string {
  return totp.hotp(totp.base32Decode(totpSecret), totp.totpStep(new Date()));
}

async function auditRows(action: string, where: { actorUserId?: string; targetId?: string } = {}) {
  return db
    .select()
    .from(schema.auditLog)
    .where(
      and(
        eq(schema.auditLog.action, action),
        where.actorUserId ? eq(schema.auditLog.actorUserId, where.actorUserId) : undefined,
        where.targetId ? eq(schema.auditLog.targetId, where.targetId) : undefined,
      ),
    );
}

async function counterTotal(prefix: string): Promise<number> {
  const rows = await db
    .select({ count: schema.rateLimitCounter.count })
    .from(schema.rateLimitCounter)
    .where(like(schema.rateLimitCounter.key, `${prefix}%`));
  return rows.reduce((sum, r) => sum + r.count, 0);
}

describe("the second factor counts wrong codes per staff account (item 1)", () => {
  it("20 wrong codes at once over 4 fresh logins: exactly the account's allowance is compared; the right code is refused until an admin lifts the lock", async () => {
    const staff = await testing.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
    const email = `staff-${staff.userId}@example.com`;
    await givePassword(staff.userId);
    const cookies: string[] = [];
    for (let i = 0; i < 4; i++) cookies.push(await freshLogin(email, i));
    const max = sessions.CONSOLE_SESSION_POLICY.accountFailedCodesPerDay;
    expect(max).toBeLessThan(20);
    const codes = wrongCodes(staff.totpSecret, 20);
    const answers = await postAll(
      20,
      () => "/admin/verify",
      (i) => ({ code: codes[i] ?? "" }),
      (i) => cookies[i % cookies.length] ?? "",
    );
    const statuses = answers.map((r) => r.status);
    // Compared (and wrong): "wrong code" (400), or the session's last try ended it (back to the login).
    const ended = answers.filter((r) => r.status === 302 && /^\/admin\/login/.test(r.headers.get("location") ?? ""));
    const compared = statuses.filter((s) => s === 400).length + ended.length;
    const locked = statuses.filter((s) => s === 429).length;
    expect(compared, statuses.join(",")).toBe(max);
    expect(locked, statuses.join(",")).toBe(20 - max);
    expect(await counterTotal(`staff:2fa:fail:${staff.userId}`)).toBe(max);
    // The lock is audited once; each session ended by its wrong codes once (item 7).
    expect(await auditRows("staff.second_factor_locked", { targetId: staff.userId })).toHaveLength(1);
    expect(await auditRows("staff.session_ended", { actorUserId: staff.userId })).toHaveLength(ended.length);

    // Locked: a fresh login with the right code is refused, and says so.
    const fresh = await freshLogin(email, 1);
    const refused = await post(0, "/admin/verify", { code: rightCode(staff.totpSecret) }, fresh);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("已鎖定");

    // An admin sees the lock on the staff member's page and lifts it (step-up given, permission-checked).
    const admin = await testing.createTestStaff(db, secret, { role: "admin" });
    const page = await fetch(`${base(0)}/admin/staff/${staff.userId}`, {
      headers: { cookie: `han_console=${admin.token}` },
    });
    expect(await page.text()).toContain('data-testid="staff-locked"');
    // A manager may not lift it (403) and the count stays.
    const manager = await testing.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const notAllowed = await post(
      1,
      `/admin/staff/${staff.userId}`,
      { intent: "unlock" },
      `han_console=${manager.token}`,
    );
    expect(notAllowed.status).toBe(403);
    expect(await counterTotal(`staff:2fa:fail:${staff.userId}`)).toBe(max);
    const lifted = await postAll(
      4,
      () => `/admin/staff/${staff.userId}`,
      () => ({ intent: "unlock" }),
      () => `han_console=${admin.token}`,
    );
    for (const answer of lifted)
      expect(answer.headers.get("location")).toBe(`/admin/staff/${staff.userId}?done=unlocked`);
    expect(await auditRows("staff.second_factor_unlocked", { targetId: staff.userId })).toHaveLength(1);
    expect(await counterTotal(`staff:2fa:fail:${staff.userId}`)).toBe(0);

    // Lifted: the right code opens the console, and a right code does not count against the account.
    const opened = await post(1, "/admin/verify", { code: rightCode(staff.totpSecret) }, fresh);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/admin");
    expect(await counterTotal(`staff:2fa:fail:${staff.userId}`)).toBe(0);
  });
});

describe("an invitation for an existing login claims that login's counters (item 4)", () => {
  it("20 wrong passwords at once over two instances: exactly the free failures are checked, the rest wait", async () => {
    const admin = await testing.createTestStaff(db, secret, { role: "admin" });
    const userId = crypto.randomUUID();
    const email = `invited-${userId}@example.com`;
    await db.insert(schema.authUser).values({
      id: userId,
      name: "受邀會員",
      email,
      emailVerified: true,
      role: "member",
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await givePassword(userId);
    const { token } = await accounts.inviteStaff(
      db,
      admin.actor,
      { contact: email, displayName: "受邀會員", role: "staff", storeIds: ["xinyi-flagship"] },
      {
        actorType: "staff",
        userId: admin.userId,
        role: "admin",
        storeId: null,
        ip: null,
        userAgent: null,
        requestId: null,
      },
    );
    const answers = await postAll(
      20,
      () => `/admin/invitation/${token}`,
      (i) => ({ password: `Wrong-Guess-${i}-Terrace` }),
      () => "",
    );
    const statuses = answers.map((r) => r.status);
    const free = flows.LOGIN_POLICY.freeFailures;
    expect(statuses.filter((s) => s === 400).length, statuses.join(",")).toBe(free);
    expect(statuses.filter((s) => s === 429).length, statuses.join(",")).toBe(20 - free);
    // The same counter as the member login's: one per user.
    expect(await counterTotal(flows.loginFailureKey(userId))).toBe(free);
    // Each checked wrong password is audited (item 7), against the invitation.
    const [invitation] = await db
      .select({ id: schema.staffInvitation.id })
      .from(schema.staffInvitation)
      .where(eq(schema.staffInvitation.email, email));
    expect(await auditRows("staff.invitation_login_failed", { targetId: invitation?.id })).toHaveLength(free);
    // A login now waits too: the counter is the login's (verifyLogin, as the member login uses it).
    const login = await post(0, "/admin/login", { identifier: email, password: PASSWORD });
    expect(login.status).toBe(429);
    // Still waiting: the right password is not checked either.
    const right = await post(1, `/admin/invitation/${token}`, { password: PASSWORD });
    expect(right.status).toBe(429);
  });
});

describe("failed security events are audited, a few rows per actor or IP per minute (item 7)", () => {
  it("20 refused console actions at once: every one is refused (403), exactly the budget is audited", async () => {
    const security = (await apps.vite.ssrLoadModule(
      "/app/domain/audit/security-events.server.ts",
    )) as typeof SecurityModule;
    const clerk = await testing.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
    const other = await testing.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
    const answers = await postAll(
      20,
      () => `/admin/staff/${other.userId}`,
      () => ({ intent: "disable" }),
      () => `han_console=${clerk.token}`,
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(403));
    const rows = await auditRows("console.access_refused", { actorUserId: clerk.userId });
    expect(rows).toHaveLength(security.SECURITY_AUDIT_POLICY.perSourceMinute);
    expect(rows[0]).toMatchObject({ targetType: "permission", targetId: "staff.manage", actorRole: "staff" });
    expect(rows[0]?.changes).toMatchObject({
      method: { after: "POST" },
      path: { after: `/admin/staff/${other.userId}` },
    });
    // Over the budget the page is still refused, without a row.
    const page = await fetch(`${base(1)}/admin/audit`, { headers: { cookie: `han_console=${clerk.token}` } });
    expect(page.status).toBe(403);
    expect(await auditRows("console.access_refused", { actorUserId: clerk.userId })).toHaveLength(
      security.SECURITY_AUDIT_POLICY.perSourceMinute,
    );
    // Another clerk's refusal has its own budget: a page view refused is audited with its permission.
    const second = await fetch(`${base(0)}/admin/audit`, { headers: { cookie: `han_console=${other.token}` } });
    expect(second.status).toBe(403);
    const [viewed] = await auditRows("console.access_refused", { actorUserId: other.userId });
    expect(viewed).toMatchObject({ targetId: "audit.view" });
    // A client-side navigation's data request is refused and audited the same way.
    const data = await fetch(`${base(1)}/admin/audit.data`, { headers: { cookie: `han_console=${other.token}` } });
    expect(data.status).toBe(403);
    expect(await auditRows("console.access_refused", { actorUserId: other.userId })).toHaveLength(2);
    // An export (a resource route) refused is audited too; its answer is the export's own (not changed here).
    const third = await testing.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
    const exported = await fetch(`${base(0)}/admin/members/export`, {
      headers: { cookie: `han_console=${third.token}` },
    });
    expect(exported.status).toBe(403);
    const [refusedExport] = await auditRows("console.access_refused", { actorUserId: third.userId });
    expect(refusedExport).toMatchObject({ targetId: "member.export" });
  });

  it("wrong console passwords are audited against the staff account (or none for an unknown login)", async () => {
    const staff = await testing.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const email = `staff-${staff.userId}@example.com`;
    await givePassword(staff.userId);
    const answers = await postAll(
      3,
      () => "/admin/login",
      (i) => ({ identifier: email, password: `Not-The-Password-${i}` }),
      () => "",
    );
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400]);
    const rows = await auditRows("staff.login_failed", { targetId: staff.userId });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      actorType: "system",
      actorRole: "anonymous",
      targetType: "staff",
      ip: "127.0.0.1",
    });
    const unknown = await post(0, "/admin/login", {
      identifier: "nobody-at-all@example.com",
      password: "Whatever-1234",
    });
    expect(unknown.status).toBe(400);
    const anonymous = (await auditRows("staff.login_failed")).filter((r) => r.targetId === null);
    expect(anonymous).toHaveLength(1);
    expect(anonymous[0]).toMatchObject({ targetType: "console_login" });
    // The identifier typed is personal data: it is not in the row.
    expect(JSON.stringify(anonymous[0])).not.toContain("nobody-at-all");
  });
});
