import { TIER_ORDER as TIERS } from "~/domain/loyalty/tier-names";
import type { MemberSearch } from "~/domain/members/console-search.server";
import { MEMBER_SEARCH_MAX } from "~/domain/members/console-search.server";
import type { serverT } from "~/lib/i18n.server";
import { listField, listHref, parseListQuery } from "~/lib/list-query";
import { addDays, fromTaipeiWallClock } from "~/lib/time";

/** The member list's filters as the URL carries them (the search page and the CSV export read the same). */
export const MEMBER_LIST_QUERY = {
  q: listField.text(MEMBER_SEARCH_MAX, { refuse: true }),
  tier: listField.choice(TIERS, null),
  status: listField.choice(["active", "disabled"], null),
  line: listField.choice(["yes", "no"], null),
  from: listField.date(),
  to: listField.date(),
  store: listField.text(100),
  after: listField.cursor(),
};

/**
 * `stores` are the stores the staff member may filter by (a manager's own, every store for an admin): any other
 * store in the URL is refused beside the field.
 */
export function memberFilters(url: URL, t: ReturnType<typeof serverT>, stores: readonly { id: string }[]) {
  const query = parseListQuery(url, MEMBER_LIST_QUERY);
  const { values, raw, issues } = query;
  const { after: _after, ...filters } = raw;
  const errors: Record<string, string[]> = {};
  if (issues.q) errors.q = [t("console.members.error.tooLong", { max: MEMBER_SEARCH_MAX })];
  if (issues.from) errors.from = [t("console.audit.error.date")];
  if (issues.to) errors.to = [t("console.audit.error.date")];
  const fromAt = values.from ? fromTaipeiWallClock(values.from) : null;
  const toAt = values.to ? fromTaipeiWallClock(addDays(values.to, 1)) : null;
  if (fromAt && toAt && toAt <= fromAt) errors.to = [t("console.audit.error.order")];
  if (filters.store && !stores.some((s) => s.id === filters.store)) errors.store = [t("console.members.error.store")];
  const search: MemberSearch = {
    q: values.q,
    tier: values.tier,
    disabled: values.status === "disabled" ? true : values.status === "active" ? false : null,
    hasLine: values.line === "yes" ? true : values.line === "no" ? false : null,
    signedUpFrom: fromAt,
    signedUpTo: toAt,
    storeId: filters.store && !errors.store ? filters.store : null,
    after: values.after,
  };
  /** This list (or its CSV) with the same filters, from `after` on. */
  const href = (path: string, after: string | null) => listHref(path, MEMBER_LIST_QUERY, query, { after });
  return { filters, errors, search, href, valid: Object.keys(errors).length === 0 };
}
