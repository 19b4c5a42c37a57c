import { createHash } from "node:crypto";
import { cacheBusOf, cacheRegion } from "@platform/cache/shared-cache";
import { createContext, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import { SESSION_DAYS, SESSION_UPDATE_AGE_SECONDS } from "~/domain/auth/auth.server";
import { findMemberByUserId, type Member } from "~/domain/members/members.server";
import { links } from "~/lib/links";
import { getApp } from "./context.server";

/**
 * The member-session state of the specification: loaded once per request for the logged-in user
 * (`memberInfo`), absent for visitors.
 */
export type MemberSession = {
  userId: string;
  sessionId: string;
  sessionToken: string;
  phoneNumber: string | null;
  email: string;
  member: SessionMember | null;
};

/**
 * The member row as the session carries it (and the session cache keeps it): the whole row, every column of which
 * invalidates the cache when it changes (migration 0057, platform/cache/cached-columns.ts). The store of the last
 * purchase, which a purchase moves without invalidating it, is not on the member row (member_last_store, migration
 * 0062); pages that need it read it from the database.
 */
export type SessionMember = Member;

export const memberSessionContext = createContext<MemberSession | null>(null);

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

/**
 * Validated sessions with their member record, per instance (ADR 026), keyed by a hash of the signed
 * session cookie exactly as sent: an entry exists only for a cookie better-auth has verified. Tagged
 * `u:<user id>`: any change to that user's sessions, user or member row (logout, revoke, password
 * change, disable, profile edit) drops it on every instance through the invalidation bus.
 */
type CachedSession = MemberSession & { expiresAt: number };
const SESSION_CACHE = { maxEntries: 10_000, ttlMs: 5 * 60_000, clearOn: ["u:*"] } as const;
const EXPIRES_IN_MS = SESSION_DAYS * 24 * 60 * 60_000;
const UPDATE_AGE_MS = SESSION_UPDATE_AGE_SECONDS * 1000;

/** The cache key of the request's session cookie, or null when it cannot be cached safely. */
async function sessionCacheKey(cookieHeader: string, auth: ReturnType<typeof getApp>["auth"]): Promise<string | null> {
  const name = (await auth.$context).authCookies.sessionToken.name;
  let found: string | null = null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    // The same cookie twice: which one better-auth reads is its parser's business; do not cache.
    if (found !== null) return null;
    found = part.slice(eq + 1).trim();
  }
  if (!found) return null;
  return createHash("sha256").update(found).digest("base64url");
}

export const memberSessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const app = getApp(context);
  let refreshed: Headers | null = null;
  const cookieHeader = request.headers.get("cookie") ?? "";
  if (SESSION_COOKIE.test(cookieHeader)) {
    const cache = cacheRegion<CachedSession>(app.db, "member-sessions", SESSION_CACHE);
    const key = cache ? await sessionCacheKey(cookieHeader, app.auth) : null;
    const now = Date.now();
    const cached = key ? cache?.get(key, now) : undefined;
    // A hit serves a session that is neither expired nor due for better-auth's sliding refresh
    // (which writes the session and sends a new cookie): those go through better-auth.
    if (cached && cached.expiresAt > now && cached.expiresAt - EXPIRES_IN_MS + UPDATE_AGE_MS > now) {
      const { expiresAt: _, ...session } = cached;
      context.set(memberSessionContext, session);
    } else {
      const ticket = cache?.ticket() ?? 0;
      const { headers, response } = await app.auth.api.getSession({ headers: request.headers, returnHeaders: true });
      refreshed = headers;
      if (response) {
        const member = await findMemberByUserId(app.db, response.user.id);
        if (member?.disabled) {
          // A member disabled by an admin is logged out everywhere at the next request.
          const ctx = await app.auth.$context;
          await ctx.internalAdapter.deleteUserSessions(response.user.id);
        } else {
          const user = response.user as typeof response.user & { phoneNumber?: string | null };
          const session: MemberSession = {
            userId: user.id,
            sessionId: response.session.id,
            sessionToken: response.session.token,
            phoneNumber: user.phoneNumber ?? null,
            email: user.email,
            member,
          };
          context.set(memberSessionContext, session);
          // Only an answer without cookies to send (no refresh, nothing expired) is kept.
          if (key && cache && (headers.getSetCookie?.() ?? []).length === 0) {
            const expiresAt = new Date(response.session.expiresAt).getTime();
            // Shared by every request of this session from now on: frozen, so no request can change it.
            if (member) Object.freeze(member);
            cache.set(key, Object.freeze({ ...session, expiresAt }), ticket, [`u:${user.id}`]);
          }
        }
      }
    }
  }
  const result = await next();
  // A write (logout, revoke, password, disable, profile, points…) is answered only once its
  // invalidations have gone out to every instance's listener (ADR 026): the next request anywhere
  // does not find what it changed in a cache.
  if (request.method !== "GET" && request.method !== "HEAD") await cacheBusOf(app.db)?.fence();
  if (context.get(memberSessionContext)) {
    // Pages that know who is looking are never stored by a shared cache.
    result.headers.set("Cache-Control", "private, no-store");
  }
  const setCookie = refreshed?.getSetCookie?.() ?? [];
  for (const cookie of setCookie) result.headers.append("Set-Cookie", cookie);
  return result;
};

export function getMemberSession(context: Readonly<RouterContextProvider>): MemberSession | null {
  return context.get(memberSessionContext);
}

/**
 * The login page, with the way back to where the visitor was. During a client-side navigation the
 * request is React Router's data request (`/member-center.data?_routes=…`); links["member-login"]
 * turns that into the page's own address.
 */
export function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  return redirect(links["member-login"](url.pathname + url.search + url.hash));
}

/** A logged-in member (with a member record), or a redirect to the login page. */
export function requireMember(
  context: Readonly<RouterContextProvider>,
  request: Request,
): MemberSession & { member: SessionMember } {
  const session = getMemberSession(context);
  if (!session?.member) throw loginRedirect(request);
  return session as MemberSession & { member: SessionMember };
}
