import { TIER_ORDER as TIERS } from "~/domain/loyalty/tier-names";
import type { MemberSearch } from "~/domain/members/console-search.server";
import { MEMBER_SEARCH_MAX } from "~/domain/members/console-search.server";
import type { serverT } from "~/lib/i18n.server";
import { addDays, fromTaipeiWallClock } from "~/lib/time";

/** The member list's filters as the URL carries them (the search page and the CSV export read the same). */

function taipeiDay(value: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
  return check.getUTCMonth() === date.month - 1 && check.getUTCDate() === date.day ? date : null;
}

/** The CSV export of the list as these filters show it. */
export function memberExportPath(filters: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v)).toString();
  return query ? `/admin/members/export?${query}` : "/admin/members/export";
}

/**
 * `stores` are the stores the staff member may filter by (a manager's own, every store for an admin): any other
 * store in the URL is refused beside the field.
 */
export function memberFilters(url: URL, t: ReturnType<typeof serverT>, stores: readonly { id: string }[]) {
  const get = (name: string) => (url.searchParams.get(name) ?? "").trim();
  const q = get("q");
  const filters = {
    q: q.slice(0, 1000),
    tier: get("tier"),
    status: get("status"),
    line: get("line"),
    from: get("from"),
    to: get("to"),
    store: get("store").slice(0, 100),
  };
  const errors: Record<string, string[]> = {};
  if (q.length > MEMBER_SEARCH_MAX) errors.q = [t("console.members.error.tooLong", { max: MEMBER_SEARCH_MAX })];
  const from = filters.from ? taipeiDay(filters.from) : null;
  const to = filters.to ? taipeiDay(filters.to) : null;
  if (filters.from && !from) errors.from = [t("console.audit.error.date")];
  if (filters.to && !to) errors.to = [t("console.audit.error.date")];
  const fromAt = from ? fromTaipeiWallClock(from) : null;
  const toAt = to ? fromTaipeiWallClock(addDays(to, 1)) : null;
  if (fromAt && toAt && toAt <= fromAt) errors.to = [t("console.audit.error.order")];
  if (filters.store && !stores.some((s) => s.id === filters.store)) errors.store = [t("console.members.error.store")];
  const search: MemberSearch = {
    q,
    tier: (TIERS as readonly string[]).includes(filters.tier) ? filters.tier : null,
    disabled: filters.status === "disabled" ? true : filters.status === "active" ? false : null,
    hasLine: filters.line === "yes" ? true : filters.line === "no" ? false : null,
    signedUpFrom: fromAt,
    signedUpTo: toAt,
    storeId: filters.store && !errors.store ? filters.store : null,
    after: url.searchParams.get("after"),
  };
  return { filters, errors, search, valid: Object.keys(errors).length === 0 };
}
