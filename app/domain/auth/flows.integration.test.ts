import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@platform/config";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { authUser, member, oneTimeCode, rateLimitCounter } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase, testDatabaseDriver } from "@platform/testing/database";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listCardDevices, registerCardDevice } from "../loyalty/card-devices.server";
import { createMember } from "../members/members.server";
import { RecordingMessaging } from "../messaging/recording-messaging";
import { type Auth, createAuth } from "./auth.server";
import {
  type AuthDeps,
  completePasswordReset,
  deleteAbandonedSignups,
  setPassword,
  startSession,
  verifyLogin,
} from "./flows.server";
import { issueCode, verifyCode } from "./one-time-codes.server";
import {
  completeVerification,
  requestPasswordReset,
  requestSignupCode,
  requestVerification,
  verifyPasswordReset,
  verifySignupCode,
} from "./verification.server";

const SECRET = "integration-secret-integration-secret-0123456789";
const STRONG = "Tile-and-Walnut-2026!";

let testDb: TestDatabase;
let handle: DatabaseHandle;
let auth: Auth;
let messaging: RecordingMessaging;
let deps: AuthDeps;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "auth-flows-"));
  testDb = await createTestDatabase({ label: "auth_flows", migrated: true });
  handle = await openDatabase(testDb.config);
  await handle.migrate();
  const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, APP_ENV: "test" });
  auth = createAuth({ db: handle.db, config });
});

afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  messaging = new RecordingMessaging();
  deps = { db: handle.db, auth, messaging, secret: SECRET };
  await handle.db.delete(rateLimitCounter);
  await handle.db.delete(oneTimeCode);
});

let phoneSeq = 10_000_000;
const newPhone = () => `+8869${String(phoneSeq++).padStart(8, "0")}`;

async function signUp(phone: string, password = STRONG) {
  await requestSignupCode(deps, { phoneNumber: phone, ip: "192.0.2.1", locale: "zh-TW" });
  const verified = await verifySignupCode(deps, { phoneNumber: phone, code: messaging.lastCode(phone) });
  if (!verified.ok) throw new Error(`verify failed: ${verified.reason}`);
  expect((await setPassword(deps, verified.userId, password)).ok).toBe(true);
  const created = await createMember(handle.db, {
    userId: verified.userId,
    phoneNumber: phone,
    signupMethod: "phone",
    ip: null,
    profile: { nameZh: "林小美", gender: "female", marketingSms: false, marketingEmail: false, marketingLine: false },
  });
  return { userId: verified.userId, member: created };
}

