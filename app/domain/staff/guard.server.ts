import { createContext, data, type RouterContextProvider, redirect } from "react-router";
import type { StaffActor } from "./actor";
import { hasPermission, type Permission } from "./permissions";
import { CONSOLE_SESSION_POLICY, type LoadedConsoleSession } from "./sessions.server";

/**
 * The console's one gate (ADR 020). Every console loader and action, and every domain function the
 * console calls, asks requirePermission(); nothing else decides who may do what.
 */

export const CONSOLE_LOGIN_PATH = "/admin/login";
export const CONSOLE_VERIFY_PATH = "/admin/verify";

/** Set by the console middleware for every /admin request. */
export type ConsoleState = {
  /** Null for anonymous visitors, members, and sessions that have not passed the second factor. */
  actor: StaffActor | null;
  /** The console session behind the cookie, also while it waits for the second factor or its enrolment. */
  session: LoadedConsoleSession | null;
  /** The path (and query) of the current request, to come back to after a login or a code. */
  returnTo: string;
  /** The permission this request was refused (403), for its audit row (consoleMiddleware, ADR 020). */
  refusal?: { permission: Permission; storeId: string | null };
};

export const consoleContext = createContext<ConsoleState | null>(null);

type Source = Readonly<RouterContextProvider> | StaffActor | null | undefined;

function isRouterContext(source: Source): source is Readonly<RouterContextProvider> {
  return typeof (source as { get?: unknown } | null)?.get === "function";
}

function withReturn(path: string, returnTo: string | undefined): string {
  return returnTo ? `${path}?redirectTo=${encodeURIComponent(returnTo)}` : path;
}

/** The staff member of this request, or a redirect to the console login. */
export function requireStaff(source: Source): StaffActor {
  if (isRouterContext(source)) {
    const state = source.get(consoleContext);
    if (!state?.actor) throw redirect(withReturn(CONSOLE_LOGIN_PATH, state?.returnTo));
    return state.actor;
  }
  if (!source) throw redirect(CONSOLE_LOGIN_PATH);
  return source;
}

/**
 * The staff member, if they hold `permission` (at `storeId` when given); otherwise a 403 response
 * (the console's 403 view), or a redirect to the console login for a visitor without a console session.
 * A refusal is audited by the console middleware (rate-limited, security-events.server.ts), with the
 * permission when the request's context was given here.
 */
export function requirePermission(
  source: Source,
  permission: Permission,
  options: { storeId?: string | null } = {},
): StaffActor {
  const actor = requireStaff(source);
  if (!hasPermission(actor, permission, options)) {
    const state = isRouterContext(source) ? source.get(consoleContext) : null;
    if (state) state.refusal = { permission, storeId: options.storeId ?? null };
    throw data({ permission, storeId: options.storeId ?? null }, { status: 403, statusText: "Forbidden" });
  }
  return actor;
}

/** Whether the second factor was given recently enough for a sensitive action. */
export function hasRecentSecondFactor(
  actor: StaffActor,
  now = new Date(),
  maxAgeMinutes: number = CONSOLE_SESSION_POLICY.recentSecondFactorMinutes,
): boolean {
  return now.getTime() - actor.secondFactorAt.getTime() <= maxAgeMinutes * 60_000;
}

/**
 * For sensitive actions (adjustments, API keys, staff changes): the staff member, if they gave the
 * second factor within the last few minutes; otherwise a redirect to the code page, which comes back.
 */
export function requireRecentSecondFactor(source: Source, now = new Date()): StaffActor {
  const actor = requireStaff(source);
  if (hasRecentSecondFactor(actor, now)) return actor;
  const returnTo = isRouterContext(source) ? source.get(consoleContext)?.returnTo : undefined;
  throw redirect(withReturn(CONSOLE_VERIFY_PATH, returnTo));
}
