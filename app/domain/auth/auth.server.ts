import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { z } from "zod";
import type { AppConfig } from "../../../server/config";
import type { Database } from "../../../server/db/client";
import { authAccount, authRateLimit, authSession, authUser, authVerification } from "../../../server/db/schema";
import { hashPassword, verifyPassword } from "./passwords.server";

export const SESSION_DAYS = 30;

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
      updateAge: 60 * 60 * 24,
    },
    rateLimit: { enabled: true, storage: "database", window: 60, max: 100 },
    advanced: {
      useSecureCookies: config.isProduction,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.isProduction },
      ipAddress: { ipAddressHeaders: config.trustProxy ? ["x-forwarded-for"] : [] },
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
    plugins: [memberSessions()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
