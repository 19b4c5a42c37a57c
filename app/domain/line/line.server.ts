import { createHash, randomBytes } from "node:crypto";
import type { LineConfig } from "@platform/config";
import type { Database } from "@platform/db/client";
import { authAccount, authUser, lineIdTokenUse, member } from "@platform/db/schema";
import type { Logger } from "@platform/logger";
import { and, eq, lt, ne } from "drizzle-orm";
import type { Auth } from "../auth/auth.server";
import { findMemberByUserId, type Member } from "../members/members.server";
import {
  type IdTokenFailure,
  type IdTokenFlow,
  type LineIdentity,
  lineJwks,
  verifyLineIdToken,
} from "./id-token.server";

/** A configured LINE channel (real or the local provider). */
export type LineChannel = Exclude<LineConfig, { mode: "disabled" }>;
export type LineMethod = "signup" | "signin" | "link";
export const LINE_PROVIDER_ID = "line";

export type LineDeps = { db: Database; auth: Auth; line: LineChannel; logger: Pick<Logger, "warn" | "info"> };

export function lineChannel(config: LineConfig): LineChannel | null {
  return config.mode === "disabled" ? null : config;
}

// ─── Web login (authorization code + PKCE) ─────────────────────────────────────────────────

/** What travels in the signed flow cookie between "start" and the callback. */
export type WebLoginFlow = { state: string; nonce: string; verifier: string; method: LineMethod; redirectTo: string };

/** A new authorization request: random state, nonce and PKCE verifier; the URL to send the browser to. */
export function beginWebLogin(
  line: LineChannel,
  input: { method: LineMethod; redirectUri: string; redirectTo: string; offerOfficialAccount?: boolean },
): { url: string; flow: WebLoginFlow } {
  const flow: WebLoginFlow = {
    state: randomBytes(24).toString("base64url"),
    nonce: randomBytes(24).toString("base64url"),
    verifier: randomBytes(48).toString("base64url"),
    method: input.method,
    redirectTo: input.redirectTo,
  };
  const params = new URLSearchParams({
    response_type: "code",
    client_id: line.channelId,
    redirect_uri: input.redirectUri,
    state: flow.state,
    scope: "openid profile email",
    nonce: flow.nonce,
    code_challenge: createHash("sha256").update(flow.verifier).digest("base64url"),
    code_challenge_method: "S256",
    ui_locales: "zh-TW",
  });
  // With the Official Account configured, LINE's consent screen also asks to add it as a friend (ADR 032).
  if (input.offerOfficialAccount) params.set("bot_prompt", "aggressive");
  return { url: `${line.authorizeUrl}?${params}`, flow };
}

export type TokenSet = { idToken: string | null; accessToken: string; expiresIn: number };

/** Exchanges the authorization code (single use) with the verifier and the channel secret. */
export async function exchangeCode(
  deps: Pick<LineDeps, "line" | "logger">,
  input: { code: string; redirectUri: string; verifier: string },
): Promise<{ ok: true; tokens: TokenSet } | { ok: false; reason: "token_exchange" }> {
  const res = await fetch(`${deps.line.apiBaseUrl}/oauth2/v2.1/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: input.redirectUri,
      client_id: deps.line.channelId,
      client_secret: deps.line.channelSecret,
      code_verifier: input.verifier,
    }),
    signal: AbortSignal.timeout(10_000),
  }).catch((error: unknown) => {
    deps.logger.warn({ err: error }, "LINE token endpoint unreachable");
    return null;
  });
  if (!res) return { ok: false, reason: "token_exchange" };
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || !body || typeof body.access_token !== "string") {
    deps.logger.warn(
      { status: res.status, error: body?.error, description: body?.error_description },
      "LINE code exchange refused",
    );
    return { ok: false, reason: "token_exchange" };
  }
  return {
    ok: true,
    tokens: {
      idToken: typeof body.id_token === "string" ? body.id_token : null,
      accessToken: body.access_token,
      expiresIn: typeof body.expires_in === "number" ? body.expires_in : 0,
    },
  };
}

/** Ends the LINE session of this login (revokes the access token); failures are only logged. */
export async function revokeLineToken(deps: Pick<LineDeps, "line" | "logger">, accessToken: string): Promise<boolean> {
  const res = await fetch(`${deps.line.apiBaseUrl}/oauth2/v2.1/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      access_token: accessToken,
      client_id: deps.line.channelId,
      client_secret: deps.line.channelSecret,
    }),
    signal: AbortSignal.timeout(10_000),
  }).catch(() => null);
  if (!res?.ok) deps.logger.warn({ status: res?.status ?? null }, "LINE token revoke failed");
  return Boolean(res?.ok);
}

