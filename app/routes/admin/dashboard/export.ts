import { data } from "react-router";
import { isDashboardPanel, panelRows, toCsv } from "~/domain/reports/csv";
import { consoleResource } from "~/lib/console-resource.server";
import { getLocale } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import type { Route } from "./+types/export";
import { dashboardFor } from "./dashboard.server";

/**
 * One dashboard panel as CSV: the same filters, scope and refusals as the page (`reports.view`); a refusal is the
 * console's error page (console-resource.server.ts).
 */
const resource = consoleResource(async ({ request, context }: Route.LoaderArgs) => {
  const panel = new URL(request.url).searchParams.get("panel") ?? "";
  if (!isDashboardPanel(panel)) throw data(null, { status: 404 });
  const { status, body } = await dashboardFor(request, context);
  if (!body.dashboard) throw data({ error: body.error }, { status });
  const locale = getLocale(request);
  const names = new Map(body.stores.map((s) => [s.id, pick(s.name, locale)]));
  const rows = panelRows(body.dashboard, panel, (id) => names.get(id) ?? id);
  if (!rows) throw data(null, { status: 404 });
  const { from, to } = body.dashboard;
  const store = body.filters.store ? `-${body.filters.store}` : "";
  return new Response(toCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${panel}-${from}-${to}${store.replace(/[^A-Za-z0-9_-]/g, "")}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
});

export const middleware: Route.MiddlewareFunction[] = [resource.middleware];
export const loader = resource.loader;
export { ConsoleError as ErrorBoundary } from "~/components/console/console-error";
