import type { AuditContext } from "../audit/audit.server";
import type { StaffRole } from "./permissions";

/** The staff member behind a console request (a console session that passed the second factor). */
export type StaffActor = {
  userId: string;
  role: StaffRole;
  displayName: string;
  /** Assigned stores (empty for an admin, who works at every store). */
  storeIds: string[];
  /** The store the staff member is working at now (counter actions book here); null until chosen. */
  currentStoreId: string | null;
  sessionId: string;
  /** When the second factor was last given on this session (sensitive actions ask again after a while). */
  secondFactorAt: Date;
};

/** The audit "who" of a staff actor, with "where" from the request (see auditContext()). */
export function staffAuditContext(
  actor: StaffActor,
  where: { ip: string | null; userAgent: string | null; requestId: string | null },
): AuditContext {
  return {
    actorType: "staff",
    userId: actor.userId,
    role: actor.role,
    storeId: actor.currentStoreId,
    ...where,
  };
}
