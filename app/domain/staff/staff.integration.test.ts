import type { Database } from "@platform/db/client";
import { auditLog, authAccount, authUser, staffInvitation, staffSession } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type AuditContext, verifyAuditChain } from "../audit/audit.server";
import { hashPassword } from "../auth/passwords.server";
import { seedCatalog } from "../demo";
import {
  acceptInvitation,
  createFirstAdmin,
  INVITATION_HOURS,
  invitationState,
  inviteStaff,
  setStaffDisabled,
  updateStaffAccess,
} from "./accounts.server";
import type { StaffActor } from "./actor";
import type { StaffError } from "./errors";
import { beginTotpEnrolment, confirmTotpEnrolment } from "./second-factor.server";
import {
  activateEnrolledSession,
  CONSOLE_SESSION_POLICY,
  giveSecondFactor,
  loadConsoleSession,
  startConsoleSession,
  switchCurrentStore,
} from "./sessions.server";
import { base32Decode, hotp, totpStep } from "./totp";

let db: Database;
useMigratedTestDatabase("staff", (handle) => {
  db = handle.db;
});

const SECRET = "test-session-secret-with-enough-length-0123456789";
const deps = () => ({ db, secret: SECRET });
const where = { ip: "198.51.100.7", userAgent: "vitest", requestId: "req-staff-test" };
const system: AuditContext = { actorType: "system", label: "test", ...where };
const T0 = new Date("2026-03-02T01:00:00Z");
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

function codeFor(secret: string, at: Date, offsetSteps = 0): string {
  return hotp(base32Decode(secret), totpStep(at) + offsetSteps);
}

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return null;
}

/** Invites, accepts, enrols TOTP; returns the user id, its TOTP secret and an active actor. */
async function onboard(contact: string, role: string, storeIds: string[], by: StaffActor | "bootstrap", at = T0) {
  const { token } = await inviteStaff(db, by, { contact, displayName: `name ${contact}`, role, storeIds }, system, at);
  const accepted = await acceptInvitation(db, { token, password: "Counter-Tablet-Sunrise-42" }, where, at);
  if (!accepted.ok) throw new Error(`accept failed: ${accepted.reason}`);
  const started = await startConsoleSession(db, { userId: accepted.userId, ip: null, userAgent: null }, at);
  const pending = await loadConsoleSession(db, started.token, at);
  expect(pending?.stage).toBe("enrol");
  const enrolment = await beginTotpEnrolment(deps(), accepted.userId);
  if (!enrolment.ok) throw new Error("enrolment refused");
  const confirmed = await confirmTotpEnrolment(deps(), accepted.userId, codeFor(enrolment.secret, at), system, at);
  if (!confirmed.ok) throw new Error(`confirm failed: ${confirmed.reason}`);
  await activateEnrolledSession(db, started.sessionId, at);
  const loaded = await loadConsoleSession(db, started.token, at);
  if (!loaded?.actor) throw new Error("no actor");
  return { userId: accepted.userId, secret: enrolment.secret, token: started.token, actor: loaded.actor, confirmed };
}

let admin: Awaited<ReturnType<typeof onboard>>;

beforeAll(async () => {
  await seedCatalog(db);
  admin = await onboard("owner@example.com", "admin", [], "bootstrap");
});

