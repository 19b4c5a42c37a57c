import { z } from "zod";
import type { AuditContext } from "../audit/audit.server";
import type { StaffRole } from "./permissions";

/**
 * The console's sign-in steps (login, invitation, enrolment, code): their forms' schemas (ADR 008, parsed with
 * `parseForm`, the messages in the reader's words) and the audit "who" of a step taken before the session is open.
 */
type Required = (key: "common.required") => string;

const required = (t: Required, tidy: (raw: string) => string = (raw) => raw) =>
  z
    .string()
    .default("")
    .transform(tidy)
    .pipe(z.string().min(1, t("common.required")));

/** The login: an e-mail address or a Taiwan mobile number (trimmed), and the password. */
export const consoleLoginSchema = (t: Required) =>
  z.object({ identifier: required(t, (raw) => raw.trim()), password: required(t) });

/** The invitation: the new password, or the existing login's own. */
export const invitationSchema = (t: Required) => z.object({ password: required(t) });

/** A sign-in step's audit "who": the staff member, at no store yet. */
export function signInAuditContext(
  session: { userId: string; profile: { role: StaffRole } },
  where: { ip: string | null; userAgent: string | null; requestId: string | null },
): AuditContext {
  return { actorType: "staff", userId: session.userId, role: session.profile.role, storeId: null, ...where };
}
