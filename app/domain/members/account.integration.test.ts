import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@platform/config";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import {
  authAccount,
  authPasskey,
  authSession,
  authUser,
  coupon,
  member,
  memberConsent,
  oneTimeCode,
  pointEntry,
  purchase,
  rateLimitCounter,
  reward,
  tradeApplication,
} from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listSessions, revokeSession } from "../auth/active-sessions.server";
import { type Auth, createAuth } from "../auth/auth.server";
import { type AuthDeps, setPassword, startSession, verifyLogin } from "../auth/flows.server";
import { isRecentLogin, proveIdentity, renewSession } from "../auth/identity.server";
import { listPasskeys, removePasskey, renamePasskey } from "../auth/passkeys.server";
import { changePassword } from "../auth/password-change.server";
import {
  confirmEmailVerification,
  confirmPhoneChange,
  requestEmailChange,
  requestPhoneChange,
  sendIdentityCode,
} from "../auth/verification.server";
import { adjustPoints } from "../loyalty/points.server";
import { recordPurchase } from "../loyalty/purchases.server";
import { redeemReward } from "../loyalty/rewards.server";
import { ledgerTotals } from "../loyalty/testing.server";
import { RecordingMessaging } from "../messaging/recording-messaging";
import { applyForTrade } from "../referrals/trade.server";
import type { ExternalLoginRevoker } from "./external-logins.server";
import { createMember, findMemberByUserId, type Member } from "./members.server";
import { currentConsents, deleteMemberAccount, erasedPhone, exportMemberData } from "./privacy.server";
import { updateMemberProfile } from "./profile-update.server";

const SECRET = "account-secret-account-secret-0123456789abcdef";
const STRONG = "Oak-Parquet-2026!";

let testDb: TestDatabase;
let handle: DatabaseHandle;
let auth: Auth;
let messaging: RecordingMessaging;
let deps: AuthDeps;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "member-account-"));
  testDb = await createTestDatabase({ label: "member_account", migrated: true });
  handle = await openDatabase(testDb.config);
  await handle.migrate();
  auth = createAuth({
    db: handle.db,
    config: loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, APP_ENV: "test" }),
  });
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
});

let phoneSeq = 30_000_000;
const newPhone = () => `+8869${String(phoneSeq++).padStart(8, "0")}`;

async function newMember(opts: { email?: string } = {}): Promise<Member & { sessionId: string }> {
  const phone = newPhone();
  const ctx = await auth.$context;
  const user = await ctx.internalAdapter.createUser(
    { name: "陳大文", email: `${phone.slice(1)}@phone.invalid`, phoneNumber: phone, phoneNumberVerified: true },
    { method: "phone-number" },
  );
  await setPassword(deps, user.id, STRONG);
  const created = await createMember(handle.db, {
    userId: user.id,
    phoneNumber: phone,
    signupMethod: "phone",
    ip: "192.0.2.10",
    profile: {
      nameZh: "陳大文",
      gender: "male",
      birthday: "1988-03-14",
      companyName: "大文建設",
      taxIdNumber: "04595257",
      city: "臺北市",
      district: "大安區",
      postalCode: "106",
      street: "復興南路一段 1 號",
      marketingSms: true,
      marketingEmail: false,
      marketingLine: true,
    },
  });
  if (opts.email) {
    await handle.db.update(member).set({ email: opts.email }).where(eq(member.id, created.id));
    await handle.db.update(authUser).set({ email: opts.email, emailVerified: true }).where(eq(authUser.id, user.id));
  }
  await startSession(deps, user.id, new Headers({ "user-agent": "first-device" }));
  const [s] = await handle.db.select().from(authSession).where(eq(authSession.userId, user.id));
  return { ...((await findMemberByUserId(handle.db, user.id)) as Member), sessionId: s?.id ?? "" };
}