describe("staff accounts", () => {
  it("the first admin: an invitation link, never a password; refused once an admin exists", async () => {
    expect(admin.actor).toMatchObject({ role: "admin", storeIds: [], displayName: "name owner@example.com" });
    expect(admin.confirmed.ok && admin.confirmed.recoveryCodes).toHaveLength(10);
    const again = await createFirstAdmin(db, { contact: "x@example.com", displayName: "X", baseUrl: "http://h" });
    expect(again).toEqual({ ok: false, reason: "admin_exists" });
  });

  it("an admin invites a clerk for one store; the link is single-use, hashed, and valid 72 hours", async () => {
    const { token, invitation } = await inviteStaff(
      db,
      admin.actor,
      { contact: "0911-222-333", displayName: "陳店員", role: "staff", storeIds: ["xinyi-flagship"] },
      { ...system, actorType: "staff", userId: admin.userId, role: "admin", storeId: null } as AuditContext,
      T0,
    );
    expect(invitation).toMatchObject({ phoneNumber: "+886911222333", email: null, role: "staff" });
    const [stored] = await db.select().from(staffInvitation).where(eq(staffInvitation.id, invitation.id));
    expect(stored?.tokenHash).not.toContain(token);
    expect(stored?.expiresAt.getTime()).toBe(T0.getTime() + INVITATION_HOURS * 3_600_000);

    expect(await invitationState(db, token, new Date(T0.getTime() + INVITATION_HOURS * 3_600_000))).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await acceptInvitation(db, { token, password: "short" }, where, T0)).toMatchObject({
      ok: false,
      reason: "password",
      problem: "too_short",
    });
    const first = await acceptInvitation(db, { token, password: "Counter-Tablet-Sunrise-42" }, where, T0);
    expect(first.ok).toBe(true);
    expect(await acceptInvitation(db, { token, password: "Counter-Tablet-Sunrise-42" }, where, T0)).toEqual({
      ok: false,
      reason: "used",
    });
    expect(await invitationState(db, "forged-token", T0)).toEqual({ ok: false, reason: "unknown" });
  });

  it("refuses a bad invitation with the field it belongs to, and a clerk cannot invite", async () => {
    const bad = async (input: Partial<Parameters<typeof inviteStaff>[2]>) =>
      (await rejection(() =>
        inviteStaff(
          db,
          admin.actor,
          { contact: "a@example.com", displayName: "A", role: "staff", storeIds: ["banqiao"], ...input },
          system,
        ),
      )) as StaffError;
    expect(await bad({ contact: "" })).toMatchObject({ code: "contact_required", field: "contact" });
    expect(await bad({ contact: "not-an-email@" })).toMatchObject({ code: "invalid_email" });
    expect(await bad({ contact: "02-2345-6789" })).toMatchObject({ code: "invalid_phone" });
    expect(await bad({ role: "owner" })).toMatchObject({ code: "invalid_role", field: "role" });
    expect(await bad({ storeIds: [] })).toMatchObject({ code: "stores_required", field: "storeIds" });
    expect(await bad({ storeIds: ["nowhere"] })).toMatchObject({ code: "unknown_store" });
    expect(await bad({ displayName: " " })).toMatchObject({ code: "invalid_name" });
    expect(await bad({ contact: "owner@example.com" })).toMatchObject({ code: "already_staff" });

    const clerk = await onboard("clerk-a@example.com", "staff", ["banqiao"], admin.actor);
    const forbidden = await rejection(() =>
      inviteStaff(
        db,
        clerk.actor,
        { contact: "b@example.com", displayName: "B", role: "staff", storeIds: ["banqiao"] },
        system,
      ),
    );
    expect((forbidden as { init?: { status?: number } }).init?.status).toBe(403);
  });

  it("a member who is invited keeps their login: they accept with their own password (one login, two hats)", async () => {
    await db.insert(authUser).values({
      id: "member-user-1",
      name: "王會員",
      email: "919888777@phone.invalid",
      phoneNumber: "+886919888777",
      phoneNumberVerified: true,
    });
    await db.insert(authAccount).values({
      id: "member-account-1",
      accountId: "member-user-1",
      providerId: "credential",
      userId: "member-user-1",
      password: await hashPassword("Member-Own-Password-77"),
    });
    const { token } = await inviteStaff(
      db,
      admin.actor,
      { contact: "0919888777", displayName: "王經理", role: "manager", storeIds: ["banqiao", "taoyuan"] },
      system,
      T0,
    );
    expect(await invitationState(db, token, T0)).toMatchObject({ ok: true, existingAccount: true });
    // The invitation link alone cannot set a new password on an existing account.
    expect(await acceptInvitation(db, { token, password: "Brand-New-Password-99" }, where, T0)).toEqual({
      ok: false,
      reason: "wrong_password",
    });
    expect(await acceptInvitation(db, { token, password: "Member-Own-Password-77" }, where, T0)).toEqual({
      ok: true,
      userId: "member-user-1",
    });
    const [user] = await db.select().from(authUser).where(eq(authUser.id, "member-user-1"));
    expect(user?.role).toBe("manager");
  });
});

