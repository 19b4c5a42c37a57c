import type { Database } from "@platform/db/client";
import { claimLimitsIn, type Limit, LimitRefusedError } from "../auth/rate-limits.server";
import {
  type AuditAction,
  type AuditChange,
  type AuditContext,
  type AuditEntry,
  type AuditTarget,
  recordAudit,
} from "./audit.server";

/**
 * Failed security events in the audit log (issue 33 item 7, ADR 020 "Security events"): a console session
 * ended by wrong codes, a wrong password at the console login or on an invitation, a refused (403) console
 * request. Unlike a change, such an event is caused by whoever sends requests, so its rows are limited:
 * each claims a slot of its source's budget (the staff member when one is known, otherwise the IP) and of
 * a budget for all sources, in the same transaction as the row (claimLimitsIn, ADR 018). Over budget the
 * row is dropped — never the refusal itself, which the caller answers regardless.
 */

export const SECURITY_AUDIT_POLICY = {
  /** Rows per staff member, or per IP for anonymous events, per minute. */
  perSourceMinute: 10,
  /** Rows for all sources together per minute (many IPs cannot fill the log either). */
  allMinute: 200,
} as const;

/** The audit "who" of an event nobody has proven to be (a password or an invitation link typed). */
export function anonymousAuditContext(where: Pick<AuditContext, "ip" | "userAgent" | "requestId">): AuditContext {
  return { actorType: "system", label: "anonymous", ...where };
}

/** Whose budget an event spends: the staff member acting, or else the IP it came from. */
function sourceKey(context: AuditContext): string {
  if (context.actorType === "staff") return `security-audit:user:${context.userId}`;
  if (context.actorType === "api_key") return `security-audit:key:${context.apiKeyId}`;
  return `security-audit:ip:${context.ip ?? "-"}`;
}

export function securityEventLimits(context: AuditContext): Limit[] {
  return [
    { key: sourceKey(context), window: "minute", max: SECURITY_AUDIT_POLICY.perSourceMinute },
    { key: "security-audit:all", window: "minute", max: SECURITY_AUDIT_POLICY.allMinute },
  ];
}

/**
 * Writes the audit row of a failed security event if its source and everyone's budget have room (one
 * atomic claim each, rolled back with the row when either is full). Returns whether the row was written.
 */
export async function recordSecurityEvent(db: Database, entry: AuditEntry, now = new Date()): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      await claimLimitsIn(tx, securityEventLimits(entry.context), now);
      await recordAudit(tx, entry, now);
    });
    return true;
  } catch (error) {
    if (error instanceof LimitRefusedError) return false;
    throw error;
  }
}

/**
 * recordSecurityEvent as one line at the call site, like audited():
 * `await securityAudited(db, context, now)("staff.login_failed", ["staff", id], { after })`.
 */
export function securityAudited(
  db: Database,
  context: AuditContext,
  now = new Date(),
): (action: AuditAction, target: AuditTarget, change?: AuditChange) => Promise<boolean> {
  return (action, [targetType, targetId], change = {}) =>
    recordSecurityEvent(db, { context, action, targetType, targetId, ...change }, now);
}