describe("profile updates", () => {
  it("changes only the session member's row and records marketing changes as consents", async () => {
    const me = await newMember();
    const other = await newMember();
    await updateMemberProfile(handle.db, {
      current: me,
      profile: {
        nameZh: "陳大武",
        gender: "undisclosed",
        birthday: "1988-03-15",
        taxIdNumber: undefined,
        companyName: undefined,
        einvoiceCarrier: "/ABC1234",
        city: "新北市",
        district: "板橋區",
        street: "文化路 2 號",
        marketingSms: undefined,
        marketingEmail: "on",
        marketingLine: "on",
      },
      ip: "192.0.2.20",
    });
    const after = await findMemberByUserId(handle.db, me.userId);
    expect(after).toMatchObject({
      nameZh: "陳大武",
      birthday: "1988-03-15",
      taxIdNumber: null,
      einvoiceCarrier: "/ABC1234",
      postalCode: "220",
      marketingSms: false,
      marketingEmail: true,
      marketingLine: true,
    });
    const consents = await currentConsents(handle.db, me.userId);
    expect(consents.find((c) => c.kind === "marketing_sms")?.granted).toBe(false);
    expect(consents.find((c) => c.kind === "marketing_email")?.granted).toBe(true);
    const untouched = await findMemberByUserId(handle.db, other.userId);
    expect(untouched).toMatchObject({ nameZh: "陳大文", birthday: "1988-03-14", taxIdNumber: "04595257" });
  });

  it("says when a birthday moved to within 30 days withholds this year's birthday points", async () => {
    const me = await newMember();
    const profile = {
      nameZh: me.nameZh ?? "陳大文",
      gender: "male" as const,
      companyName: undefined,
      taxIdNumber: undefined,
      einvoiceCarrier: undefined,
      city: undefined,
      district: undefined,
      street: undefined,
      marketingSms: undefined,
      marketingEmail: undefined,
      marketingLine: undefined,
    };
    const now = new Date("2026-05-01T04:00:00Z"); // 12:00 in Taipei
    const soon = await updateMemberProfile(
      handle.db,
      { current: me, profile: { ...profile, birthday: "1988-05-20" }, ip: null },
      now,
    );
    expect(soon).toEqual({ birthdayPointsWithheld: true });
    const moved = (await findMemberByUserId(handle.db, me.userId)) as Member;
    const later = await updateMemberProfile(
      handle.db,
      { current: moved, profile: { ...profile, birthday: "1988-09-20" }, ip: null },
      now,
    );
    expect(later).toEqual({ birthdayPointsWithheld: false });
  });
});

