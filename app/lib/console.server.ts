import { type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import type { AuditContext } from "~/domain/audit/audit.server";
import { staffAuditContext } from "~/domain/staff/actor";
import { consoleContext, requireStaff } from "~/domain/staff/guard.server";
import { CONSOLE_COOKIE, CONSOLE_SESSION_POLICY, loadConsoleSession } from "~/domain/staff/sessions.server";
import { getApp } from "./context.server";
import { safeRedirectPath } from "./links";

/**
 * The console's HTTP side (ADR 020): its own session cookie, the middleware that loads the staff member of
 * every /admin request, and the audit "where" of a console request.
 */

export const CONSOLE_HOME = "/admin";

const COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${CONSOLE_COOKIE}=([A-Za-z0-9_-]{1,200})`);

export function readConsoleToken(request: Request): string | null {
  return COOKIE_PATTERN.exec(request.headers.get("cookie") ?? "")?.[1] ?? null;
}

/** Strict: the cookie never rides along on a request started by another site. */
export function consoleCookie(token: string, secure: boolean): string {
  const maxAge = CONSOLE_SESSION_POLICY.absoluteHours * 3600;
  return `${CONSOLE_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

export function clearConsoleCookie(secure: boolean): string {
  return `${CONSOLE_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** Loads the console session (if any) for every /admin request; console answers are never cached or indexed. */
export const consoleMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const app = getApp(context);
  const token = readConsoleToken(request);
  const session = token ? await loadConsoleSession(app.db, token) : null;
  const url = new URL(request.url);
  context.set(consoleContext, {
    actor: session?.actor ?? null,
    session,
    returnTo: safeRedirectPath(url.pathname.replace(/\.data$/, "") + url.search, CONSOLE_HOME),
  });
  const result = await next();
  result.headers.set("Cache-Control", "private, no-store");
  result.headers.set("X-Robots-Tag", "noindex, nofollow");
  // A cookie of an ended session is removed (unless this answer sets a new one).
  if (token && !session && !result.headers.get("Set-Cookie")?.includes(`${CONSOLE_COOKIE}=`)) {
    result.headers.append("Set-Cookie", clearConsoleCookie(app.config.isProduction));
  }
  return result;
};

/** Where a console request came from (IP and request id from the server, the user agent from the request). */
export function requestWhere(context: Readonly<RouterContextProvider>, request: Request) {
  const app = getApp(context);
  return { ip: app.ip, userAgent: request.headers.get("user-agent"), requestId: app.requestId };
}

/** Who and from where, for the audit row of a console write: pass it to the domain function. */
export function consoleAudit(context: Readonly<RouterContextProvider>, request: Request): AuditContext {
  return staffAuditContext(requireStaff(context), requestWhere(context, request));
}

/** The console session of this request (also a pending one), or null. */
export function consoleSession(context: Readonly<RouterContextProvider>) {
  return context.get(consoleContext)?.session ?? null;
}

/** Where a console sign-in step goes when done: its `redirectTo` parameter, on this site, else the console home. */
export function consoleRedirectTarget(request: Request): string {
  return safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), CONSOLE_HOME);
}

/**
 * The session of a sign-in step after the password (the authenticator enrolment or the code): without
 * a session to the login, and a session that stands at the other step to that step's page, each with
 * the same `redirectTo`. An active session passes (the code page is also the step-up).
 */
export function requireSignInStep(
  context: Readonly<RouterContextProvider>,
  request: Request,
  step: "enrol" | "verify",
) {
  const session = consoleSession(context);
  const back = new URLSearchParams({ redirectTo: consoleRedirectTarget(request) });
  if (!session) throw redirect(`/admin/login?${back}`);
  if (step === "enrol" && session.stage === "second_factor") throw redirect(`/admin/verify?${back}`);
  if (step === "verify" && session.stage === "enrol") throw redirect(`/admin/enrol?${back}`);
  return session;
}
