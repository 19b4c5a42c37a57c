import type { Permission } from "~/domain/staff/permissions";
import type { MessageKey } from "~/lib/i18n";

/**
 * The console's navigation: one line per section, shown to the roles that hold its permission (the page
 * itself still checks with requirePermission). Sections add themselves here as they are built.
 */
export const CONSOLE_NAV: readonly { to: string; label: MessageKey; permission: Permission | null }[] = [
  { to: "/admin", label: "console.nav.home", permission: null },
  // The counter (ADR 022).
  { to: "/admin/counter", label: "console.nav.counter", permission: "member.view" },
  { to: "/admin/members", label: "console.nav.members", permission: "member.view" },
  { to: "/admin/approvals", label: "console.nav.approvals", permission: "points.approve" },
  { to: "/admin/staff", label: "console.nav.staff", permission: "staff.manage" },
  { to: "/admin/api-keys", label: "console.nav.keys", permission: "apikeys.manage" },
  { to: "/admin/audit", label: "console.nav.audit", permission: "audit.view" },
  { to: "/admin/settings", label: "console.nav.settings", permission: "settings.edit" },
];