describe("e-mail and phone changes", () => {
  it("verifies the new e-mail by code and tells the old address", async () => {
    const me = await newMember({ email: `old-${randomUUID()}@example.com` });
    const next = `new-${randomUUID()}@example.com`;
    const sent = await requestEmailChange(deps, { userId: me.userId, email: next, ip: null, locale: "zh-TW" });
    expect(sent.ok).toBe(true);
    // Until the code is typed, the old address stays the login.
    expect((await findMemberByUserId(handle.db, me.userId))?.email).toBe(me.email);
    const mail = messaging.emails.at(-1);
    expect(mail?.template === "one-time-code" && mail.data.purpose).toBe("change-email");
    expect((await confirmEmailVerification(deps, { userId: me.userId, code: "000000" })).ok).toBe(false);
    const confirmed = await confirmEmailVerification(deps, { userId: me.userId, code: messaging.lastEmailCode(next) });
    expect(confirmed.ok).toBe(true);
    expect(await findMemberByUserId(handle.db, me.userId)).toMatchObject({ email: next, pendingEmail: null });
    const notice = messaging.emails.at(-1);
    expect(notice).toMatchObject({ to: me.email, template: "email-changed", data: { newEmail: next } });
  });

  it("refuses an e-mail that another member uses", async () => {
    const taken = `taken-${randomUUID()}@example.com`;
    await newMember({ email: taken });
    const me = await newMember();
    expect(await requestEmailChange(deps, { userId: me.userId, email: taken, ip: null, locale: "zh-TW" })).toEqual({
      ok: false,
      reason: "taken",
    });
  });

  it("moves the phone login to a number verified by SMS, and refuses one in use", async () => {
    const me = await newMember();
    const other = await newMember();
    expect(
      await requestPhoneChange(deps, { userId: me.userId, phoneNumber: other.phoneNumber, ip: null, locale: "zh-TW" }),
    ).toEqual({ ok: false, reason: "taken" });
    const next = newPhone();
    expect((await requestPhoneChange(deps, { userId: me.userId, phoneNumber: next, ip: null, locale: "en" })).ok).toBe(
      true,
    );
    const changed = await confirmPhoneChange(deps, {
      userId: me.userId,
      phoneNumber: next,
      code: messaging.lastSmsCode(next),
    });
    expect(changed.ok).toBe(true);
    expect((await findMemberByUserId(handle.db, me.userId))?.phoneNumber).toBe(next);
    const login = await verifyLogin(deps, { kind: "phone", identifier: next, password: STRONG, ip: null });
    expect(login).toEqual({ ok: true, userId: me.userId });
    const old = await verifyLogin(deps, { kind: "phone", identifier: me.phoneNumber, password: STRONG, ip: null });
    expect(old.ok).toBe(false);
  });

  it("answers 'taken' only at the cost of a code send: the member's 5 sends per hour, phone and e-mail together", async () => {
    const me = await newMember();
    const others = [];
    for (let i = 0; i < 6; i++) others.push(await newMember({ email: `taken-${i}-${randomUUID()}@example.com` }));
    const answers = [];
    for (const [i, other] of others.entries()) {
      const result =
        i % 2 === 0
          ? await requestPhoneChange(deps, {
              userId: me.userId,
              phoneNumber: other.phoneNumber,
              ip: null,
              locale: "zh-TW",
            })
          : await requestEmailChange(deps, { userId: me.userId, email: other.email ?? "", ip: null, locale: "zh-TW" });
      answers.push(result.ok ? "sent" : result.reason);
    }
    expect(answers).toEqual(["taken", "taken", "taken", "taken", "taken", "rate_limited"]);
    // A free number is refused too: the member's budget is spent.
    const free = await requestPhoneChange(deps, { userId: me.userId, phoneNumber: newPhone(), ip: null, locale: "en" });
    expect(free).toMatchObject({ ok: false, reason: "rate_limited" });
    expect(messaging.sms).toHaveLength(0);
  });
});

