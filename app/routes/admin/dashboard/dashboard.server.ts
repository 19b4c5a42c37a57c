import { data, type RouterContextProvider } from "react-router";
import { getApp } from "~/adapters/context.server";
import { type Dashboard, loadDashboard, storeExists } from "~/domain/reports/dashboard.server";
import { DASHBOARD_QUERY, type DashboardRangeError, dashboardQuery, scopeFor } from "~/domain/reports/filters";
import { requirePermission } from "~/domain/staff/guard.server";
import { storesFor } from "~/domain/staff/permissions";
import { storeChoices } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { parseListQuery } from "~/lib/list-query";
import { taipeiIsoDate } from "~/lib/time";

export type DashboardRequest = {
  filters: { from: string; to: string; store: string };
  error: DashboardRangeError | "unknown_store" | null;
  stores: { id: string; name: { "zh-TW": string; en: string } }[];
  allStores: boolean;
  dashboard: Dashboard | null;
};

/**
 * The dashboard of this request (the page and its CSV downloads): `reports.view`; a store in the URL that is not
 * the viewer's is refused with a 403 before any figure is read; a bad range is a 400 with the reason.
 */
export async function dashboardFor(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ status: number; body: DashboardRequest }> {
  const app = getApp(context);
  const actor = requirePermission(context, "reports.view");
  const viewer = { stores: storesFor(actor, "reports.view") };
  const now = requestNow(request, app.config);
  const today = taipeiIsoDate(now);
  const parsed = dashboardQuery(parseListQuery(new URL(request.url), DASHBOARD_QUERY), today);
  const store = parsed.ok ? parsed.query.store : parsed.raw.store;
  // Refused before anything else: another manager's store is neither shown nor confirmed to exist.
  const scope = scopeFor(viewer, store);
  if (!scope) throw data({ permission: "reports.view", storeId: null }, { status: 403, statusText: "Forbidden" });
  const stores = await storeChoices(app.db, viewer.stores);
  const base = {
    filters: parsed.ok
      ? { from: parsed.query.from, to: parsed.query.to, store: store ?? "" }
      : { from: parsed.raw.from, to: parsed.raw.to, store: store ?? "" },
    stores,
    allStores: viewer.stores === "all",
  };
  if (!parsed.ok) return { status: 400, body: { ...base, error: parsed.error, dashboard: null } };
  if (store !== null && viewer.stores === "all" && !(await storeExists(app.db, store))) {
    return { status: 404, body: { ...base, error: "unknown_store", dashboard: null } };
  }
  const dashboard = await loadDashboard(app.db, { from: parsed.query.from, to: parsed.query.to, today, scope, now });
  return { status: 200, body: { ...base, error: null, dashboard } };
}