// ─── ID-token acceptance (both flows) ──────────────────────────────────────────────────────

/**
 * Verifies a LINE ID token for a flow and accepts it once: its hash is stored until it expires,
 * and a second use on any instance is refused as `replayed`.
 */
export async function acceptIdToken(
  deps: Pick<LineDeps, "db" | "line" | "logger">,
  token: string | null | undefined,
  input: { flow: IdTokenFlow; nonce?: string; now?: Date },
): Promise<{ ok: true; identity: LineIdentity } | { ok: false; reason: IdTokenFailure }> {
  const verified = await verifyLineIdToken(token, {
    flow: input.flow,
    channelId: deps.line.channelId,
    channelSecret: deps.line.channelSecret,
    keys: lineJwks(deps.line.certsUrl),
    nonce: input.nonce,
    now: input.now,
  });
  if (!verified.ok) {
    deps.logger.warn({ flow: input.flow, reason: verified.reason }, "LINE ID token rejected");
    return verified;
  }
  const inserted = await deps.db
    .insert(lineIdTokenUse)
    .values({ tokenHash: verified.identity.tokenHash, expiresAt: verified.identity.expiresAt })
    .onConflictDoNothing()
    .returning({ tokenHash: lineIdTokenUse.tokenHash });
  if (inserted.length === 0) {
    deps.logger.warn({ flow: input.flow, reason: "replayed" }, "LINE ID token rejected");
    return { ok: false, reason: "replayed" };
  }
  return verified;
}

/** Housekeeping: forgets the hashes of tokens that have expired (they would fail on exp anyway). */
export async function purgeUsedIdTokens(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .delete(lineIdTokenUse)
    .where(lt(lineIdTokenUse.expiresAt, now))
    .returning({ h: lineIdTokenUse.tokenHash });
  return rows.length;
}

// ─── Identities ────────────────────────────────────────────────────────────────────────────

/** Placeholder e-mail for a LINE-only user (never the LINE e-mail: we never link by e-mail). */
export function linePlaceholderEmail(sub: string): string {
  return `${sub.toLowerCase()}@line.invalid`;
}

export async function findLineAccount(db: Database, sub: string) {
  const [row] = await db
    .select({ userId: authAccount.userId, id: authAccount.id })
    .from(authAccount)
    .where(and(eq(authAccount.providerId, LINE_PROVIDER_ID), eq(authAccount.accountId, sub)))
    .limit(1);
  return row ?? null;
}

export async function hasLineLogin(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: authAccount.id })
    .from(authAccount)
    .where(and(eq(authAccount.providerId, LINE_PROVIDER_ID), eq(authAccount.userId, userId)))
    .limit(1);
  return Boolean(row);
}

async function storeToken(db: Database, accountRowId: string, tokens: TokenSet | null) {
  if (!tokens) return;
  await db
    .update(authAccount)
    .set({
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: new Date(Date.now() + tokens.expiresIn * 1000),
      updatedAt: new Date(),
    })
    .where(eq(authAccount.id, accountRowId));
}