describe("identity checks and sessions", () => {
  it("treats a session as recent for 15 minutes; renewing replaces it with a fresh one", async () => {
    const me = await newMember();
    expect(await isRecentLogin(handle.db, me.sessionId)).toBe(true);
    expect(await isRecentLogin(handle.db, me.sessionId, new Date(Date.now() + 16 * 60_000))).toBe(false);
    await renewSession(deps, { userId: me.userId, sessionId: me.sessionId, requestHeaders: new Headers() });
    const sessions = await listSessions(handle.db, me.userId, "none");
    expect(sessions.map((s) => s.id)).not.toContain(me.sessionId);
    expect(sessions).toHaveLength(1);
  });

  it("accepts the password or an SMS code to the member's own phone, and locks after repeated failures", async () => {
    const me = await newMember();
    const proof = (password: string) =>
      proveIdentity(deps, { userId: me.userId, phoneNumber: me.phoneNumber, proof: { method: "password", password } });
    expect(await proof(STRONG)).toEqual({ ok: true });
    expect(await proof("wrong-password")).toEqual({ ok: false, reason: "invalid" });
    await sendIdentityCode(deps, { phoneNumber: me.phoneNumber, ip: null, locale: "zh-TW" });
    const code = messaging.lastSmsCode(me.phoneNumber);
    expect(
      await proveIdentity(deps, { userId: me.userId, phoneNumber: me.phoneNumber, proof: { method: "sms", code } }),
    ).toEqual({ ok: true });
    for (let i = 0; i < 10; i++) await proof("wrong-password");
    expect((await proof(STRONG)).ok).toBe(false);
  });

  it("changes the password with the current one and ends every other session", async () => {
    const me = await newMember();
    await startSession(deps, me.userId, new Headers({ "user-agent": "second-device" }));
    await startSession(deps, me.userId, new Headers({ "user-agent": "third-device" }));
    expect(await listSessions(handle.db, me.userId, me.sessionId)).toHaveLength(3);

    const wrong = await changePassword(deps, {
      userId: me.userId,
      sessionId: me.sessionId,
      phoneNumber: me.phoneNumber,
      currentPassword: "not-my-password",
      newPassword: "Brick-Terrazzo-2027?",
    });
    expect(wrong).toEqual({ ok: false, reason: "invalid" });
    expect(await listSessions(handle.db, me.userId, me.sessionId)).toHaveLength(3);

    const weak = await changePassword(deps, {
      userId: me.userId,
      sessionId: me.sessionId,
      phoneNumber: me.phoneNumber,
      currentPassword: STRONG,
      newPassword: "password",
    });
    expect(weak.ok).toBe(false);

    const done = await changePassword(deps, {
      userId: me.userId,
      sessionId: me.sessionId,
      phoneNumber: me.phoneNumber,
      currentPassword: STRONG,
      newPassword: "Brick-Terrazzo-2027?",
    });
    expect(done).toEqual({ ok: true, endedSessions: 2 });
    const left = await listSessions(handle.db, me.userId, me.sessionId);
    expect(left.map((s) => s.id)).toEqual([me.sessionId]);
    const login = await verifyLogin(deps, {
      kind: "phone",
      identifier: me.phoneNumber,
      password: "Brick-Terrazzo-2027?",
      ip: null,
    });
    expect(login.ok).toBe(true);
  });

  it("never ends or edits another member's session or passkey", async () => {
    const me = await newMember();
    const other = await newMember();
    expect(await revokeSession(handle.db, me.userId, other.sessionId)).toBe(false);
    expect(await listSessions(handle.db, other.userId, other.sessionId)).toHaveLength(1);
    const passkeyId = randomUUID();
    await handle.db.insert(authPasskey).values({
      id: passkeyId,
      name: "Other's phone",
      publicKey: "cHVibGlj",
      userId: other.userId,
      credentialID: randomUUID(),
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
    });
    expect(await renamePasskey(handle.db, me.userId, passkeyId, "mine now")).toBe(false);
    expect(await removePasskey(handle.db, me.userId, passkeyId)).toBe(false);
    expect((await listPasskeys(handle.db, other.userId)).map((p) => p.name)).toEqual(["Other's phone"]);
    expect(await renamePasskey(handle.db, other.userId, passkeyId, "Pixel")).toBe(true);
  });
});

describe("passkey login", () => {
  it("refuses a disabled member's passkey before any WebAuthn check", async () => {
    const me = await newMember();
    const credentialID = `cred-${randomUUID()}`;
    await handle.db.insert(authPasskey).values({
      id: randomUUID(),
      publicKey: "cHVibGlj",
      userId: me.userId,
      credentialID,
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
    });
    const ctx = await auth.$context;
    const attempt = () =>
      auth.handler(
        new Request(`${ctx.baseURL}/passkey/verify-authentication`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: new URL(ctx.baseURL).origin },
          body: JSON.stringify({
            response: { id: credentialID, rawId: credentialID, type: "public-key", response: {} },
          }),
        }),
      );
    // Active member: the request reaches the plugin, which finds no challenge.
    expect((await attempt()).status).toBe(400);
    await handle.db.update(member).set({ disabled: true }).where(eq(member.id, me.id));
    const refused = await attempt();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "MEMBER_DISABLED" });
  });
});

