import { data, type RouterContextProvider } from "react-router";
import { getApp } from "~/adapters/context.server";
import { maskName } from "~/domain/loyalty/member-lookup.server";
import {
  type ClerkSalesRow,
  clerkReportStores,
  clerkSales,
  consultantMembers,
  mayReadConsultantList,
} from "~/domain/reports/clerks.server";
import { DASHBOARD_QUERY, type DashboardRangeError, dashboardQuery } from "~/domain/reports/filters";
import { consultantChoices } from "~/domain/staff/clerk.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { staffProfile } from "~/domain/staff/sessions.server";
import { storeChoices } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { taipeiIsoDate } from "~/lib/time";

/** The reports page's query: the dashboard's range and store, and whose consultant list (a staff user id). */
export const CLERK_REPORT_QUERY = { ...DASHBOARD_QUERY, consultant: listField.text(100) };

export type ClerkReport = {
  filters: { from: string; to: string; store: string; consultant: string };
  error: DashboardRangeError | "unknown_store" | null;
  stores: { id: string; name: { "zh-TW": string; en: string } }[];
  sales: ClerkSalesRow[] | null;
  consultants: { userId: string; displayName: string }[];
  consultant: { userId: string; displayName: string } | null;
  members: { memberId: string; memberNumber: string; name: string; lastVisitAt: string | null }[];
};

/**
 * The clerks' report of this request (ADR 042): `reports.clerks`; the viewer's stores only (a store in the URL that
 * is not theirs is refused, 403); a bad range is a 400 with the reason beside the field; the consultant list is the
 * viewer's own unless they may read another's (mayReadConsultantList; otherwise 403).
 */
export async function clerkReportFor(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ status: number; body: ClerkReport }> {
  const app = getApp(context);
  const actor = requirePermission(context, "reports.clerks");
  const now = requestNow(request, app.config);
  const query = parseListQuery(new URL(request.url), CLERK_REPORT_QUERY);
  const parsed = dashboardQuery(query, taipeiIsoDate(now));
  const allowed = await clerkReportStores(app.db, actor);
  const store = parsed.ok ? parsed.query.store : parsed.raw.store;
  if (store !== null && !allowed.includes(store)) {
    if (actor.role !== "admin") {
      throw data({ permission: "reports.clerks", storeId: store }, { status: 403, statusText: "Forbidden" });
    }
  }
  const consultantId = query.raw.consultant || actor.userId;
  const consultantProfile = consultantId === actor.userId ? null : await staffProfile(app.db, consultantId);
  const wanted = consultantProfile ?? { userId: actor.userId, storeIds: actor.storeIds };
  if (consultantId !== actor.userId && (!consultantProfile || !mayReadConsultantList(actor, consultantProfile))) {
    throw data({ permission: "reports.view", storeId: null }, { status: 403, statusText: "Forbidden" });
  }
  const [stores, consultants, members] = await Promise.all([
    storeChoices(app.db, allowed),
    hasPermission(actor, "reports.view")
      ? consultantChoices(app.db, actor, null)
      : Promise.resolve([{ userId: actor.userId, displayName: actor.displayName }]),
    consultantMembers(app.db, wanted.userId),
  ]);
  const base = {
    filters: {
      from: parsed.ok ? parsed.query.from : parsed.raw.from,
      to: parsed.ok ? parsed.query.to : parsed.raw.to,
      store: store ?? "",
      consultant: consultantId,
    },
    stores,
    consultants,
    consultant: {
      userId: wanted.userId,
      displayName: consultantProfile?.displayName ?? actor.displayName,
    },
    members: members.map((m) => ({
      memberId: m.memberId,
      memberNumber: m.memberNumber,
      name: maskName(m.nameZh),
      lastVisitAt: m.lastVisitAt?.toISOString() ?? null,
    })),
  };
  if (!parsed.ok) return { status: 400, body: { ...base, error: parsed.error, sales: null } };
  if (store !== null && !allowed.includes(store)) {
    return { status: 404, body: { ...base, error: "unknown_store", sales: null } };
  }
  const sales = await clerkSales(app.db, store === null ? allowed : [store], parsed.query);
  return { status: 200, body: { ...base, error: null, sales } };
}