/** A user with no member yet, holding only this LINE login (the "temporary account" of sign-up). */
async function createLineUser(deps: Pick<LineDeps, "auth">, identity: LineIdentity, tokens: TokenSet | null) {
  const ctx = await deps.auth.$context;
  const user = await ctx.internalAdapter.createUser(
    { name: identity.name ?? "", email: linePlaceholderEmail(identity.sub), emailVerified: false },
    { method: "line" },
  );
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: LINE_PROVIDER_ID,
    accountId: identity.sub,
    accessToken: tokens?.accessToken,
    accessTokenExpiresAt: tokens ? new Date(Date.now() + tokens.expiresIn * 1000) : undefined,
  });
  return user.id;
}

export type LineOutcome =
  /** signin with a member, or signup when the member already exists (notice 會員已註冊過). */
  | { kind: "signed_in"; userId: string; alreadyMember: boolean }
  /** signup, new: a temporary user holding the LINE login; continue at sign-up step 3. */
  | { kind: "signup_continue"; userId: string }
  /** signin without a member: the temporary account was deleted; notice 會員登入失敗. */
  | { kind: "no_member" }
  | { kind: "disabled" }
  | { kind: "linked" }
  | { kind: "link_taken" };

/**
 * The LINE return flow (specification §4) for a verified identity. `currentUserId` is the member
 * signed in now (link only). The tokens, when the web flow has them, are kept on the LINE login
 * so that deleting the member can revoke them.
 */
export async function completeLineLogin(
  deps: LineDeps,
  input: { identity: LineIdentity; method: LineMethod; tokens: TokenSet | null; currentUserId: string | null },
): Promise<LineOutcome> {
  const { identity, tokens } = input;
  const account = await findLineAccount(deps.db, identity.sub);
  const owner: Member | null = account ? await findMemberByUserId(deps.db, account.userId) : null;

  if (input.method === "link") {
    if (!input.currentUserId) return { kind: "no_member" };
    if (account && account.userId !== input.currentUserId) {
      // Held by another member: refuse. Held by an abandoned sign-up: that temporary user goes.
      if (owner) return { kind: "link_taken" };
      await deps.db.delete(authUser).where(eq(authUser.id, account.userId));
    }
    if (account?.userId === input.currentUserId) {
      await storeToken(deps.db, account.id, tokens);
      return { kind: "linked" };
    }
    const ctx = await deps.auth.$context;
    await ctx.internalAdapter.linkAccount({
      userId: input.currentUserId,
      providerId: LINE_PROVIDER_ID,
      accountId: identity.sub,
      accessToken: tokens?.accessToken,
      accessTokenExpiresAt: tokens ? new Date(Date.now() + tokens.expiresIn * 1000) : undefined,
    });
    return { kind: "linked" };
  }

  if (owner) {
    if (owner.disabled) return { kind: "disabled" };
    if (account) await storeToken(deps.db, account.id, tokens);
    return { kind: "signed_in", userId: owner.userId, alreadyMember: input.method === "signup" };
  }

  if (input.method === "signin") {
    // No member for this LINE identity: a temporary account left by an unfinished sign-up goes too.
    if (account) await deps.db.delete(authUser).where(eq(authUser.id, account.userId));
    return { kind: "no_member" };
  }

  // signup, new (or resuming an unfinished LINE sign-up).
  if (account) {
    await storeToken(deps.db, account.id, tokens);
    return { kind: "signup_continue", userId: account.userId };
  }
  return { kind: "signup_continue", userId: await createLineUser(deps, identity, tokens) };
}

// ─── Linked logins (member center) ─────────────────────────────────────────────────────────

export type LinkedLogins = {
  phone: string | null;
  email: string | null;
  hasPassword: boolean;
  line: { linkedAt: Date } | null;
};

export async function linkedLogins(db: Database, userId: string): Promise<LinkedLogins> {
  const [user] = await db.select().from(authUser).where(eq(authUser.id, userId)).limit(1);
  const accounts = await db
    .select({ providerId: authAccount.providerId, password: authAccount.password, createdAt: authAccount.createdAt })
    .from(authAccount)
    .where(eq(authAccount.userId, userId));
  const found = await findMemberByUserId(db, userId);
  const line = accounts.find((a) => a.providerId === LINE_PROVIDER_ID);
  return {
    phone: found?.phoneNumber ?? user?.phoneNumber ?? null,
    email: found?.email ?? null,
    hasPassword: accounts.some((a) => a.providerId === "credential" && Boolean(a.password)),
    line: line ? { linkedAt: line.createdAt } : null,
  };
}