async function withHistory(me: Member) {
  await adjustPoints(handle.db, {
    memberId: me.id,
    amount: 500,
    reason: "opening balance",
    idempotencyKey: randomUUID(),
  });
  await recordPurchase(handle.db, {
    memberId: me.id,
    storeId: "S01",
    receiptNumber: `R-${randomUUID().slice(0, 8)}`,
    netAmount: 12_000,
    purchasedAt: new Date(),
  });
  const rewardId = randomUUID();
  await handle.db
    .insert(reward)
    .values({ id: rewardId, name: "NT$100 折價券", kind: "amount-off", amountOff: 100, pointsCost: 100 });
  await redeemReward(handle.db, { memberId: me.id, rewardId, idempotencyKey: randomUUID() });
}

describe("download my data", () => {
  it("exports the profile, consents, ledger, purchases and coupons, without secrets", async () => {
    const me = await newMember();
    await withHistory(me);
    const data = await exportMemberData(handle.db, me.userId);
    expect(data.profile).toMatchObject({
      memberNumber: me.memberNumber,
      name: "陳大文",
      phoneNumber: me.phoneNumber,
      taxIdNumber: "04595257",
      address: { city: "臺北市", district: "大安區", postalCode: "106" },
    });
    expect(data.consents.map((c) => c.kind).sort()).toEqual(["marketing_email", "marketing_line", "marketing_sms"]);
    expect(data.consents.every((c) => c.version)).toBe(true);
    expect(data.points.ledger.length).toBeGreaterThanOrEqual(2);
    expect(data.purchases).toHaveLength(1);
    expect(data.coupons).toEqual([expect.objectContaining({ reward: "NT$100 折價券", status: "issued" })]);
    // Trade-account applications (ADR 057): a rejected one with its reason, then the pending one.
    const rejectedAt = new Date("2026-11-02T03:00:00Z");
    await handle.db.insert(tradeApplication).values({
      memberId: me.id,
      taxIdNumber: "04595257",
      companyName: "大文設計",
      kind: "designer",
      state: "rejected",
      reason: "統編與公司名稱不符",
      decidedBy: "staff-decider-id",
      decidedAt: rejectedAt,
      createdAt: new Date("2026-11-01T03:00:00Z"),
    });
    await applyForTrade(handle.db, {
      memberId: me.id,
      taxIdNumber: "04595257",
      companyName: "大文室內設計",
      kind: "designer",
    });
    const withTrade = await exportMemberData(handle.db, me.userId);
    expect(withTrade.tradeApplications).toEqual([
      {
        taxIdNumber: "04595257",
        companyName: "大文設計",
        kind: "designer",
        state: "rejected",
        reason: "統編與公司名稱不符",
        appliedAt: "2026-11-01T03:00:00.000Z",
        decidedAt: rejectedAt.toISOString(),
      },
      expect.objectContaining({ companyName: "大文室內設計", state: "pending", reason: null, decidedAt: null }),
    ]);
    expect(JSON.stringify(withTrade)).not.toContain("staff-decider-id");
    const json = JSON.stringify(data);
    expect(json).not.toContain("$argon2");
    expect(json).not.toMatch(/"token"/);
  });
});

