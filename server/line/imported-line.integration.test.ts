import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@platform/config";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { authAccount, authSession, authUser, member } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../../app/domain/auth/auth.server";
import { placeholderEmail, startSession } from "../../app/domain/auth/flows.server";
import {
  acceptIdToken,
  beginWebLogin,
  completeLineLogin,
  exchangeCode,
  LINE_PROVIDER_ID,
  type LineChannel,
  type LineDeps,
} from "../../app/domain/line/line.server";
import { createMember } from "../../app/domain/members/members.server";
import { createLocalLineProvider, otherTestUser, testUserId } from "./local-provider";

/**
 * A member moved in from another system with a LINE login (issue 35): the import leaves an auth_account row
 * (providerId "line", accountId = the LINE user id) and no password. Logging in with LINE, through the local
 * provider's web flow as the browser does it, signs in as that member.
 */
const SECRET = "integration-secret-integration-secret-0123456789";
const CHANNEL_ID = "1000000001";
const CHANNEL_SECRET = "0123456789abcdef0123456789abcdef";
const logger = { warn: () => {}, info: () => {} };

let testDb: TestDatabase;
let handle: DatabaseHandle;
let auth: Auth;
let dataDir: string;
let server: Server;
let base: string;
let line: LineChannel;
let provider: ReturnType<typeof createLocalLineProvider>;
let deps: LineDeps;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "imported-line-"));
  testDb = await createTestDatabase({ label: "imported_line", migrated: true });
  handle = await openDatabase(testDb.config);
  await handle.migrate();
  auth = createAuth({
    db: handle.db,
    config: loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, APP_ENV: "test" }),
  });
  provider = createLocalLineProvider({
    channelId: CHANNEL_ID,
    channelSecret: CHANNEL_SECRET,
    keySeed: SECRET,
    allowedRedirectOrigins: () => [base],
  });
  const app = express();
  app.use("/__line", provider.router);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  line = {
    mode: "local",
    channelId: CHANNEL_ID,
    channelSecret: CHANNEL_SECRET,
    liffId: `${CHANNEL_ID}-localliff`,
    authorizeUrl: `${base}/__line/oauth2/v2.1/authorize`,
    apiBaseUrl: `${base}/__line`,
    certsUrl: `${base}/__line/oauth2/v2.1/certs`,
  };
  deps = { db: handle.db, auth, line, logger };
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await handle?.close();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

let phoneSeq = 40_000_000;

/** What an import leaves for a member whose old account had LINE: user, member, LINE login; no password. */
async function importedLineMember(lineUserId: string) {
  const phone = `+8869${String(phoneSeq++).padStart(8, "0")}`;
  const userId = randomUUID();
  await handle.db.insert(authUser).values({
    id: userId,
    name: "王舊會員",
    email: placeholderEmail(phone),
    phoneNumber: phone,
    phoneNumberVerified: true,
  });
  await createMember(handle.db, {
    userId,
    phoneNumber: phone,
    signupMethod: "line",
    ip: null,
    profile: { nameZh: "王舊會員", gender: "male", marketingSms: false, marketingEmail: false, marketingLine: false },
  });
  await handle.db
    .insert(authAccount)
    .values({ id: randomUUID(), userId, providerId: LINE_PROVIDER_ID, accountId: lineUserId });
  return userId;
}

/** The browser's part of a web login: the authorize page's "other" user, typed; then the app's callback steps. */
async function lineWebSignIn(typed: string) {
  const { url, flow } = beginWebLogin(line, {
    method: "signin",
    redirectUri: `${base}/auth/line/callback`,
    redirectTo: "/member-center",
  });
  const query = Object.fromEntries(new URL(url).searchParams);
  const res = await fetch(line.authorizeUrl, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...query, decision: "allow", user: "other", otherName: typed }),
  });
  expect(res.status).toBe(303);
  const params = new URL(res.headers.get("location") as string).searchParams;
  expect(params.get("state")).toBe(flow.state);
  const exchanged = await exchangeCode(
    { line, logger },
    { code: params.get("code") as string, redirectUri: `${base}/auth/line/callback`, verifier: flow.verifier },
  );
  if (!exchanged.ok) throw new Error(`exchange failed: ${exchanged.reason}`);
  const accepted = await acceptIdToken(deps, exchanged.tokens.idToken, { flow: "web", nonce: flow.nonce });
  if (!accepted.ok) throw new Error(`ID token refused: ${accepted.reason}`);
  return completeLineLogin(deps, {
    identity: accepted.identity,
    method: "signin",
    tokens: exchanged.tokens,
    currentUserId: null,
  });
}

describe("LINE login of an imported member", () => {
  it("signs in as the member whose imported LINE id is the sub (a real LINE id typed on the local provider)", async () => {
    const lineUserId = "U4af4980629a1b2c3d4e5f60718293a4b";
    expect(otherTestUser(lineUserId).sub).toBe(lineUserId);
    const userId = await importedLineMember(lineUserId);

    const outcome = await lineWebSignIn(lineUserId);
    expect(outcome).toEqual({ kind: "signed_in", userId, alreadyMember: false });

    // What the callback does next: a session, and the login recorded on the member.
    await startSession({ db: handle.db, auth }, userId, new Headers({ "user-agent": "vitest" }));
    const [row] = await handle.db
      .select({ lastLoginAt: member.lastLoginAt })
      .from(member)
      .where(eq(member.userId, userId));
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
    expect(await handle.db.select().from(authSession).where(eq(authSession.userId, userId))).toHaveLength(1);
    // The LINE login keeps the access token (so deleting the member can revoke it); no user was added.
    const [account] = await handle.db
      .select({ userId: authAccount.userId, accessToken: authAccount.accessToken })
      .from(authAccount)
      .where(eq(authAccount.accountId, lineUserId));
    expect(account?.userId).toBe(userId);
    expect(account?.accessToken).toBeTruthy();
  });

  it("works with a name's test id too (sub = testUserId(name)), and a disabled imported member is refused", async () => {
    const userId = await importedLineMember(testUserId("匯入會員 陳"));
    expect(await lineWebSignIn("匯入會員 陳")).toEqual({ kind: "signed_in", userId, alreadyMember: false });

    const disabledId = await importedLineMember(testUserId("停用的匯入會員"));
    await handle.db.update(member).set({ disabled: true }).where(eq(member.userId, disabledId));
    expect(await lineWebSignIn("停用的匯入會員")).toEqual({ kind: "disabled" });
  });

  it("gives the LIFF development token of a typed LINE id that sub", async () => {
    const lineUserId = "U0123456789abcdef0123456789abcdef";
    const userId = await importedLineMember(lineUserId);
    const res = await fetch(`${base}/__line/dev/liff-id-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: lineUserId }),
    });
    const { idToken, sub } = (await res.json()) as { idToken: string; sub: string };
    expect(sub).toBe(lineUserId);
    const accepted = await acceptIdToken(deps, idToken, { flow: "liff" });
    if (!accepted.ok) throw new Error(accepted.reason);
    expect(
      await completeLineLogin(deps, {
        identity: accepted.identity,
        method: "signin",
        tokens: null,
        currentUserId: null,
      }),
    ).toEqual({ kind: "signed_in", userId, alreadyMember: false });
  });
});
