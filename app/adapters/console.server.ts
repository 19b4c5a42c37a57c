import { data, type MiddlewareFunction, type RouterContextProvider, redirect } from "react-router";
import type { AuditContext } from "~/domain/audit/audit.server";
import { securityAudited } from "~/domain/audit/security-events.server";
import { type StaffActor, staffAuditContext } from "~/domain/staff/actor";
import { type ConsoleState, consoleContext, hasRecentSecondFactor, requireStaff } from "~/domain/staff/guard.server";
import {
  CONSOLE_COOKIE,
  CONSOLE_SESSION_POLICY,
  giveSecondFactor,
  loadConsoleSession,
} from "~/domain/staff/sessions.server";
import { requestNow } from "~/lib/clock.server";
import { formValues } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { safeRedirectPath } from "~/lib/links";
import { getApp } from "./context.server";

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

/**
 * Loads the console session (if any) for every /admin request; console answers are never cached or indexed.
 * A staff member's request answered 403 (refused by requirePermission, or a refused change) is audited as
 * a failed security event, rate-limited (issue 33 item 7): the answer is the same whether or not its row
 * is written.
 */
export const consoleMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const app = getApp(context);
  const token = readConsoleToken(request);
  const session = token ? await loadConsoleSession(app.db, token) : null;
  const url = new URL(request.url);
  const state: ConsoleState = {
    actor: session?.actor ?? null,
    session,
    returnTo: safeRedirectPath(url.pathname.replace(/\.data$/, "") + url.search, CONSOLE_HOME),
  };
  context.set(consoleContext, state);
  const result = await next();
  if (result.status === 403 && state.actor) await auditRefusal(context, request, state, state.actor);
  result.headers.set("Cache-Control", "private, no-store");
  result.headers.set("X-Robots-Tag", "noindex, nofollow");
  // A cookie of an ended session is removed (unless this answer sets a new one).
  if (token && !session && !result.headers.get("Set-Cookie")?.includes(`${CONSOLE_COOKIE}=`)) {
    result.headers.append("Set-Cookie", clearConsoleCookie(app.config.isProduction));
  }
  return result;
};

/** The audit row of a refused console request; a failure to write it is logged, never answered. */
async function auditRefusal(
  context: Readonly<RouterContextProvider>,
  request: Request,
  state: ConsoleState,
  actor: StaffActor,
): Promise<void> {
  const app = getApp(context);
  try {
    await securityAudited(
      app.db,
      staffAuditContext(actor, requestWhere(context, request)),
      requestNow(request, app.config),
    )("console.access_refused", ["permission", state.refusal?.permission ?? null], {
      after: {
        method: request.method,
        path: new URL(request.url).pathname.replace(/\.data$/, "").slice(0, 200),
        storeId: state.refusal?.storeId ?? null,
      },
    });
  } catch (error) {
    app.logger.warn({ err: error }, "audit of a refused console request failed");
  }
}

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

/** The form field that carries the step-up code with a sensitive form. */
export const STEP_UP_FIELD = "stepUpCode";

/** What a sensitive form gets back when the code must be given (again): the values typed, kept. */
export type StepUpAnswer = { stepUp: true; errors: Record<string, string[]>; values: Record<string, string> };

/**
 * Sensitive actions (adjustments, approvals, settings; ADR 020, ADR 023): the second factor must have been
 * given in the last few minutes. When it was not, the form comes back (401) with everything typed and a code
 * field; sent again with the code, the code renews the session's second factor (a try is claimed before it
 * is compared, ADR 018) and the action goes ahead. Too many wrong codes end the session (back to the login).
 */
export async function requireRecentSecondFactorFor(
  context: Readonly<RouterContextProvider>,
  request: Request,
  form: FormData,
): Promise<{ ok: true; actor: StaffActor } | { ok: false; answer: ReturnType<typeof data<StepUpAnswer>> }> {
  const app = getApp(context);
  const actor = requireStaff(context);
  const now = requestNow(request, app.config);
  if (hasRecentSecondFactor(actor, now)) return { ok: true, actor };
  const values = formValues(form, ["password", STEP_UP_FIELD]);
  const code = String(form.get(STEP_UP_FIELD) ?? "").trim();
  if (!code) return { ok: false, answer: data({ stepUp: true, errors: {}, values }, { status: 401 }) };
  const result = await giveSecondFactor(
    { db: app.db, secret: app.config.secrets.session },
    { sessionId: actor.sessionId, userId: actor.userId },
    code.slice(0, 32),
    consoleAudit(context, request),
    now,
  );
  if (result.ok) return { ok: true, actor: { ...actor, secondFactorAt: now } };
  if (result.reason === "session_ended") {
    throw redirect("/admin/login?ended=1", { headers: { "Set-Cookie": clearConsoleCookie(app.config.isProduction) } });
  }
  const t = serverT(request);
  const locked = result.reason === "locked";
  return {
    ok: false,
    answer: data(
      {
        stepUp: true,
        errors: { [STEP_UP_FIELD]: [t(locked ? "console.verify.locked" : "console.verify.invalid")] },
        values,
      },
      { status: locked ? 429 : 400 },
    ),
  };
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
