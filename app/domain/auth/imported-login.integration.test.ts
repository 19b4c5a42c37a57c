import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@platform/config";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { authAccount, authUser, oneTimeCode, rateLimitCounter } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { and, eq } from "drizzle-orm";
import { FirebaseScrypt } from "firebase-scrypt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMember } from "../members/members.server";
import { RecordingMessaging } from "../messaging/recording-messaging";
import { type Auth, createAuth } from "./auth.server";
import { encodeFirebaseHash } from "./firebase-hash-format";
import { type AuthDeps, completePasswordReset, placeholderEmail, verifyLogin } from "./flows.server";
import { proveIdentity } from "./identity.server";
import { requestPasswordReset, verifyPasswordReset } from "./verification.server";

/**
 * Members moved in from another system (issue 35, ADR 038): a Firebase password hash works at the first login
 * and is replaced by argon2id there; a member without a password claims the account through the reset flow.
 */

const SECRET = "integration-secret-integration-secret-0123456789";
const OLD_PASSWORD = "舊密碼-Walnut-2019";
/** Firebase's parameters with a smaller memory cost (the test machine is shared). */
const HASH_CONFIG = {
  signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  saltSeparator: "Bw==",
  rounds: 8,
  memCost: 10,
};

let testDb: TestDatabase;
let handle: DatabaseHandle;
let auth: Auth;
let messaging: RecordingMessaging;
let deps: AuthDeps;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "auth-imported-"));
  testDb = await createTestDatabase({ label: "auth_imported", migrated: true });
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
  await handle.db.delete(oneTimeCode);
});

let phoneSeq = 30_000_000;
const newPhone = () => `+8869${String(phoneSeq++).padStart(8, "0")}`;

/** A member as an import leaves one: the login user and member row, a credential account only with a hash. */
async function importedMember(options: { password?: string; email?: string } = {}) {
  const phone = newPhone();
  const userId = randomUUID();
  await handle.db.insert(authUser).values({
    id: userId,
    name: "林舊會員",
    email: options.email ?? placeholderEmail(phone),
    emailVerified: Boolean(options.email),
    phoneNumber: phone,
    phoneNumberVerified: true,
  });
  await createMember(handle.db, {
    userId,
    phoneNumber: phone,
    signupMethod: "phone",
    ip: null,
    profile: { nameZh: "林舊會員", gender: "female", marketingSms: false, marketingEmail: false, marketingLine: false },
  });
  let stored: string | null = null;
  if (options.password) {
    const salt = Buffer.from(`salt-${userId}`).toString("base64");
    const hash = await new FirebaseScrypt(HASH_CONFIG).hash(options.password, salt);
    stored = encodeFirebaseHash(HASH_CONFIG, { kind: "firebase-scrypt", salt, hash });
    await handle.db
      .insert(authAccount)
      .values({ id: randomUUID(), userId, providerId: "credential", accountId: userId, password: stored });
  }
  return { userId, phone, stored };
}

async function storedPassword(userId: string): Promise<string | null | undefined> {
  const [row] = await handle.db
    .select({ password: authAccount.password })
    .from(authAccount)
    .where(and(eq(authAccount.userId, userId), eq(authAccount.providerId, "credential")));
  return row?.password;
}

const login = (identifier: string, password: string, kind: "phone" | "email" = "phone") =>
  verifyLogin(deps, { kind, identifier, password, ip: "192.0.2.35" });

