import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AuditModule from "../app/domain/audit/audit.server";
import type * as SessionsModule from "../app/domain/staff/sessions.server";
import type * as TestingModule from "../app/domain/staff/testing.server";
import type * as TotpModule from "../app/domain/staff/totp";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * The console's limits and writes under simultaneous requests (ADR 018, ADR 020): two instances of the
 * full app on ONE PostgreSQL database, requests spread over both. A console session's wrong codes are
 * claimed before they are compared, so 20 guesses at once compare at most the session's allowance and
 * then the session is gone; one code is accepted once; 20 simultaneous disables of one staff member
 * change (and audit) it once. PostgreSQL only (PGlite is one process and cannot race).
 */

let apps: DevApps;
let db: Database;
let secret: string;
let schema: typeof Schema;
let testing: typeof TestingModule;
let sessions: typeof SessionsModule;
let totp: typeof TotpModule;
let audit: typeof AuditModule;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test", TEST_HOOKS_SECRET: "y".repeat(40) }, { label: "console_race" });
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  secret = first.running.config.secrets.session;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  testing = (await load("/app/domain/staff/testing.server.ts")) as typeof TestingModule;
  sessions = (await load("/app/domain/staff/sessions.server.ts")) as typeof SessionsModule;
  totp = (await load("/app/domain/staff/totp.ts")) as typeof TotpModule;
  audit = (await load("/app/domain/audit/audit.server.ts")) as typeof AuditModule;
}, 240_000);

afterAll(() => apps?.stop());

/** The same form posted `count` times at once, alternating between the two instances. */
function postAll(count: number, pathname: string, fields: (i: number) => Record<string, string>, cookie: string) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const base = apps.instances[i % apps.instances.length]?.base ?? "";
      return fetch(`${base}${pathname}`, {
        method: "POST",
        body: new URLSearchParams(fields(i)),
        headers: { origin: base, cookie },
        redirect: "manual",
      });
    }),
  );
}

async function pendingSession(userId: string): Promise<{ cookie: string; sessionId: string }> {
  const { token, sessionId } = await sessions.startConsoleSession(db, { userId, ip: null, userAgent: null });
  return { cookie: `han_console=${token}`, sessionId };
}

describe("console second-factor codes at the same moment, over two instances", () => {
  it("20 wrong codes compare at most the session's allowance, then the session is gone for the right code too", async () => {
    const staff = await testing.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
    const { cookie, sessionId } = await pendingSession(staff.userId);
    const { eq } = await import("drizzle-orm");
    const answers = await postAll(20, "/admin/verify", (i) => ({ code: String(100000 + i).padStart(6, "0") }), cookie);
    const statuses = answers.map((r) => r.status);
    const wrong = statuses.filter((s) => s === 400).length;
    const ended = answers.filter((r) => r.status === 302 && /^\/admin\/login/.test(r.headers.get("location") ?? ""));
    // Each answer is either "wrong code" or "session ended"; never more wrong answers than the allowance.
    expect(wrong + ended.length).toBe(20);
    expect(wrong).toBeLessThan(sessions.CONSOLE_SESSION_POLICY.maxFailedCodes);
    const rows = await db.select().from(schema.staffSession).where(eq(schema.staffSession.id, sessionId));
    expect(rows).toHaveLength(0);
    const right = totp.hotp(totp.base32Decode(staff.totpSecret), totp.totpStep(new Date()));
    const late = await postAll(1, "/admin/verify", () => ({ code: right }), cookie);
    expect(late[0]?.headers.get("location")).toMatch(/^\/admin\/login/);
  });

  it("the right code sent 4 times at once (within the allowance) opens the session once: a code is used once", async () => {
    const staff = await testing.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
    // Its own session from createTestStaff has used no code; a new pending one gives the code now.
    const { cookie } = await pendingSession(staff.userId);
    const right = totp.hotp(totp.base32Decode(staff.totpSecret), totp.totpStep(new Date()));
    const answers = await postAll(4, "/admin/verify", () => ({ code: right }), cookie);
    const opened = answers.filter((r) => r.status === 302 && r.headers.get("location") === "/admin");
    expect(opened).toHaveLength(1);
    expect(answers.filter((r) => r.status === 400)).toHaveLength(3);
    const { and, eq } = await import("drizzle-orm");
    const given = await db
      .select()
      .from(schema.auditLog)
      .where(
        and(eq(schema.auditLog.action, "staff.second_factor_given"), eq(schema.auditLog.actorUserId, staff.userId)),
      );
    expect(given).toHaveLength(1);
  });
});

describe("staff changes at the same moment, over two instances", () => {
  it("20 simultaneous disables of one clerk change and audit it once and end the clerk's sessions", async () => {
    const admin = await testing.createTestStaff(db, secret, { role: "admin" });
    const clerk = await testing.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
    const answers = await postAll(
      20,
      `/admin/staff/${clerk.userId}`,
      () => ({ intent: "disable" }),
      `han_console=${admin.token}`,
    );
    for (const answer of answers) {
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe(`/admin/staff/${clerk.userId}?done=disabled`);
    }
    const { and, eq } = await import("drizzle-orm");
    const rows = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "staff.disabled"), eq(schema.auditLog.targetId, clerk.userId)));
    expect(rows).toHaveLength(1);
    expect(await sessions.staffProfile(db, clerk.userId)).toMatchObject({ disabled: true });
    expect(
      await db.select().from(schema.staffSession).where(eq(schema.staffSession.userId, clerk.userId)),
    ).toHaveLength(0);

    // 20 simultaneous role changes to the same access audit once as well.
    const other = await testing.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
    await postAll(
      20,
      `/admin/staff/${other.userId}`,
      () => ({ intent: "access", role: "manager", storeIds: "banqiao" }),
      `han_console=${admin.token}`,
    );
    const changed = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "staff.access_changed"), eq(schema.auditLog.targetId, other.userId)));
    expect(changed).toHaveLength(1);
    expect(await sessions.staffProfile(db, other.userId)).toMatchObject({ role: "manager", storeIds: ["banqiao"] });
    expect(await audit.verifyAuditChain(db)).toMatchObject({ ok: true });
  });
});
