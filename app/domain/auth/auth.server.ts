import { passkey } from "@better-auth/passkey";
import { type AppConfig, CLIENT_ADDRESS_HEADER } from "@platform/config";
import type { Database } from "@platform/db/client";
import {
  authAccount,
  authPasskey,
  authRateLimit,
  authSession,
  authUser,
  authVerification,
  member,
} from "@platform/db/schema";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthEndpoint, createAuthMiddleware } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { recordLogin } from "../members/members.server";
import { hashPassword, verifyPassword } from "./passwords.server";

export const SESSION_DAYS = 30;
/** A session used after this long since its last refresh is extended (sliding expiry). */
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;

/** Changing the e-mail, the phone or the passkeys needs a login at most this old (PRODUCT.md, issue 7). */
export const RECENT_LOGIN_MINUTES = 15;

/** The WebAuthn relying party: the public site's host name and origin (PUBLIC_BASE_URL). */
export function passkeyRelyingParty(config: Pick<AppConfig, "publicBaseUrl">) {
  const url = new URL(config.publicBaseUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/**
 * Our own server-only endpoints. Every proof (password, one-time code, LINE ID token) is checked
 * by our domain code; these only turn a proven user id into a session cookie. They are never on
 * the HTTP router (`serverOnly`).
 */
function memberSessions() {
  return {
    id: "member-sessions",
    endpoints: {
      startMemberSession: createAuthEndpoint.serverOnly(
        { method: "POST", body: z.object({ userId: z.string().min(1) }) },
        async (ctx) => {
          const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
          if (!user) throw ctx.error("NOT_FOUND", { message: "user not found" });
          // A new session (new token) at every login: session fixation is impossible.
          const session = await ctx.context.internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ sessionId: session.id });
        },
      ),
    },
  } as const;
}

export function createAuth({ db, config }: { db: Database; config: AppConfig }) {
  return betterAuth({
    appName: "漢生活",
    baseURL: config.publicBaseUrl,
    basePath: "/api/auth",
    secret: config.secrets.session,
    trustedOrigins: [config.publicBaseUrl],
    telemetry: { enabled: false },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: authUser,
        session: authSession,
        account: authAccount,
        verification: authVerification,
        rateLimit: authRateLimit,
        passkey: authPasskey,
      },
    }),
    user: {
      additionalFields: {
        phoneNumber: { type: "string", required: false, input: false },
        phoneNumberVerified: { type: "boolean", required: false, input: false, defaultValue: false },
        role: { type: "string", required: false, input: false, defaultValue: "member" },
      },
    },
    emailAndPassword: {
      enabled: true,
      // Accounts are created only through our sign-up flow (phone first).
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    session: {
      expiresIn: 60 * 60 * 24 * SESSION_DAYS,
      // Sliding expiry: a session used at least daily stays alive.
      updateAge: SESSION_UPDATE_AGE_SECONDS,
      // Adding a passkey needs a recent login; the confirm-identity page starts a new session.
      freshAge: RECENT_LOGIN_MINUTES * 60,
    },
    hooks: {
      // A disabled member's passkey opens nothing (the password login refuses them the same way).
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/passkey/verify-authentication") return;
        const credentialId = (ctx.body as { response?: { id?: unknown } } | undefined)?.response?.id;
        if (typeof credentialId !== "string") return;
        const [row] = await db
          .select({ disabled: member.disabled })
          .from(authPasskey)
          .innerJoin(member, eq(member.userId, authPasskey.userId))
          .where(eq(authPasskey.credentialID, credentialId))
          .limit(1);
        if (row?.disabled) throw new APIError("FORBIDDEN", { message: "member disabled", code: "MEMBER_DISABLED" });
      }),
      // A passkey login is a login: it updates lastLoginAt like our password and code logins do.
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/passkey/verify-authentication") return;
        const userId = ctx.context.newSession?.user.id;
        if (userId) await recordLogin(db, userId);
      }),
    },
    rateLimit: { enabled: true, storage: "database", window: 60, max: 100 },
    advanced: {
      useSecureCookies: config.isProduction,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.isProduction },
      // The address Express decided on (TRUST_PROXY), never a raw X-Forwarded-For (server/app.ts sets it).
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    // Our flows replace these public endpoints (hashed codes, per-number limits, no enumeration).
    disabledPaths: [
      "/sign-up/email",
      "/sign-in/email",
      "/forget-password",
      "/request-password-reset",
      "/reset-password",
      "/send-verification-email",
      "/verify-email",
      "/change-email",
      "/update-user",
      "/delete-user",
    ],
    plugins: [
      memberSessions(),
      passkey({
        ...passkeyRelyingParty(config),
        rpName: "漢生活",
        // Resident keys so the login page can offer "log in with a passkey" without a user name.
        authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