describe("an imported Firebase password", () => {
  it("logs in with the old password, which is then stored as argon2id and keeps working", async () => {
    const { userId, phone, stored } = await importedMember({ password: OLD_PASSWORD });
    expect(await storedPassword(userId)).toBe(stored);

    expect(await login(phone, OLD_PASSWORD)).toEqual({ ok: true, userId });
    const upgraded = await storedPassword(userId);
    expect(upgraded).toMatch(/^\$argon2id\$/);

    expect(await login(phone, OLD_PASSWORD)).toEqual({ ok: true, userId });
    expect(await storedPassword(userId)).toBe(upgraded);
  });

  it("logs in by e-mail the same way", async () => {
    const { userId, stored } = await importedMember({ password: OLD_PASSWORD, email: "old-member@example.com" });
    expect(await login("old-member@example.com", "wrong-password-1", "email")).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await storedPassword(userId)).toBe(stored);
    expect(await login("old-member@example.com", OLD_PASSWORD, "email")).toEqual({ ok: true, userId });
    expect(await storedPassword(userId)).toMatch(/^\$argon2id\$/);
  });

  it("refuses a wrong password like any other and leaves the Firebase hash", async () => {
    const { userId, phone, stored } = await importedMember({ password: OLD_PASSWORD });
    expect(await login(phone, "舊密碼-Walnut-2018")).toEqual({ ok: false, reason: "invalid" });
    expect(await storedPassword(userId)).toBe(stored);
    // The same answer as for a number that belongs to nobody.
    expect(await login(newPhone(), OLD_PASSWORD)).toEqual({ ok: false, reason: "invalid" });
  });

  it("is upgraded by the identity check too (before a contact change, deletion or a password change)", async () => {
    const { userId, phone, stored } = await importedMember({ password: OLD_PASSWORD });
    const prove = (password: string) =>
      proveIdentity(deps, { userId, phoneNumber: phone, proof: { method: "password", password } });
    expect(await prove("not-the-password")).toEqual({ ok: false, reason: "invalid" });
    expect(await storedPassword(userId)).toBe(stored);
    expect(await prove(OLD_PASSWORD)).toEqual({ ok: true });
    expect(await storedPassword(userId)).toMatch(/^\$argon2id\$/);
    expect(await prove(OLD_PASSWORD)).toEqual({ ok: true });
  });

  it("does not overwrite a password that changed between the check and the upgrade", async () => {
    const { userId, phone, stored } = await importedMember({ password: OLD_PASSWORD });
    // The row no longer holds the hash that is checked: the upgrade writes nothing.
    await handle.db
      .update(authAccount)
      .set({ password: "$argon2id$changed-meanwhile" })
      .where(eq(authAccount.userId, userId));
    const { checkAndUpgradePassword } = await import("./passwords.server");
    expect(await checkAndUpgradePassword(handle.db, { userId, stored: stored ?? "", password: OLD_PASSWORD })).toBe(
      true,
    );
    expect(await storedPassword(userId)).toBe("$argon2id$changed-meanwhile");
    expect(await login(phone, OLD_PASSWORD)).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("an imported member without a password claims the account by SMS code", () => {
  async function claimByPhone(phone: string, password: string) {
    const sent = await requestPasswordReset(deps, {
      channel: "phone",
      target: phone,
      ip: "192.0.2.36",
      locale: "zh-TW",
    });
    expect(sent.ok).toBe(true);
    const verified = await verifyPasswordReset(deps, {
      channel: "phone",
      target: phone,
      code: messaging.lastCode(phone),
    });
    if (!verified.ok) throw new Error(`verify failed: ${verified.reason}`);
    return { userId: verified.userId, set: await completePasswordReset(deps, verified.userId, password, []) };
  }

  it("gets a credential account from the reset flow (none before) and logs in with the new password", async () => {
    const { userId, phone } = await importedMember();
    expect(await storedPassword(userId)).toBeUndefined();
    expect(await login(phone, "Tile-and-Walnut-2026!")).toEqual({ ok: false, reason: "invalid" });

    const claimed = await claimByPhone(phone, "Tile-and-Walnut-2026!");
    expect(claimed).toEqual({ userId, set: { ok: true } });
    expect(await storedPassword(userId)).toMatch(/^\$argon2id\$/);
    expect(await login(phone, "Tile-and-Walnut-2026!")).toEqual({ ok: true, userId });
  });

  it("works for a phone-only member (placeholder e-mail) that has a Firebase hash too: the new password replaces it", async () => {
    const { userId, phone } = await importedMember({ password: OLD_PASSWORD });
    const claimed = await claimByPhone(phone, "Tile-and-Walnut-2026!");
    expect(claimed.set).toEqual({ ok: true });
    expect(await login(phone, OLD_PASSWORD)).toEqual({ ok: false, reason: "invalid" });
    expect(await login(phone, "Tile-and-Walnut-2026!")).toEqual({ ok: true, userId });
  });

  it("words the text message as a welcome in the welcome variant, with the same answer", async () => {
    const { userId, phone } = await importedMember();
    const sent = await requestPasswordReset(deps, {
      channel: "phone",
      target: phone,
      ip: "192.0.2.38",
      locale: "zh-TW",
      welcome: true,
    });
    expect(sent).toMatchObject({ ok: true, code: "" });
    expect(messaging.sms.at(-1)?.text).toMatch(/^歡迎加入漢生活會員！您設定密碼的驗證碼為 \d{6}/);
    const verified = await verifyPasswordReset(deps, {
      channel: "phone",
      target: phone,
      code: messaging.lastCode(phone),
    });
    expect(verified).toEqual({ ok: true, userId });
    const unknown = newPhone();
    const decoy = await requestPasswordReset(deps, {
      channel: "phone",
      target: unknown,
      ip: "192.0.2.38",
      locale: "zh-TW",
      welcome: true,
    });
    expect(Object.keys(decoy)).toEqual(Object.keys(sent));
    expect(messaging.sms.filter((m) => m.to === unknown)).toEqual([]);
  });

  it("answers an unknown number exactly as a member's, and sends nothing", async () => {
    const unknown = newPhone();
    const sent = await requestPasswordReset(deps, {
      channel: "phone",
      target: unknown,
      ip: "192.0.2.37",
      locale: "zh-TW",
    });
    const { phone } = await importedMember();
    const real = await requestPasswordReset(deps, {
      channel: "phone",
      target: phone,
      ip: "192.0.2.37",
      locale: "zh-TW",
    });
    expect(Object.keys(sent)).toEqual(Object.keys(real));
    expect(sent.ok && real.ok && sent.code === real.code).toBe(true);
    expect(messaging.sms.filter((m) => m.to === unknown)).toEqual([]);
    expect(await verifyPasswordReset(deps, { channel: "phone", target: unknown, code: "123456" })).toMatchObject({
      ok: false,
    });
  });
});
