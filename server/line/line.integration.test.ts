import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { LINE_ISSUER, loadConfig } from "@platform/config";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { authAccount, authUser, lineIdTokenUse } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { eq, sql } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../../app/domain/auth/auth.server";
import { placeholderEmail, setPassword } from "../../app/domain/auth/flows.server";
import {
  acceptIdToken,
  beginWebLogin,
  completeLineLogin,
  deauthorizeLineForMember,
  exchangeCode,
  type LineChannel,
  type LineDeps,
  linkedLogins,
  purgeUsedIdTokens,
  unlinkLine,
} from "../../app/domain/line/line.server";
import { createMember } from "../../app/domain/members/members.server";
import { createLocalLineProvider, testUser } from "./local-provider";

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
const REDIRECT_PATH = "/auth/line/callback";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "line-"));
  testDb = await createTestDatabase({ label: "line", migrated: true });
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
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = origin;
  line = {
    mode: "local",
    channelId: CHANNEL_ID,
    channelSecret: CHANNEL_SECRET,
    liffId: `${CHANNEL_ID}-localliff`,
    authorizeUrl: `${origin}/__line/oauth2/v2.1/authorize`,
    apiBaseUrl: `${origin}/__line`,
    certsUrl: `${origin}/__line/oauth2/v2.1/certs`,
  };
  deps = { db: handle.db, auth, line, logger };
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await handle?.close();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const redirectUri = () => `${base}${REDIRECT_PATH}`;

/** The browser's part: open authorize, pick a user (or deny); returns the callback URL's parameters. */
async function authorize(name: string, { deny = false, method = "signin" as const } = {}) {
  const { url, flow } = beginWebLogin(line, { method, redirectUri: redirectUri(), redirectTo: "/member-center" });
  const query = Object.fromEntries(new URL(url).searchParams);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("測試使用者");
  const res = await fetch(line.authorizeUrl, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...query, decision: deny ? "deny" : "allow", user: "other", otherName: name }),
  });
  expect(res.status).toBe(303);
  return { params: new URL(res.headers.get("location") as string).searchParams, flow };
}

async function countRows() {
  const [users] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(authUser);
  const [uses] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(lineIdTokenUse);
  return { users: users?.n, uses: uses?.n };
}

let phoneSeq = 20_000_000;
async function memberWithPassword(name: string) {
  const phone = `+8869${String(phoneSeq++).padStart(8, "0")}`;
  const ctx = await auth.$context;
  const user = await ctx.internalAdapter.createUser(
    { name, email: placeholderEmail(phone), phoneNumber: phone, phoneNumberVerified: true },
    { method: "phone-number" },
  );
  await setPassword({ auth }, user.id, "Tile-and-Walnut-2026!");
  await createMember(handle.db, {
    userId: user.id,
    phoneNumber: phone,
    signupMethod: "phone",
    ip: null,
    profile: { nameZh: name, gender: "male", marketingSms: false, marketingEmail: false, marketingLine: false },
  });
  return user.id;
}

