import { createECDH, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { LINE_ISSUER } from "@platform/config";
import express, { type Request, type Response } from "express";
import { importJWK, type JWK, jwtVerify, SignJWT } from "jose";
import { z } from "zod";

/**
 * A local LINE-compatible provider for development and tests (ADR 013): the endpoints of LINE
 * Login v2.1 that this app uses, with LINE's request and error shapes, so the LINE buttons work on
 * a fresh machine without a channel or the internet. Mounted under /__line only when no channel is
 * configured and APP_ENV is not production (server/app.ts). State (codes, access tokens) lives in
 * this process: it is a single-instance development tool.
 */
export type LocalLineOptions = {
  channelId: string;
  channelSecret: string;
  /** Derives the ES256 key pair of LIFF ID tokens, so restarts and instances agree. */
  keySeed: string;
  /** Only callbacks on these origins are accepted (the app's own). */
  allowedRedirectOrigins: (req: Request) => string[];
  /**
   * The Official Account of the local Messaging API fake, when it runs: `bot_prompt` on the consent
   * page offers to add it as a friend (as LINE does), and the friendship status endpoint reads it.
   */
  officialAccount?: {
    addFriend(req: Request, userId: string): Promise<unknown>;
    isFriend(userId: string): boolean;
  };
  now?: () => Date;
};

export type TestUser = { sub: string; name: string; email: string | null; picture: string | null };

/** The users the authorize page offers (a free-form name makes a further user). */
export const PRESET_USERS: TestUser[] = [
  testUser("林小美", "xiaomei.lin@example.com"),
  testUser("陳大文", "dawen.chen@example.com"),
  testUser("Alex Wang", null),
];

/** A stable LINE-shaped user id (U + 32 hex digits) for a test user's name. */
export function testUserId(name: string): string {
  return `U${createHash("sha256").update(`local-line:${name}`).digest("hex").slice(0, 32)}`;
}

export function testUser(name: string, email: string | null = null): TestUser {
  return { sub: testUserId(name), name, email, picture: null };
}

/** The shape of a LINE user id (U + 32 hex digits). */
export const LINE_USER_ID = /^U[0-9a-f]{32}$/;

/**
 * The "other" user of the authorize page: a typed name makes a user whose sub is testUserId(name); a typed LINE
 * user id is taken as the sub itself, so a member moved in from another system with that LINE id (issue 35, a
 * Firebase export's `rawId`) can log in as before.
 */
export function otherTestUser(typed: string, email: string | null = null): TestUser {
  return LINE_USER_ID.test(typed) ? { sub: typed, name: typed, email, picture: null } : testUser(typed, email);
}

const CODE_TTL_MS = 10 * 60_000;
const ACCESS_TOKEN_TTL_S = 30 * 24 * 3600;
const ID_TOKEN_TTL_S = 3600;

type PendingCode = {
  user: TestUser;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | null;
  scope: string;
  expiresAt: number;
  used: boolean;
};

/** The ES256 key pair, derived from a seed (P-256 scalar from HMAC; the public point from ECDH). */
export function localSigningKey(seed: string): { kid: string; privateJwk: JWK; publicJwk: JWK } {
  const d = createHmac("sha256", seed).update("local-line-es256").digest();
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const x = point.subarray(1, 33).toString("base64url");
  const y = point.subarray(33, 65).toString("base64url");
  const kid = createHash("sha256").update(point).digest("hex").slice(0, 16);
  const publicJwk: JWK = { kty: "EC", crv: "P-256", x, y, kid, alg: "ES256", use: "sig" };
  return { kid, publicJwk, privateJwk: { ...publicJwk, d: d.toString("base64url") } };
}

export function createLocalLineProvider(options: LocalLineOptions) {
  const now = options.now ?? (() => new Date());
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, { user: TestUser; clientId: string; scope: string; expiresAt: number }>();
  const revoked: string[] = [];
  const signing = localSigningKey(options.keySeed);
  const secretKey = new TextEncoder().encode(options.channelSecret);

  async function webIdToken(user: TestUser, nonce: string | null, scope: string): Promise<string> {
    const iat = Math.floor(now().getTime() / 1000);
    const claims: Record<string, unknown> = { amr: ["linesso"] };
    if (nonce) claims.nonce = nonce;
    if (scope.includes("profile")) claims.name = user.name;
    if (scope.includes("email") && user.email) claims.email = user.email;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(LINE_ISSUER)
      .setSubject(user.sub)
      .setAudience(options.channelId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ID_TOKEN_TTL_S)
      .sign(secretKey);
  }

  /** What liff.getIDToken() returns inside LINE: ES256, key by kid from the certs endpoint. */
  async function liffIdToken(user: TestUser): Promise<string> {
    const iat = Math.floor(now().getTime() / 1000);
    const key = await importJWK(signing.privateJwk, "ES256");
    return new SignJWT({ amr: ["linesso"], name: user.name, ...(user.email ? { email: user.email } : {}) })
      .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: signing.kid })
      .setIssuer(LINE_ISSUER)
      .setSubject(user.sub)
      .setAudience(options.channelId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ID_TOKEN_TTL_S)
      .sign(key);
  }

  const router = express.Router();
  router.use(express.urlencoded({ extended: false, limit: "16kb" }));
  router.use(express.json({ limit: "16kb" }));
  router.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });

  const authorizeQuery = z.object({
    response_type: z.literal("code"),
    client_id: z.string(),
    redirect_uri: z.url(),
    state: z.string().min(1).max(400),
    scope: z.string().refine((s) => s.split(/[ +]/).includes("openid"), "scope must include openid"),
    nonce: z.string().max(400).optional(),
    code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    code_challenge_method: z.literal("S256"),
    ui_locales: z.string().optional(),
    bot_prompt: z.enum(["normal", "aggressive"]).optional(),
  });

  function checkAuthorize(req: Request, input: unknown) {
    const parsed = authorizeQuery.safeParse(input);
    if (!parsed.success)
      return { ok: false as const, message: parsed.error.issues.map((i) => i.path.join(".")).join(", ") };
    const q = parsed.data;
    if (q.client_id !== options.channelId) return { ok: false as const, message: "invalid client_id" };
    const redirect = new URL(q.redirect_uri);
    if (!options.allowedRedirectOrigins(req).includes(redirect.origin) || redirect.pathname !== "/auth/line/callback") {
      return { ok: false as const, message: "invalid redirect_uri" };
    }
    return { ok: true as const, q };
  }

  router.get("/oauth2/v2.1/authorize", (req, res) => {
    const checked = checkAuthorize(req, req.query);
    if (!checked.ok) {
      res.status(400).type("html").send(errorPage(checked.message));
      return;
    }
    res.type("html").send(authorizePage(checked.q as Record<string, string | undefined>));
  });

  router.post("/oauth2/v2.1/authorize", async (req, res) => {
    const checked = checkAuthorize(req, req.body);
    if (!checked.ok) {
      res.status(400).type("html").send(errorPage(checked.message));
      return;
    }
    const { q } = checked;
    const back = new URL(q.redirect_uri);
    if (req.body.decision !== "allow") {
      back.searchParams.set("error", "ACCESS_DENIED");
      back.searchParams.set("error_description", "The user has denied the approval");
      back.searchParams.set("state", q.state);
      res.redirect(303, back.toString());
      return;
    }
    const other = typeof req.body.otherName === "string" ? req.body.otherName.trim().slice(0, 40) : "";
    const user =
      req.body.user === "other" && other ? otherTestUser(other) : PRESET_USERS.find((u) => u.sub === req.body.user);
    if (!user) {
      res.status(400).type("html").send(errorPage("choose a test user"));
      return;
    }
    const code = randomBytes(16).toString("base64url");
    codes.set(code, {
      user,
      clientId: q.client_id,
      redirectUri: q.redirect_uri,
      codeChallenge: q.code_challenge,
      nonce: q.nonce ?? null,
      scope: q.scope.replaceAll("+", " "),
      expiresAt: now().getTime() + CODE_TTL_MS,
      used: false,
    });
    back.searchParams.set("code", code);
    back.searchParams.set("state", q.state);
    // The add-friend option of the consent screen (bot_prompt): LINE reports a change on the callback.
    const official = options.officialAccount;
    if (official && q.bot_prompt && req.body.addFriend === "on" && !official.isFriend(user.sub)) {
      await official.addFriend(req, user.sub);
      back.searchParams.set("friendship_status_changed", "true");
    } else if (official && q.bot_prompt) {
      back.searchParams.set("friendship_status_changed", "false");
    }
    res.redirect(303, back.toString());
  });

  const oauthError = (res: Response, status: number, error: string, description: string) =>
    res.status(status).json({ error, error_description: description });

  router.post("/oauth2/v2.1/token", async (req, res) => {
    const b = req.body as Record<string, unknown>;
    if (b.grant_type !== "authorization_code")
      return oauthError(res, 400, "unsupported_grant_type", "unsupported grant_type");
    if (b.client_id !== options.channelId) return oauthError(res, 400, "invalid_client", "invalid client_id");
    if (typeof b.client_secret !== "string" || !sameText(b.client_secret, options.channelSecret)) {
      return oauthError(res, 400, "invalid_client", "invalid client_secret");
    }
    const pending = typeof b.code === "string" ? codes.get(b.code) : undefined;
    if (!pending || pending.expiresAt < now().getTime())
      return oauthError(res, 400, "invalid_grant", "invalid authorization code");
    if (pending.used) return oauthError(res, 400, "invalid_grant", "authorization code has already been used");
    // Single use even when the rest of the request is wrong (RFC 6749 §4.1.2).
    pending.used = true;
    if (b.redirect_uri !== pending.redirectUri)
      return oauthError(res, 400, "invalid_grant", "redirect_uri does not match");
    const verifier = typeof b.code_verifier === "string" ? b.code_verifier : "";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || !sameText(challenge, pending.codeChallenge)) {
      return oauthError(res, 400, "invalid_grant", "invalid code_verifier");
    }
    const accessToken = randomBytes(24).toString("base64url");
    accessTokens.set(accessToken, {
      user: pending.user,
      clientId: pending.clientId,
      scope: pending.scope,
      expiresAt: now().getTime() + ACCESS_TOKEN_TTL_S * 1000,
    });
    res.json({
      access_token: accessToken,
      expires_in: ACCESS_TOKEN_TTL_S,
      id_token: await webIdToken(pending.user, pending.nonce, pending.scope),
      refresh_token: randomBytes(24).toString("base64url"),
      scope: pending.scope,
      token_type: "Bearer",
    });
  });

  router.get("/oauth2/v2.1/certs", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=600");
    res.json({ keys: [signing.publicJwk] });
  });

  // Verify an access token (GET ?access_token=) …
  router.get("/oauth2/v2.1/verify", (req, res) => {
    const entry = accessTokens.get(String(req.query.access_token ?? ""));
    if (!entry) return oauthError(res, 400, "invalid_request", "access token expired");
    res.json({
      scope: entry.scope,
      client_id: entry.clientId,
      expires_in: Math.max(0, Math.floor((entry.expiresAt - now().getTime()) / 1000)),
    });
  });

  // … or an ID token (POST id_token, client_id[, nonce, user_id]), with LINE's error strings.
  router.post("/oauth2/v2.1/verify", async (req, res) => {
    const b = req.body as Record<string, unknown>;
    if (typeof b.id_token !== "string") return oauthError(res, 400, "invalid_request", "id_token is required");
    if (typeof b.client_id !== "string") return oauthError(res, 400, "invalid_request", "client_id is required");
    try {
      const { payload } = await jwtVerify(
        b.id_token,
        async (header) =>
          header.alg === "ES256"
            ? importJWK(signing.publicJwk, "ES256")
            : new TextEncoder().encode(options.channelSecret),
        { algorithms: ["HS256", "ES256"], currentDate: now() },
      );
      if (payload.iss !== LINE_ISSUER) return oauthError(res, 400, "invalid_request", "Invalid IdToken Issuer.");
      if (payload.aud !== b.client_id) return oauthError(res, 400, "invalid_request", "Invalid IdToken Audience.");
      if (typeof b.nonce === "string" && payload.nonce !== b.nonce) {
        return oauthError(res, 400, "invalid_request", "Invalid IdToken Nonce.");
      }
      if (typeof b.user_id === "string" && payload.sub !== b.user_id) {
        return oauthError(res, 400, "invalid_request", "Invalid IdToken Subject Identifier.");
      }
      res.json(payload);
    } catch (error) {
      const expired = (error as { code?: string }).code === "ERR_JWT_EXPIRED";
      oauthError(res, 400, "invalid_request", expired ? "IdToken expired." : "Invalid IdToken.");
    }
  });

  router.post("/oauth2/v2.1/revoke", (req, res) => {
    const b = req.body as Record<string, unknown>;
    if (b.client_id !== options.channelId) return oauthError(res, 400, "invalid_client", "invalid client_id");
    if (typeof b.client_secret !== "string" || !sameText(b.client_secret, options.channelSecret)) {
      return oauthError(res, 400, "invalid_client", "invalid client_secret");
    }
    const token = typeof b.access_token === "string" ? b.access_token : "";
    const entry = accessTokens.get(token);
    if (entry) {
      accessTokens.delete(token);
      revoked.push(entry.user.sub);
    }
    // LINE answers 200 with an empty body, also for an unknown token.
    res.status(200).end();
  });

  const bearer = (req: Request) => {
    const match = /^Bearer (\S+)$/.exec(req.get("authorization") ?? "");
    const entry = match ? accessTokens.get(match[1] as string) : undefined;
    return entry && entry.expiresAt > now().getTime() ? entry : null;
  };

  router.get("/v2/profile", (req, res) => {
    const entry = bearer(req);
    if (!entry)
      return res.status(401).json({
        message: "Authentication failed. Confirm that the access token in the authorization header is valid.",
      });
    res.json({
      userId: entry.user.sub,
      displayName: entry.user.name,
      ...(entry.user.picture ? { pictureUrl: entry.user.picture } : {}),
    });
  });

  router.get("/friendship/v1/status", (req, res) => {
    const entry = bearer(req);
    if (!entry)
      return res.status(401).json({
        message: "Authentication failed. Confirm that the access token in the authorization header is valid.",
      });
    res.json({ friendFlag: options.officialAccount?.isFriend(entry.user.sub) ?? false });
  });

  // Development helpers (not part of LINE): mint the ES256 token LIFF would hand out, and list revocations.
  router.post("/dev/liff-id-token", async (req, res) => {
    const parsed = z.object({ name: z.string().min(1).max(40), email: z.email().optional() }).safeParse(req.body);
    if (!parsed.success) return oauthError(res, 400, "invalid_request", "name is required");
    const user = otherTestUser(parsed.data.name, parsed.data.email ?? null);
    res.json({ idToken: await liffIdToken(user), sub: user.sub });
  });
  router.get("/dev/revocations", (_req, res) => {
    res.json({ revoked });
  });

  return { router, webIdToken, liffIdToken, signing, revoked };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const PAGE_STYLE = `
  *{box-sizing:border-box}body{margin:0;font-family:"Noto Sans TC","PingFang TC","Microsoft JhengHei",system-ui,sans-serif;background:#f5f5f5;color:#1e1e1e;line-height:1.6}
  main{max-width:440px;margin:0 auto;padding:24px 16px}header{display:flex;align-items:center;gap:12px;margin-bottom:16px}
  .logo{display:inline-flex;align-items:center;justify-content:center;width:44px;height:44px;border-radius:12px;background:#00803a;color:#fff;font-weight:700;font-size:13px}
  h1{font-size:1.25rem;margin:0}.card{background:#fff;border-radius:16px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
  .note{font-size:.875rem;color:#4a4a4a;margin:0 0 16px}fieldset{border:0;margin:0;padding:0}legend{font-weight:600;margin-bottom:8px}
  label.user{display:flex;align-items:center;gap:12px;min-height:48px;padding:8px 12px;border:1px solid #d6d6d6;border-radius:12px;margin-bottom:8px;cursor:pointer}
  label.user:has(input:checked){border-color:#06c755;background:#f0fbf4}input[type=radio],input[type=checkbox]{width:20px;height:20px;accent-color:#06c755}
  .who{display:flex;flex-direction:column}.who small{color:#4a4a4a}input[type=text]{width:100%;min-height:44px;margin-top:4px;padding:8px 12px;border:1px solid #8a8a8a;border-radius:8px;font:inherit}
  .actions{display:grid;gap:10px;margin-top:20px}button{min-height:48px;border-radius:999px;font:inherit;font-weight:600;cursor:pointer}
  .allow{background:#00803a;color:#fff;border:0}.allow:hover{background:#006b30}.deny{background:#fff;color:#1e1e1e;border:1px solid #8a8a8a}
  button:focus-visible,input:focus-visible{outline:3px solid #1e1e1e;outline-offset:2px}.dev{margin-top:16px;font-size:.8125rem;color:#4a4a4a;text-align:center}`;