describe("console sessions and the second factor", () => {
  it("a login is pending until the code; a code is refused a second time (no replay)", async () => {
    const clerk = await onboard("clerk-b@example.com", "staff", ["xinyi-flagship", "banqiao"], admin.actor);
    const at = minutes(2);
    const login = await startConsoleSession(db, { userId: clerk.userId, ip: null, userAgent: "iPad" }, at);
    const pending = await loadConsoleSession(db, login.token, at);
    expect(pending).toMatchObject({ stage: "second_factor", actor: null });
    const code = codeFor(clerk.secret, at);
    const session = { sessionId: login.sessionId, userId: clerk.userId };
    expect(await giveSecondFactor(deps(), session, code, system, at)).toEqual({ ok: true, method: "totp" });
    const active = await loadConsoleSession(db, login.token, at);
    expect(active?.actor).toMatchObject({ role: "staff", currentStoreId: "banqiao", secondFactorAt: at });
    // The same code again (a step-up a moment later) is refused.
    expect(await giveSecondFactor(deps(), session, code, system, at)).toEqual({ ok: false, reason: "invalid_code" });
    expect(await giveSecondFactor(deps(), session, codeFor(clerk.secret, at, 1), system, at)).toMatchObject({
      ok: true,
    });
    // The store switch stays within the clerk's stores.
    expect(await switchCurrentStore(db, active!.actor!, "taoyuan")).toBe(false);
    expect(await switchCurrentStore(db, active!.actor!, "xinyi-flagship")).toBe(true);
    expect((await loadConsoleSession(db, login.token, at))?.actor?.currentStoreId).toBe("xinyi-flagship");
  });

  it("a recovery code opens one login only; too many wrong codes end the session", async () => {
    const clerk = await onboard("clerk-c@example.com", "staff", ["banqiao"], admin.actor);
    const [recovery] = clerk.confirmed.ok ? clerk.confirmed.recoveryCodes : [];
    const one = await startConsoleSession(db, { userId: clerk.userId, ip: null, userAgent: null }, T0);
    const two = await startConsoleSession(db, { userId: clerk.userId, ip: null, userAgent: null }, T0);
    expect(
      await giveSecondFactor(
        deps(),
        { sessionId: one.sessionId, userId: clerk.userId },
        recovery!.toLowerCase(),
        system,
        T0,
      ),
    ).toEqual({
      ok: true,
      method: "recovery",
    });
    const s2 = { sessionId: two.sessionId, userId: clerk.userId };
    for (let i = 1; i < CONSOLE_SESSION_POLICY.maxFailedCodes; i++) {
      expect(await giveSecondFactor(deps(), s2, recovery!, system, T0)).toEqual({ ok: false, reason: "invalid_code" });
    }
    expect(await giveSecondFactor(deps(), s2, "000000", system, T0)).toEqual({ ok: false, reason: "session_ended" });
    expect(await loadConsoleSession(db, two.token, T0)).toBeNull();
  });

  it("ends a session after 30 idle minutes or 12 hours, and a pending one after 15 minutes", async () => {
    const clerk = await onboard("clerk-d@example.com", "staff", ["banqiao"], admin.actor);
    expect(await loadConsoleSession(db, clerk.token, minutes(29))).not.toBeNull();
    expect(await loadConsoleSession(db, clerk.token, minutes(58))).not.toBeNull(); // 29 idle minutes
    expect(await loadConsoleSession(db, clerk.token, minutes(89))).toBeNull(); // 31 idle minutes
    expect(await loadConsoleSession(db, clerk.token, minutes(1))).toBeNull(); // deleted for good

    // Active all day long: still ends 12 hours after the login.
    const busy = await startConsoleSession(db, { userId: clerk.userId, ip: null, userAgent: null }, T0);
    await activateEnrolledSession(db, busy.sessionId, T0);
    for (let m = 25; m < 12 * 60; m += 25) expect(await loadConsoleSession(db, busy.token, minutes(m))).not.toBeNull();
    expect(await loadConsoleSession(db, busy.token, minutes(12 * 60 + 1))).toBeNull();

    const pending = await startConsoleSession(db, { userId: clerk.userId, ip: null, userAgent: null }, T0);
    expect(await loadConsoleSession(db, pending.token, minutes(16))).toBeNull();
  });

  it("disabling a staff member ends their sessions at once; the last admin cannot be removed", async () => {
    const clerk = await onboard("clerk-e@example.com", "staff", ["banqiao"], admin.actor);
    expect(await loadConsoleSession(db, clerk.token, T0)).not.toBeNull();
    await setStaffDisabled(db, admin.actor, clerk.userId, true, system, T0);
    expect(await db.select().from(staffSession).where(eq(staffSession.userId, clerk.userId))).toEqual([]);
    expect(await loadConsoleSession(db, clerk.token, T0)).toBeNull();
    const relogin = await startConsoleSession(db, { userId: clerk.userId, ip: null, userAgent: null }, T0);
    expect(await loadConsoleSession(db, relogin.token, T0)).toBeNull();

    expect(await rejection(() => setStaffDisabled(db, admin.actor, admin.userId, true, system, T0))).toMatchObject({
      code: "cannot_change_self",
    });
    const second = await onboard("second-admin@example.com", "admin", [], admin.actor);
    expect(
      await rejection(() =>
        updateStaffAccess(db, second.actor, admin.userId, { role: "staff", storeIds: ["banqiao"] }, system, T0),
      ),
    ).toBeNull();
    // Two admins demoting each other: one wins, the other is refused (it would leave no admin).
    expect(
      await rejection(() =>
        updateStaffAccess(db, admin.actor, second.userId, { role: "staff", storeIds: ["banqiao"] }, system, T0),
      ),
    ).toMatchObject({ code: "last_admin" });
    // The demoted owner is a clerk now; the remaining admin is the last one.
    const demoted = await loadConsoleSession(db, admin.token, T0);
    expect(demoted?.actor?.role).toBe("staff");
  });

  it("every write above is in an unbroken audit chain, personal values masked", async () => {
    const rows = await db.select().from(auditLog);
    const actions = new Set(rows.map((r) => r.action));
    for (const action of [
      "staff.invited",
      "staff.invitation_accepted",
      "staff.second_factor_enrolled",
      "staff.second_factor_given",
      "staff.disabled",
      "staff.access_changed",
    ]) {
      expect(actions).toContain(action);
    }
    const invited = rows.find((r) => r.action === "staff.invited");
    expect(invited?.changes?.email).toEqual({ before: null, after: "[masked]" });
    expect(JSON.stringify(rows)).not.toContain("owner@example.com");
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });
});