describe("phone sign-up", () => {
  it("sends a 6-digit code, creates the user on verification and the member in step 3", async () => {
    const phone = newPhone();
    const sent = await requestSignupCode(deps, { phoneNumber: phone, ip: "192.0.2.1", locale: "zh-TW" });
    expect(sent.ok).toBe(true);
    expect(messaging.sms).toHaveLength(1);
    expect(messaging.sms[0]?.text).toMatch(/驗證碼為 \d{6}/);
    expect(messaging.sms[0]?.text).not.toMatch(/https?:/);

    const { member: created } = await signUp(newPhone());
    expect(created.memberNumber).toMatch(/^HL\d{8}$/);
    expect(created.memberLevel).toBe("basic");
    expect(created.disabled).toBe(false);
  });

  it("stores only a hash of the code", async () => {
    const phone = newPhone();
    await requestSignupCode(deps, { phoneNumber: phone, ip: null, locale: "zh-TW" });
    const code = messaging.lastCode(phone);
    const rows = await handle.db.select().from(oneTimeCode).where(eq(oneTimeCode.target, phone));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.codeHash).not.toContain(code);
    expect(rows[0]?.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a wrong code, then accepts the right one once (single use)", async () => {
    const phone = newPhone();
    await requestSignupCode(deps, { phoneNumber: phone, ip: null, locale: "zh-TW" });
    const code = messaging.lastCode(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await verifySignupCode(deps, { phoneNumber: phone, code: wrong })).toEqual({ ok: false, reason: "invalid" });
    expect((await verifySignupCode(deps, { phoneNumber: phone, code })).ok).toBe(true);
    expect(await verifySignupCode(deps, { phoneNumber: phone, code })).toEqual({ ok: false, reason: "invalid" });
  });

  it("answers already_member for a member's number and sends nothing", async () => {
    const phone = newPhone();
    await signUp(phone);
    messaging.sms = [];
    expect(await requestSignupCode(deps, { phoneNumber: phone, ip: null, locale: "zh-TW" })).toEqual({
      ok: false,
      reason: "already_member",
    });
    expect(messaging.sms).toHaveLength(0);
  });

  it("resumes an abandoned sign-up for the same number, and deletes it after 24 hours", async () => {
    const phone = newPhone();
    await requestSignupCode(deps, { phoneNumber: phone, ip: null, locale: "zh-TW" });
    const first = await verifySignupCode(deps, { phoneNumber: phone, code: messaging.lastCode(phone) });
    await handle.db.delete(oneTimeCode);
    await requestSignupCode(deps, { phoneNumber: phone, ip: null, locale: "zh-TW" });
    const second = await verifySignupCode(deps, { phoneNumber: phone, code: messaging.lastCode(phone) });
    expect(first.ok && second.ok && first.userId === second.userId).toBe(true);

    expect(await deleteAbandonedSignups(handle.db, new Date(Date.now() + 23 * 3_600_000))).toBe(0);
    const deleted = await deleteAbandonedSignups(handle.db, new Date(Date.now() + 25 * 3_600_000));
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await handle.db.select().from(authUser).where(eq(authUser.phoneNumber, phone))).toHaveLength(0);
  });

  it("counts an 'already a member' answer against the number's send limits before giving it", async () => {
    const phone = newPhone();
    await signUp(phone);
    messaging.sms = [];
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const result = await requestSignupCode(deps, { phoneNumber: phone, ip: "203.0.113.5", locale: "zh-TW" });
      answers.push(result.ok ? "sent" : result.reason);
    }
    // The sign-up itself used one of the number's 5 sends this hour.
    expect(answers).toEqual(["already_member", "already_member", "already_member", "already_member", "rate_limited"]);
    expect(messaging.sms).toHaveLength(0);
  });
});

describe("LINE sign-up phone step", () => {
  it("gives a verified free number to the LINE user, removing an abandoned sign-up that held it", async () => {
    const phone = newPhone();
    // An abandoned phone sign-up: a verified user without a member row.
    await requestSignupCode(deps, { phoneNumber: phone, ip: null, locale: "zh-TW" });
    const abandoned = await verifySignupCode(deps, { phoneNumber: phone, code: messaging.lastCode(phone) });
    if (!abandoned.ok) throw new Error("not verified");
    await handle.db.delete(oneTimeCode);
    const ctx = await auth.$context;
    const lineUser = await ctx.internalAdapter.createUser(
      { name: "LINE", email: `line-${phone.slice(1)}@example.com` },
      { method: "line" },
    );
    const sent = await requestVerification(deps, { flow: "line-signup", phoneNumber: phone, ip: null, locale: "en" });
    expect(sent.ok).toBe(true);
    expect(messaging.sms.at(-1)?.text).toMatch(/sign-up code is \d{6}/);
    const verified = await completeVerification(deps, {
      flow: "line-signup",
      userId: lineUser.id,
      phoneNumber: phone,
      code: messaging.lastCode(phone),
    });
    expect(verified).toEqual({ ok: true, existingMemberUserId: null });
    const holders = await handle.db.select({ id: authUser.id }).from(authUser).where(eq(authUser.phoneNumber, phone));
    expect(holders).toEqual([{ id: lineUser.id }]);
  });

  it("only names the member whose number was verified (the LINE login may then move there)", async () => {
    const phone = newPhone();
    const { userId } = await signUp(phone);
    await handle.db.delete(oneTimeCode);
    const ctx = await auth.$context;
    const lineUser = await ctx.internalAdapter.createUser(
      { name: "LINE", email: `line-${phone.slice(1)}@example.com` },
      { method: "line" },
    );
    await requestVerification(deps, { flow: "line-signup", phoneNumber: phone, ip: null, locale: "zh-TW" });
    const verified = await completeVerification(deps, {
      flow: "line-signup",
      userId: lineUser.id,
      phoneNumber: phone,
      code: messaging.lastCode(phone),
    });
    expect(verified).toEqual({ ok: true, existingMemberUserId: userId });
    const [line] = await handle.db.select().from(authUser).where(eq(authUser.id, lineUser.id));
    expect(line?.phoneNumber).toBeNull();
  });
});