function authorizePage(q: Record<string, string | undefined>): string {
  const hidden = Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v as string)}">`)
    .join("");
  const users = PRESET_USERS.map(
    (u, i) =>
      `<label class="user"><input type="radio" name="user" value="${u.sub}"${i === 0 ? " checked" : ""}><span class="who"><span>${escapeHtml(u.name)}</span><small>${escapeHtml(u.email ?? "未提供電子郵件")}</small></span></label>`,
  ).join("");
  return `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>LINE 登入（本機測試）</title><style>${PAGE_STYLE}</style></head><body><main>
<header><span class="logo" aria-hidden="true">LINE</span><h1>使用 LINE 帳號登入</h1></header>
<div class="card"><p class="note">漢生活 想要取得您的個人檔案（名稱）、電子郵件與 OpenID。請選擇要使用的測試帳號。</p>
<form method="post">${hidden}<fieldset><legend>測試使用者</legend>${users}
<label class="user"><input type="radio" name="user" value="other"><span class="who"><span>其他測試使用者</span></span></label>
<label for="otherName">其他測試使用者的名稱（或 LINE 使用者 ID：U 加 32 位十六進位）</label><input type="text" id="otherName" name="otherName" maxlength="40" autocomplete="off"></fieldset>${
    q.bot_prompt
      ? `<label class="user"><input type="checkbox" name="addFriend" checked><span class="who"><span>加入「漢生活」官方帳號好友</span><small>接收會員卡、點數與優惠通知</small></span></label>`
      : ""
  }
<div class="actions"><button class="allow" type="submit" name="decision" value="allow">同意並登入</button>
<button class="deny" type="submit" name="decision" value="deny">拒絕</button></div></form></div>
<p class="dev">本機 LINE 相容測試服務：僅供開發與測試使用。</p></main></body></html>`;
}

function errorPage(message: string): string {
  return `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>LINE 登入錯誤</title><style>${PAGE_STYLE}</style></head><body><main><h1>400 Bad Request</h1><p class="card">${escapeHtml(message)}</p></main></body></html>`;
}