describe("delete my account", () => {
  it("erases personal data, keeps an anonymous ledger, ends sessions, and the member cannot log in again", async () => {
    const me = await newMember({ email: `leaving-${randomUUID()}@example.com` });
    const other = await newMember();
    await withHistory(me);
    await startSession(deps, me.userId, new Headers({ "user-agent": "second-device" }));
    await sendIdentityCode(deps, { phoneNumber: me.phoneNumber, ip: null, locale: "zh-TW" });
    const revoked: string[] = [];
    const line: ExternalLoginRevoker = {
      provider: "line",
      revoke: async ({ userId }) => {
        revoked.push(userId);
      },
    };
    const ledgerBefore = await handle.db.select().from(pointEntry).where(eq(pointEntry.memberId, me.id));

    const result = await deleteMemberAccount(handle.db, { userId: me.userId, ip: null, revokers: [line] });
    expect(result).toEqual({ ok: true, revokeFailures: [] });
    expect(revoked).toEqual([me.userId]);

    const [row] = await handle.db.select().from(member).where(eq(member.id, me.id));
    expect(row).toMatchObject({
      nameZh: "",
      birthday: null,
      phoneNumber: erasedPhone(me.id),
      email: null,
      companyName: null,
      taxIdNumber: null,
      city: null,
      street: null,
      marketingSms: false,
      marketingLine: false,
      disabled: true,
      memberNumber: me.memberNumber,
    });
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const [user] = await handle.db.select().from(authUser).where(eq(authUser.id, me.userId));
    expect(user?.phoneNumber).toBeNull();
    expect(user?.email).toMatch(/@deleted\.invalid$/);
    expect(await handle.db.select().from(authSession).where(eq(authSession.userId, me.userId))).toEqual([]);
    expect(await handle.db.select().from(authAccount).where(eq(authAccount.userId, me.userId))).toEqual([]);
    expect(await handle.db.select().from(oneTimeCode).where(eq(oneTimeCode.target, me.phoneNumber))).toEqual([]);
    const consents = await handle.db.select().from(memberConsent).where(eq(memberConsent.userId, me.userId));
    expect(consents.every((c) => c.ipAddress === null)).toBe(true);

    // Accounting keeps the (now nameless) ledger and purchases; unused coupons are cancelled and the
    // remaining points forfeited, both as ledger entries, so the books still balance.
    const ledgerAfter = await handle.db.select().from(pointEntry).where(eq(pointEntry.memberId, me.id));
    expect(ledgerAfter.slice(0, ledgerBefore.length).map((e) => e.id)).toEqual(ledgerBefore.map((e) => e.id));
    expect(ledgerAfter.map((e) => e.kind)).toEqual(expect.arrayContaining(["coupon-cancel", "adjust"]));
    expect(await ledgerTotals(handle.db, me.id)).toEqual({ balance: 0, ledgerSum: 0, lotsRemaining: 0 });
    expect(await handle.db.select().from(purchase).where(eq(purchase.memberId, me.id))).toHaveLength(1);
    const coupons = await handle.db.select().from(coupon).where(eq(coupon.memberId, me.id));
    expect(coupons.every((c) => c.status === "cancelled")).toBe(true);

    for (const identifier of [me.phoneNumber]) {
      const login = await verifyLogin(deps, { kind: "phone", identifier, password: STRONG, ip: null });
      expect(login).toEqual({ ok: false, reason: "invalid" });
    }
    const byEmail = await verifyLogin(deps, { kind: "email", identifier: me.email ?? "", password: STRONG, ip: null });
    expect(byEmail.ok).toBe(false);
    // The number is free again for a new sign-up; the other member is untouched.
    expect(await findMemberByUserId(handle.db, other.userId)).toMatchObject({ nameZh: "陳大文", disabled: false });
    expect(await deleteMemberAccount(handle.db, { userId: me.userId, ip: null, revokers: [] })).toEqual({
      ok: false,
      reason: "already_deleted",
    });
  });

  it("still deletes when an external login cannot be revoked, and reports it", async () => {
    const me = await newMember();
    const broken: ExternalLoginRevoker = {
      provider: "line",
      revoke: async () => {
        throw new Error("LINE is down");
      },
    };
    const result = await deleteMemberAccount(handle.db, { userId: me.userId, ip: null, revokers: [broken] });
    expect(result).toEqual({ ok: true, revokeFailures: ["line"] });
    expect((await findMemberByUserId(handle.db, me.userId))?.deletedAt).not.toBeNull();
  });
});