describe("local LINE provider: token endpoint", () => {
  it("exchanges a code once, with PKCE and the channel secret, for an HS256 ID token with the nonce", async () => {
    const { params, flow } = await authorize("provider-ok");
    expect(params.get("state")).toBe(flow.state);
    const exchanged = await exchangeCode(
      { line, logger },
      { code: params.get("code") as string, redirectUri: redirectUri(), verifier: flow.verifier },
    );
    expect(exchanged.ok).toBe(true);
    if (!exchanged.ok) return;
    const accepted = await acceptIdToken(deps, exchanged.tokens.idToken, { flow: "web", nonce: flow.nonce });
    expect(accepted).toMatchObject({ ok: true, identity: { sub: testUser("provider-ok").sub } });

    // The same code again: refused (single use).
    const again = await exchangeCode(
      { line, logger },
      { code: params.get("code") as string, redirectUri: redirectUri(), verifier: flow.verifier },
    );
    expect(again).toEqual({ ok: false, reason: "token_exchange" });
  });

  it("refuses a wrong code_verifier, a wrong secret and a wrong redirect_uri with LINE's error shape", async () => {
    const post = (body: Record<string, string>) =>
      fetch(`${line.apiBaseUrl}/oauth2/v2.1/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      });
    const one = await authorize("provider-bad");
    const common = { grant_type: "authorization_code", client_id: CHANNEL_ID, redirect_uri: redirectUri() };
    const badVerifier = await post({
      ...common,
      client_secret: CHANNEL_SECRET,
      code: one.params.get("code") as string,
      code_verifier: randomBytes(48).toString("base64url"),
    });
    expect(badVerifier.status).toBe(400);
    expect(await badVerifier.json()).toEqual({ error: "invalid_grant", error_description: "invalid code_verifier" });

    const two = await authorize("provider-bad");
    const badSecret = await post({
      ...common,
      client_secret: "f".repeat(32),
      code: two.params.get("code") as string,
      code_verifier: two.flow.verifier,
    });
    expect(await badSecret.json()).toMatchObject({ error: "invalid_client" });

    const three = await authorize("provider-bad");
    const badRedirect = await post({
      ...common,
      redirect_uri: `${base}/elsewhere`,
      client_secret: CHANNEL_SECRET,
      code: three.params.get("code") as string,
      code_verifier: three.flow.verifier,
    });
    expect(await badRedirect.json()).toEqual({
      error: "invalid_grant",
      error_description: "redirect_uri does not match",
    });
  });

  it("answers a denied authorization with error=ACCESS_DENIED and the state", async () => {
    const { params, flow } = await authorize("provider-deny", { deny: true });
    expect(params.get("error")).toBe("ACCESS_DENIED");
    expect(params.get("state")).toBe(flow.state);
    expect(params.get("code")).toBeNull();
  });

  it("verifies ID tokens with LINE's error strings", async () => {
    const verify = (body: Record<string, string>) =>
      fetch(`${line.apiBaseUrl}/oauth2/v2.1/verify`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body),
      }).then((r) => r.json());
    const token = await provider.liffIdToken(testUser("verify"));
    expect(await verify({ id_token: token, client_id: CHANNEL_ID })).toMatchObject({
      iss: LINE_ISSUER,
      aud: CHANNEL_ID,
    });
    expect(await verify({ id_token: token, client_id: "42" })).toEqual({
      error: "invalid_request",
      error_description: "Invalid IdToken Audience.",
    });
    expect(await verify({ id_token: `${token}x`, client_id: CHANNEL_ID })).toEqual({
      error: "invalid_request",
      error_description: "Invalid IdToken.",
    });
  });
});

describe("LIFF ID tokens (ES256 from the provider's JWKS)", () => {
  it("accepts a token once and refuses the replay; a bad token stores nothing", async () => {
    const token = await provider.liffIdToken(testUser("liff-once"));
    const before = await countRows();
    expect((await acceptIdToken(deps, token, { flow: "liff" })).ok).toBe(true);
    expect(await acceptIdToken(deps, token, { flow: "liff" })).toEqual({ ok: false, reason: "replayed" });
    const stored = await handle.db
      .select()
      .from(lineIdTokenUse)
      .where(eq(lineIdTokenUse.tokenHash, createHash("sha256").update(token).digest("hex")));
    expect(stored).toHaveLength(1);

    // A web (HS256) token posted to the LIFF flow is refused before anything is stored.
    const { params, flow } = await authorize("liff-wrong-alg");
    const exchanged = await exchangeCode(
      { line, logger },
      { code: params.get("code") as string, redirectUri: redirectUri(), verifier: flow.verifier },
    );
    if (!exchanged.ok) throw new Error("exchange failed");
    expect(await acceptIdToken(deps, exchanged.tokens.idToken, { flow: "liff" })).toEqual({ ok: false, reason: "alg" });
    expect(await acceptIdToken(deps, "", { flow: "liff" })).toEqual({ ok: false, reason: "missing" });
    expect((await countRows()).uses).toBe((before.uses ?? 0) + 1);
  });

  it("forgets hashes of expired tokens", async () => {
    await handle.db.insert(lineIdTokenUse).values({ tokenHash: "old", expiresAt: new Date(Date.now() - 1000) });
    expect(await purgeUsedIdTokens(handle.db)).toBeGreaterThanOrEqual(1);
  });
});

async function identityFor(name: string) {
  const accepted = await acceptIdToken(deps, await provider.liffIdToken(testUser(name)), { flow: "liff" });
  if (!accepted.ok) throw new Error(accepted.reason);
  return accepted.identity;
}

describe("the LINE return flow", () => {
  it("signin without a member: no_member, and the temporary account of an unfinished LINE sign-up is deleted", async () => {
    const before = await countRows();
    expect(
      await completeLineLogin(deps, {
        identity: await identityFor("nobody"),
        method: "signin",
        tokens: null,
        currentUserId: null,
      }),
    ).toEqual({ kind: "no_member" });
    expect((await countRows()).users).toBe(before.users);

    const started = await completeLineLogin(deps, {
      identity: await identityFor("unfinished"),
      method: "signup",
      tokens: null,
      currentUserId: null,
    });
    expect(started.kind).toBe("signup_continue");
    // Resuming the sign-up reuses the same temporary user.
    const resumed = await completeLineLogin(deps, {
      identity: await identityFor("unfinished"),
      method: "signup",
      tokens: null,
      currentUserId: null,
    });
    expect(resumed).toEqual(started);
    expect(
      await completeLineLogin(deps, {
        identity: await identityFor("unfinished"),
        method: "signin",
        tokens: null,
        currentUserId: null,
      }),
    ).toEqual({ kind: "no_member" });
    if (started.kind !== "signup_continue") return;
    expect(await handle.db.select().from(authUser).where(eq(authUser.id, started.userId))).toHaveLength(0);
  });

  it("links to a member, signs in, answers signup with alreadyMember, refuses another member's LINE, and unlinks", async () => {
    const memberId = await memberWithPassword("連結會員");
    const other = await memberWithPassword("另一位會員");
    expect(
      await completeLineLogin(deps, {
        identity: await identityFor("linker"),
        method: "link",
        tokens: null,
        currentUserId: memberId,
      }),
    ).toEqual({ kind: "linked" });
    expect(
      await completeLineLogin(deps, {
        identity: await identityFor("linker"),
        method: "signin",
        tokens: null,
        currentUserId: null,
      }),
    ).toEqual({ kind: "signed_in", userId: memberId, alreadyMember: false });
    expect(
      await completeLineLogin(deps, {
        identity: await identityFor("linker"),
        method: "signup",
        tokens: null,
        currentUserId: null,
      }),
    ).toEqual({ kind: "signed_in", userId: memberId, alreadyMember: true });
    expect(
      await completeLineLogin(deps, {
        identity: await identityFor("linker"),
        method: "link",
        tokens: null,
        currentUserId: other,
      }),
    ).toEqual({ kind: "link_taken" });
    expect((await linkedLogins(handle.db, memberId)).line).not.toBeNull();
    expect(await unlinkLine({ db: handle.db, logger, line }, memberId)).toEqual({ ok: true });
    expect(await unlinkLine({ db: handle.db, logger, line }, memberId)).toEqual({ ok: false, reason: "not_linked" });
  });

  it("never unlinks the last way to log in", async () => {
    const started = await completeLineLogin(deps, {
      identity: await identityFor("line-only"),
      method: "signup",
      tokens: null,
      currentUserId: null,
    });
    if (started.kind !== "signup_continue") throw new Error("expected signup_continue");
    expect(await unlinkLine({ db: handle.db, logger, line }, started.userId)).toEqual({
      ok: false,
      reason: "last_login",
    });
  });

  it("deauthorizeLineForMember revokes the kept access token at LINE and removes the LINE login", async () => {
    const memberId = await memberWithPassword("刪除會員");
    const { params, flow } = await authorize("to-delete", { method: "link" as never });
    const exchanged = await exchangeCode(
      { line, logger },
      { code: params.get("code") as string, redirectUri: redirectUri(), verifier: flow.verifier },
    );
    if (!exchanged.ok) throw new Error("exchange failed");
    const accepted = await acceptIdToken(deps, exchanged.tokens.idToken, { flow: "web", nonce: flow.nonce });
    if (!accepted.ok) throw new Error(accepted.reason);
    await completeLineLogin(deps, {
      identity: accepted.identity,
      method: "link",
      tokens: exchanged.tokens,
      currentUserId: memberId,
    });

    expect(await deauthorizeLineForMember({ db: handle.db, logger, line }, memberId)).toEqual({
      linked: true,
      revoked: 1,
    });
    expect(provider.revoked).toContain(testUser("to-delete").sub);
    expect(
      await handle.db
        .select()
        .from(authAccount)
        .where(eq(authAccount.accountId, testUser("to-delete").sub)),
    ).toHaveLength(0);
    expect(await deauthorizeLineForMember({ db: handle.db, logger, line }, memberId)).toEqual({
      linked: false,
      revoked: 0,
    });
  });
});
