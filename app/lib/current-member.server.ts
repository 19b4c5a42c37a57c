import { createContext, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import { findMemberByUserId, type Member } from "~/domain/members/members.server";
import { getApp } from "./context.server";
import { links } from "./links";

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
  member: Member | null;
};

export const memberSessionContext = createContext<MemberSession | null>(null);

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

export const memberSessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const app = getApp(context);
  let refreshed: Headers | null = null;
  if (SESSION_COOKIE.test(request.headers.get("cookie") ?? "")) {
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
        context.set(memberSessionContext, {
          userId: user.id,
          sessionId: response.session.id,
          sessionToken: response.session.token,
          phoneNumber: user.phoneNumber ?? null,
          email: user.email,
          member,
        });
      }
    }
  }
  const result = await next();
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
): MemberSession & { member: Member } {
  const session = getMemberSession(context);
  if (!session?.member) throw loginRedirect(request);
  return session as MemberSession & { member: Member };
}