describe("one-time codes", () => {
  it("are bound to their purpose", async () => {
    const target = newPhone();
    const issued = await issueCode(handle.db, { purpose: "signup", target, ip: null, secret: SECRET });
    if (!issued.ok) throw new Error("not issued");
    expect(
      await verifyCode(handle.db, { purpose: "reset-password", target, code: issued.code, secret: SECRET }),
    ).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect((await verifyCode(handle.db, { purpose: "signup", target, code: issued.code, secret: SECRET })).ok).toBe(
      true,
    );
  });

  it("expire after 5 minutes", async () => {
    const target = newPhone();
    const now = new Date();
    const issued = await issueCode(handle.db, { purpose: "signup", target, ip: null, secret: SECRET }, now);
    if (!issued.ok) throw new Error("not issued");
    const later = new Date(now.getTime() + 5 * 60_000 + 1000);
    expect(
      await verifyCode(handle.db, { purpose: "signup", target, code: issued.code, secret: SECRET }, later),
    ).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("burn after 5 wrong tries", async () => {
    const target = newPhone();
    const issued = await issueCode(handle.db, { purpose: "signup", target, ip: null, secret: SECRET });
    if (!issued.ok) throw new Error("not issued");
    const wrong = issued.code === "123456" ? "654321" : "123456";
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push(await verifyCode(handle.db, { purpose: "signup", target, code: wrong, secret: SECRET }));
    expect(results.at(-1)).toEqual({ ok: false, reason: "too_many_attempts" });
    expect(await verifyCode(handle.db, { purpose: "signup", target, code: issued.code, secret: SECRET })).toEqual({
      ok: false,
      reason: "too_many_attempts",
    });
  });

  it("keep a 60 s resend cooldown and at most 5 sends per number per hour", async () => {
    const target = newPhone();
    const start = new Date("2026-11-22T02:00:00Z");
    const at = (s: number) => new Date(start.getTime() + s * 1000);
    expect((await issueCode(handle.db, { purpose: "signup", target, ip: null, secret: SECRET }, at(0))).ok).toBe(true);
    const tooSoon = await issueCode(handle.db, { purpose: "signup", target, ip: null, secret: SECRET }, at(30));
    expect(tooSoon).toMatchObject({ ok: false, reason: "cooldown", retryAfterSeconds: 30 });
    for (let i = 1; i < 5; i++) {
      expect((await issueCode(handle.db, { purpose: "signup", target, ip: null, secret: SECRET }, at(i * 61))).ok).toBe(
        true,
      );
    }
    const sixth = await issueCode(handle.db, { purpose: "signup", target, ip: null, secret: SECRET }, at(5 * 61));
    expect(sixth).toMatchObject({ ok: false, reason: "rate_limited" });
  });

  it("allow at most 10 sends per client IP per hour, across numbers", async () => {
    const start = new Date("2026-11-22T03:00:00Z");
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await issueCode(
            handle.db,
            { purpose: "signup", target: newPhone(), ip: "198.51.100.7", secret: SECRET },
            start,
          )
        ).ok,
      ).toBe(true);
    }
    const eleventh = await issueCode(
      handle.db,
      { purpose: "signup", target: newPhone(), ip: "198.51.100.7", secret: SECRET },
      start,
    );
    expect(eleventh).toMatchObject({ ok: false, reason: "rate_limited" });
  });
});

