/**
 * Who may do what in the console (PRODUCT.md §5, ADR 020): the one table of permissions per role.
 * Pure data and one pure check, shared by the guard (requirePermission), the domain and the UI
 * (to hide what a role cannot use).
 */

export const STAFF_ROLES = ["staff", "manager", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** `auth_user.role`: `member` (the default) has no console; the others are console roles. */
export type UserRole = "member" | StaffRole;

export function isStaffRole(role: unknown): role is StaffRole {
  return typeof role === "string" && (STAFF_ROLES as readonly string[]).includes(role);
}

/**
 * `store`: granted at the stores assigned to the staff member (every store for an admin); a check
 * with a storeId asks about that store, one without asks whether the role has it anywhere (e.g. to
 * show a menu entry; lists are then filtered to the actor's stores).
 * `global`: not tied to a store (the programme, people, keys, the whole member base).
 */
export const PERMISSIONS = {
  "counter.purchase": "store",
  "counter.refund": "store",
  "counter.coupon": "store",
  /** See a member's e-invoice carrier (as a barcode) and 統編 at the till, when the member shares them (ADR 041). */
  "counter.einvoice": "store",
  /** Today's appointments at the counter, check-in, and the store's appointments in the console (issue 37, ADR 045). */
  "counter.appointments": "store",
  /** Find a member and see the masked summary (at the counter, or in the member list). */
  "member.view": "store",
  /** See a member's full personal data (unmasked phone, e-mail, address); every reveal is audited. */
  "member.reveal": "store",
  /** Bind a member to a consultant (專屬顧問) who works at the store (ADR 042). */
  "member.consultant": "store",
  /** Adjust points; a manager only up to the adjustment limit (above it an admin approves). */
  "points.adjust": "store",
  /** Approve an adjustment above a manager's limit (four-eyes: never one's own). */
  "points.approve": "global",
  /** A store's own page: hours, holidays, photos. */
  "store.edit": "store",
  "reports.view": "store",
  /** Sales and new members per clerk at the stores worked at, and one's own consultant list (ADR 042). */
  "reports.clerks": "store",
  /** The shared catalogue: materials, categories, images. */
  "catalog.edit": "global",
  /** Rewards, earn rules, tiers, expiry. */
  "programme.edit": "global",
  "member.manage": "global",
  "member.export": "global",
  /** Import members from the original system or another CRM (issue 35, ADR 038). */
  "member.import": "global",
  /** Grant points to many members at once; a total over the manager limit waits for an admin (ADR 038). */
  "points.bulk": "global",
  "staff.manage": "global",
  "apikeys.manage": "global",
  "audit.view": "global",
  /** Messages to members: the automatic messages and campaigns (PRODUCT.md §11, ADR 034). */
  "messages.manage": "global",
  /** The LINE rich menus by member state (ADR 049): publish and remove them. */
  "line.richmenu": "global",
  /** Outbound webhooks (ADR 054): register endpoints, rotate secrets, redeliver. */
  "webhooks.manage": "global",
  /** Console settings (the manager's adjustment limit). */
  "settings.edit": "global",
  /** See the quote requests of the stores worked at (issue 37 part 4, ADR 047). */
  "quotes.view": "store",
  /** Answer a quote request: prices, validity, a message (issue 37 part 4, ADR 047). */
  "quotes.answer": "store",
  /** Samples at the store: see the requests, mark them ready, hand them out, take them back (ADR 046). */
  "samples.manage": "store",
} as const satisfies Record<string, "store" | "global">;

export type Permission = keyof typeof PERMISSIONS;
export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

const COUNTER: Permission[] = [
  "counter.purchase",
  "counter.refund",
  "counter.coupon",
  "counter.einvoice",
  "member.view",
  "member.consultant",
  "reports.clerks",
  "samples.manage",
  "counter.appointments",
];

/** The table. An admin has every permission at every store. */
export const ROLE_PERMISSIONS: Record<StaffRole, ReadonlySet<Permission>> = {
  staff: new Set<Permission>([...COUNTER, "quotes.view", "quotes.answer"]),
  manager: new Set<Permission>([
    ...COUNTER,
    "quotes.view",
    "quotes.answer",
    "member.reveal",
    "points.adjust",
    "points.bulk",
    "store.edit",
    "reports.view",
  ]),
  admin: new Set(ALL_PERMISSIONS),
};

/**
 * Points a manager may adjust without an admin's approval (an admin setting; this is its default): in one
 * adjustment, and in total for one member per Taipei day (ADR 023).
 */
export const DEFAULT_MANAGER_ADJUSTMENT_LIMIT = 1_000;

/**
 * A manager's own total per Taipei day, over all members, is this many times the limit (5,000 points at
 * the default 1,000): a day of several goodwill gestures books at once, a spree across many members waits
 * for an admin. Follows the one setting, so a limit of 0 still sends every manager adjustment for approval.
 */
export const MANAGER_DAILY_ADJUSTMENT_FACTOR = 5;

/** What the check needs to know about the person acting. */
export type PermissionSubject = { role: StaffRole; storeIds: readonly string[] };

/** Whether the subject holds the permission (at the given store, when one is given). */
export function hasPermission(
  subject: PermissionSubject | null | undefined,
  permission: Permission,
  options: { storeId?: string | null } = {},
): boolean {
  if (!subject || !isStaffRole(subject.role)) return false;
  if (!ROLE_PERMISSIONS[subject.role].has(permission)) return false;
  if (subject.role === "admin") return true;
  if (PERMISSIONS[permission] === "global") return true;
  if (options.storeId === undefined || options.storeId === null) return subject.storeIds.length > 0;
  return subject.storeIds.includes(options.storeId);
}

/** The stores the subject may act at with a store permission; `"all"` for an admin. */
export function storesFor(subject: PermissionSubject, permission: Permission): readonly string[] | "all" {
  if (!hasPermission(subject, permission)) return [];
  if (subject.role === "admin") return "all";
  return subject.storeIds;
}

/**
 * Whether an adjustment of `points` (either sign) books at once for this role, or waits for an admin's
 * approval. Admins book any amount; a manager up to `managerLimit`; staff may not adjust at all.
 */
export function adjustmentNeedsApproval(role: StaffRole, points: number, managerLimit: number): boolean {
  if (role === "admin") return false;
  return Math.abs(points) > managerLimit;
}
