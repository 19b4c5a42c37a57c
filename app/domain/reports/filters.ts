/**
 * The dashboard's filters (ADR 025): a Taipei date range and a store, from the URL. Pure (no database), shared by
 * the page, the CSV downloads and the tests.
 */

import { type ListQuery, listField, parseListQuery } from "~/lib/list-query";
import { parseIsoDate } from "~/lib/time";

/** The longest range a dashboard shows: three years (summary rows per day × store stay cheap to sum). */
export const MAX_RANGE_DAYS = 1_096;
export const DEFAULT_RANGE_DAYS = 30;

export type DashboardRangeError = "invalid_from" | "invalid_to" | "reversed" | "too_long";

export type DashboardQuery = { from: string; to: string; store: string | null };

export type ParsedDashboardQuery =
  | { ok: true; query: DashboardQuery }
  | { ok: false; error: DashboardRangeError; raw: { from: string; to: string; store: string | null } };

/** Whether the string is a real calendar date written YYYY-MM-DD (from 2000 on). */
export function isIsoDate(value: string): boolean {
  return parseIsoDate(value, 2000) !== null;
}

export function addIsoDays(iso: string, days: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** First day of the month of an ISO date. */
export function monthOf(iso: string): string {
  return `${iso.slice(0, 7)}-01`;
}

/** The dashboard's query (the page and its CSV downloads): a Taipei date range and a store, read by parseListQuery. */
export const DASHBOARD_QUERY = {
  from: listField.date(),
  to: listField.date(),
  store: listField.text(200),
};

/**
 * The range rule, over what the URL said (`parseListQuery(url, DASHBOARD_QUERY)`): `from`, `to` (default: the last
 * 30 Taipei days up to `today`) and `store` (absent or empty = every store); a day before 2000, a range that ends
 * before it starts or spans more than three years is refused with the reason.
 */
export function dashboardQuery(
  query: Pick<ListQuery<typeof DASHBOARD_QUERY>, "raw">,
  today: string,
): ParsedDashboardQuery {
  const { from: rawFrom, to: rawTo } = query.raw;
  const store = query.raw.store === "" ? null : query.raw.store;
  const to = rawTo === "" ? today : rawTo;
  if (!isIsoDate(to)) return { ok: false, error: "invalid_to", raw: { from: rawFrom, to: rawTo, store } };
  const from = rawFrom === "" ? addIsoDays(to, -(DEFAULT_RANGE_DAYS - 1)) : rawFrom;
  const raw = { from: rawFrom || from, to: rawTo || to, store };
  if (!isIsoDate(from)) return { ok: false, error: "invalid_from", raw };
  if (to < from) return { ok: false, error: "reversed", raw };
  if (daysInRange(from, to) > MAX_RANGE_DAYS) return { ok: false, error: "too_long", raw };
  return { ok: true, query: { from, to, store } };
}

/** The same from a query string (the tests'). */
export function parseDashboardQuery(params: URLSearchParams, today: string): ParsedDashboardQuery {
  return dashboardQuery(parseListQuery(new URL(`http://dashboard/?${params}`), DASHBOARD_QUERY), today);
}

/**
 * The stores whose figures the viewer may see for this query: `"all"` (an admin without a store filter), the one
 * store asked for, or the manager's own stores. `null` when the store asked for is not theirs (refused, 403).
 */
export function scopeFor(
  viewer: { stores: readonly string[] | "all" },
  store: string | null,
): { kind: "all" } | { kind: "stores"; storeIds: string[] } | null {
  if (viewer.stores === "all") return store === null ? { kind: "all" } : { kind: "stores", storeIds: [store] };
  if (store === null) return { kind: "stores", storeIds: [...viewer.stores] };
  return viewer.stores.includes(store) ? { kind: "stores", storeIds: [store] } : null;
}

/** Cohort retention: share (0–1) of a cohort, or null when the cohort is empty. */
export function share(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

/**
 * Redemption rate: points redeemed per point issued in the range. Cancelled coupons are their own figure
 * (ADR 025): a cancellation in the range may return points of a coupon redeemed before it, so subtracting
 * it here would push the rate (and the redeemed figure) below what was redeemed in the range.
 */
export function redemptionRate(issued: number, redeemed: number): number | null {
  return issued > 0 ? redeemed / issued : null;
}

/** NT$ value of points at `pointValueCents` hundredths of NT$ per point (rounded to whole NT$). */
export function liabilityNtd(points: number, pointValueCents: number): number {
  return Math.round((points * pointValueCents) / 100);
}

/** Months (first days) from the month of `from` to the month of `to`. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split("-").map(Number) as [number, number];
  const end = monthOf(to);
  for (;;) {
    const cur = `${y}-${String(m).padStart(2, "0")}-01`;
    if (cur > end) break;
    out.push(cur);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}