export type UnlinkResult = { ok: true } | { ok: false; reason: "not_linked" | "last_login" };

/**
 * Removes the LINE login, unless it is the only way left to log in: phone and e-mail logins need a
 * password (phone + password, e-mail + password), so without a password LINE must stay.
 */
export async function unlinkLine(
  deps: Pick<LineDeps, "db" | "logger"> & { line: LineChannel | null },
  userId: string,
): Promise<UnlinkResult> {
  const logins = await linkedLogins(deps.db, userId);
  if (!logins.line) return { ok: false, reason: "not_linked" };
  if (!logins.hasPassword) return { ok: false, reason: "last_login" };
  await revokeStoredLineTokens(deps, userId);
  await deps.db
    .delete(authAccount)
    .where(and(eq(authAccount.userId, userId), eq(authAccount.providerId, LINE_PROVIDER_ID)));
  return { ok: true };
}

async function revokeStoredLineTokens(
  deps: { db: Database; logger: Pick<Logger, "warn" | "info">; line: LineChannel | null },
  userId: string,
) {
  const rows = await deps.db
    .select({ accessToken: authAccount.accessToken, expiresAt: authAccount.accessTokenExpiresAt })
    .from(authAccount)
    .where(and(eq(authAccount.userId, userId), eq(authAccount.providerId, LINE_PROVIDER_ID)));
  let revoked = 0;
  for (const row of rows) {
    if (!deps.line || !row.accessToken || (row.expiresAt && row.expiresAt < new Date())) continue;
    if (await revokeLineToken({ line: deps.line, logger: deps.logger }, row.accessToken)) revoked += 1;
  }
  return revoked;
}

/**
 * For member deletion (the member-center issue calls this before erasing the member): revokes the
 * LINE access token kept for the member's LINE login, so the app's authorization at LINE ends,
 * and removes the LINE login. Safe to call for a member without LINE (returns linked: false).
 */
export async function deauthorizeLineForMember(
  deps: { db: Database; logger: Pick<Logger, "warn" | "info">; line: LineChannel | null },
  userId: string,
): Promise<{ linked: boolean; revoked: number }> {
  if (!(await hasLineLogin(deps.db, userId))) return { linked: false, revoked: 0 };
  const revoked = await revokeStoredLineTokens(deps, userId);
  await deps.db
    .delete(authAccount)
    .where(and(eq(authAccount.userId, userId), eq(authAccount.providerId, LINE_PROVIDER_ID)));
  deps.logger.info({ userId, revoked }, "LINE login deauthorized for member deletion");
  return { linked: true, revoked };
}

/**
 * LINE sign-up step 3, when the verified phone already belongs to a member: after that SMS code
 * proved the phone, the LINE login moves to that member and the temporary user is deleted.
 */
export async function moveLineLoginToMember(
  db: Database,
  input: { fromUserId: string; toUserId: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(authAccount)
      .set({ userId: input.toUserId, updatedAt: new Date() })
      .where(and(eq(authAccount.userId, input.fromUserId), eq(authAccount.providerId, LINE_PROVIDER_ID)))
      .returning({ id: authAccount.id });
    if (moved.length === 0) return false;
    // The temporary user had nothing else (no member row: step 3 had not finished).
    await tx.delete(authUser).where(and(eq(authUser.id, input.fromUserId), ne(authUser.id, input.toUserId)));
    return true;
  });
}

/** Whether this user already has a member row (a guard for step 3 of a LINE sign-up). */
export async function hasMember(db: Database, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: member.id }).from(member).where(eq(member.userId, userId)).limit(1);
  return Boolean(row);
}
