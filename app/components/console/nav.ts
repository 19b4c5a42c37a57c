import type { Permission } from "~/domain/staff/permissions";
import type { MessageKey } from "~/lib/i18n";

/** The navigation's groups, in the order they are shown: the day's work, the catalogue, administration. */
export const CONSOLE_NAV_GROUPS = ["daily", "catalog", "admin"] as const;
export type ConsoleNavGroup = (typeof CONSOLE_NAV_GROUPS)[number];

export type ConsoleNavItem = { to: string; label: MessageKey; permission: Permission | null; group: ConsoleNavGroup };

/**
 * The console's navigation: one line per section, shown to the roles that hold its permission (the page
 * itself still checks with requirePermission), grouped in the sidebar and the phone menu. Sections add
 * themselves here as they are built.
 */
export const CONSOLE_NAV: readonly ConsoleNavItem[] = [
  { to: "/admin", label: "console.nav.home", permission: null, group: "daily" },
  // The counter (ADR 022).
  { to: "/admin/counter", label: "console.nav.counter", permission: "member.view", group: "daily" },
  { to: "/admin/members", label: "console.nav.members", permission: "member.view", group: "daily" },
  // Showroom appointments (issue 37, ADR 045).
  { to: "/admin/appointments", label: "console.nav.appointments", permission: "counter.appointments", group: "daily" },
  // Sales per clerk and a consultant's members (issue 36, ADR 042).
  { to: "/admin/reports", label: "console.nav.clerkReports", permission: "reports.clerks", group: "daily" },
  // Quote requests (issue 37 part 4, ADR 047).
  { to: "/admin/quotes", label: "console.nav.quotes", permission: "quotes.view", group: "daily" },
  // Samples at the stores (issue 37 part 3, ADR 046).
  { to: "/admin/samples", label: "console.nav.samples", permission: "samples.manage", group: "daily" },
  { to: "/admin/approvals", label: "console.nav.approvals", permission: "points.approve", group: "daily" },
  // Bulk point grants (issue 35 item 5).
  { to: "/admin/grants", label: "console.nav.grants", permission: "points.bulk", group: "daily" },
  // Messages to members: automatic messages and campaigns (issue 16, ADR 034).
  { to: "/admin/messages", label: "console.nav.messages", permission: "messages.manage", group: "daily" },
  // Saved segments and RFM (issue 38 part 6, ADR 056).
  { to: "/admin/segments", label: "console.nav.segments", permission: "messages.manage", group: "daily" },
  // The LINE rich menus by member state (issue 38, ADR 049): admins only.
  { to: "/admin/rich-menus", label: "console.nav.richMenus", permission: "line.richmenu", group: "admin" },
  // Outbound webhooks (issue 38 part 4, ADR 054): admins only.
  { to: "/admin/webhooks", label: "console.nav.webhooks", permission: "webhooks.manage", group: "admin" },
  { to: "/admin/rewards", label: "console.nav.rewards", permission: "programme.edit", group: "catalog" },
  { to: "/admin/rules", label: "console.nav.rules", permission: "programme.edit", group: "catalog" },
  // Top referrers (issue 38, ADR 053).
  { to: "/admin/referrals", label: "console.nav.referrals", permission: "programme.edit", group: "catalog" },
  // Trade accounts' applications (issue 38 part 2, ADR 057).
  { to: "/admin/trade-accounts", label: "console.nav.tradeAccounts", permission: "programme.edit", group: "catalog" },
  { to: "/admin/images", label: "console.nav.images", permission: "catalog.edit", group: "catalog" },
  { to: "/admin/stores", label: "console.nav.stores", permission: "store.edit", group: "catalog" },
  // Materials and categories (issue 14 item 2, ADR 033): admins only.
  { to: "/admin/materials", label: "console.nav.materials", permission: "catalog.edit", group: "catalog" },
  { to: "/admin/categories", label: "console.nav.categories", permission: "catalog.edit", group: "catalog" },
  // Moving members in from another system (issue 35, ADR 038): admins only.
  { to: "/admin/imports", label: "console.nav.imports", permission: "member.import", group: "admin" },
  { to: "/admin/staff", label: "console.nav.staff", permission: "staff.manage", group: "admin" },
  { to: "/admin/api-keys", label: "console.nav.keys", permission: "apikeys.manage", group: "admin" },
  { to: "/admin/audit", label: "console.nav.audit", permission: "audit.view", group: "admin" },
  { to: "/admin/settings", label: "console.nav.settings", permission: "settings.edit", group: "admin" },
  // The showroom settings: booking horizon, cut-off, reminders, no-shows, sample loans (issue 37, ADR 050).
  { to: "/admin/showroom", label: "console.nav.showroom", permission: "settings.edit", group: "admin" },
];

/** The items a role sees, in their groups (empty groups left out). */
export function groupConsoleNav(items: readonly ConsoleNavItem[]) {
  return CONSOLE_NAV_GROUPS.map((group) => ({ group, items: items.filter((item) => item.group === group) })).filter(
    (g) => g.items.length > 0,
  );
}