describe("login", () => {
  it("accepts the right password by phone and by e-mail, one message for wrong password and unknown account", async () => {
    const phone = newPhone();
    const { userId } = await signUp(phone);
    expect(await verifyLogin(deps, { kind: "phone", identifier: phone, password: STRONG, ip: null })).toEqual({
      ok: true,
      userId,
    });
    expect(await verifyLogin(deps, { kind: "phone", identifier: phone, password: "wrong-password", ip: null })).toEqual(
      {
        ok: false,
        reason: "invalid",
      },
    );
    expect(await verifyLogin(deps, { kind: "phone", identifier: newPhone(), password: STRONG, ip: null })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(
      await verifyLogin(deps, { kind: "email", identifier: "nobody@example.com", password: STRONG, ip: null }),
    ).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("tells a disabled member so, but only with the right password", async () => {
    const phone = newPhone();
    const { userId } = await signUp(phone);
    await handle.db.update(member).set({ disabled: true }).where(eq(member.userId, userId));
    expect(await verifyLogin(deps, { kind: "phone", identifier: phone, password: "not-it-at-all", ip: null })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await verifyLogin(deps, { kind: "phone", identifier: phone, password: STRONG, ip: null })).toEqual({
      ok: false,
      reason: "disabled",
    });
  });

  it("slows down after repeated failures, with a growing delay", async () => {
    const phone = newPhone();
    await signUp(phone);
    const t0 = new Date("2026-11-22T04:00:00Z");
    for (let i = 0; i < 5; i++) {
      expect(
        await verifyLogin(deps, { kind: "phone", identifier: phone, password: "nope-nope-nope", ip: null }, t0),
      ).toMatchObject({
        reason: "invalid",
      });
    }
    const blocked = await verifyLogin(deps, { kind: "phone", identifier: phone, password: STRONG, ip: null }, t0);
    expect(blocked).toMatchObject({ ok: false, reason: "rate_limited" });
    const later = new Date(t0.getTime() + 3000);
    expect(
      await verifyLogin(deps, { kind: "phone", identifier: phone, password: STRONG, ip: null }, later),
    ).toMatchObject({ ok: true });
  });

  it("creates a new session with a cookie that better-auth accepts", async () => {
    const phone = newPhone();
    const { userId } = await signUp(phone);
    const headers = await startSession(deps, userId, new Headers({ "user-agent": "vitest" }));
    const setCookie = headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="));
    expect(setCookie).toBeDefined();
    const cookie = setCookie?.split(";")[0] ?? "";
    const session = await auth.api.getSession({ headers: new Headers({ cookie }) });
    expect(session?.user.id).toBe(userId);
    const [row] = await handle.db.select().from(member).where(eq(member.userId, userId));
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
  });
});

describe("forgot password", () => {
  it("gives the same answer for an unknown number and sends nothing", async () => {
    const unknown = await requestPasswordReset(deps, {
      channel: "phone",
      target: newPhone(),
      ip: null,
      locale: "zh-TW",
    });
    expect(unknown.ok).toBe(true);
    expect(messaging.sms).toHaveLength(0);
  });

  it("answers alike for a member's number and an unknown one at every step, also after 5 wrong codes", async () => {
    const known = newPhone();
    await signUp(known);
    const unknown = newPhone();
    messaging.sms = [];
    async function steps(target: string) {
      const answers: unknown[] = [];
      const sent = await requestPasswordReset(deps, { channel: "phone", target, ip: "198.51.100.20", locale: "zh-TW" });
      answers.push(sent.ok ? { ok: true, code: sent.code } : sent);
      const again = await requestPasswordReset(deps, {
        channel: "phone",
        target,
        ip: "198.51.100.20",
        locale: "zh-TW",
      });
      answers.push(again.ok ? "sent" : again.reason);
      // One wrong code for both: never the member's real one.
      const wrong = messaging.sms.length > 0 && messaging.lastCode(known) === "000000" ? "111111" : "000000";
      for (let i = 0; i < 6; i++) {
        const verified = await verifyPasswordReset(deps, { channel: "phone", target, code: wrong });
        answers.push(verified.ok ? "accepted" : verified.reason);
      }
      return answers;
    }
    const expected = [
      { ok: true, code: "" },
      "cooldown",
      "invalid",
      "invalid",
      "invalid",
      "invalid",
      "too_many_attempts",
      "too_many_attempts",
    ];
    expect(await steps(known)).toEqual(expected);
    expect(await steps(unknown)).toEqual(expected);
    expect(messaging.sms.map((m) => m.to)).toEqual([known]);
  });

  it("resets the password by SMS code, ends every session and revokes the offline cards", async () => {
    const phone = newPhone();
    const { userId, member: created } = await signUp(phone);
    const headers = await startSession(deps, userId, new Headers());
    const cookie = headers.getSetCookie()[0]?.split(";")[0] ?? "";
    expect(await auth.api.getSession({ headers: new Headers({ cookie }) })).not.toBeNull();
    const device = await registerCardDevice(handle.db, SECRET, {
      memberId: created.id,
      name: "iphone/safari",
      sessionId: null,
    });
    expect(device).not.toBeNull();

    expect((await requestPasswordReset(deps, { channel: "phone", target: phone, ip: null, locale: "en" })).ok).toBe(
      true,
    );
    expect(messaging.sms.at(-1)?.text).toMatch(/password reset code is \d{6}/);
    const verified = await verifyPasswordReset(deps, {
      channel: "phone",
      target: phone,
      code: messaging.lastCode(phone),
    });
    expect(verified).toEqual({ ok: true, userId });
    expect(await completePasswordReset(deps, userId, "123456789", [])).toEqual({ ok: false, problem: "common" });
    expect(await completePasswordReset(deps, userId, "New-Stone-Floor-88", [])).toEqual({ ok: true });
    expect(await auth.api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
    expect(await listCardDevices(handle.db, created.id)).toEqual([]);
    expect(
      await verifyLogin(deps, { kind: "phone", identifier: phone, password: "New-Stone-Floor-88", ip: null }),
    ).toMatchObject({ ok: true });
  });
});

// Defined only on PostgreSQL (TEST_DATABASE_URL): PGlite is one process, there is no second instance.
if (testDatabaseDriver() === "postgres")
  describe("limits across two app instances", () => {
    it("hold when two instances share one PostgreSQL", async () => {
      const second = await openDatabase(testDb.config);
      try {
        const target = newPhone();
        const start = new Date("2026-11-22T05:00:00Z");
        const results: boolean[] = [];
        for (let i = 0; i < 7; i++) {
          const db = i % 2 === 0 ? handle.db : second.db;
          const issued = await issueCode(
            db,
            { purpose: "signup", target, ip: null, secret: SECRET },
            new Date(start.getTime() + i * 61_000),
          );
          results.push(issued.ok);
        }
        expect(results).toEqual([true, true, true, true, true, false, false]);

        // Concurrent wrong tries from both instances never exceed the 5-try budget.
        const issued = await issueCode(handle.db, { purpose: "reset-password", target, ip: null, secret: SECRET });
        if (!issued.ok) throw new Error("not issued");
        const wrong = issued.code === "000000" ? "999999" : "000000";
        await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            verifyCode(i % 2 ? second.db : handle.db, {
              purpose: "reset-password",
              target,
              code: wrong,
              secret: SECRET,
            }),
          ),
        );
        expect(
          await verifyCode(second.db, { purpose: "reset-password", target, code: issued.code, secret: SECRET }),
        ).toEqual({
          ok: false,
          reason: "too_many_attempts",
        });
      } finally {
        await second.close();
      }
    });

    it("login failure delays hold across instances", async () => {
      const second = await openDatabase(testDb.config);
      try {
        const phone = newPhone();
        await signUp(phone);
        const t0 = new Date("2026-11-22T06:00:00Z");
        for (let i = 0; i < 5; i++) {
          const d = { ...deps, db: i % 2 ? second.db : handle.db };
          await verifyLogin(d, { kind: "phone", identifier: phone, password: "wrong-wrong-wrong", ip: null }, t0);
        }
        const other = { ...deps, db: second.db };
        expect(
          await verifyLogin(other, { kind: "phone", identifier: phone, password: STRONG, ip: null }, t0),
        ).toMatchObject({
          reason: "rate_limited",
        });
      } finally {
        await second.close();
      }
    });
  });

describe("sessions", () => {
  it("are listed for their owner and can be revoked one by one or all but the current one", async () => {
    const { listSessions, revokeOtherSessions, revokeSession } = await import("./active-sessions.server");
    const phone = newPhone();
    const { userId } = await signUp(phone);
    const cookies = [];
    for (const agent of ["phone", "tablet", "desktop"]) {
      const headers = await startSession(deps, userId, new Headers({ "user-agent": agent }));
      cookies.push(headers.getSetCookie()[0]?.split(";")[0] ?? "");
    }
    const current = await auth.api.getSession({ headers: new Headers({ cookie: cookies[2] as string }) });
    const currentId = current?.session.id as string;
    const listed = await listSessions(handle.db, userId, currentId);
    expect(listed.map((s) => s.userAgent).sort()).toEqual(["desktop", "phone", "tablet"]);
    expect(listed.filter((s) => s.current)).toHaveLength(1);

    const other = await signUp(newPhone());
    const phoneSession = listed.find((s) => s.userAgent === "phone")?.id as string;
    expect(await revokeSession(handle.db, other.userId, phoneSession)).toBe(false);
    expect(await revokeSession(handle.db, userId, phoneSession)).toBe(true);
    expect(await auth.api.getSession({ headers: new Headers({ cookie: cookies[0] as string }) })).toBeNull();

    expect(await revokeOtherSessions(handle.db, userId, currentId)).toBe(1);
    expect((await listSessions(handle.db, userId, currentId)).map((s) => s.id)).toEqual([currentId]);
  });
});
