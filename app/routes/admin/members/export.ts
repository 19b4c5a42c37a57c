import { data } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { auditedTx } from "~/domain/audit/audit.server";
import { MEMBER_CSV_COLUMNS, memberExportRows } from "~/domain/members/console-search.server";
import { requirePermission, requireRecentSecondFactor } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { consoleResource } from "~/lib/console-resource.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { taipeiIsoDate } from "~/lib/time";
import type { Route } from "./+types/export";
import { memberFilters } from "./filters.server";

/**
 * The member list as CSV (admins, `member.export`), with the same filters as the search page, the consent
 * flags, streamed in batches. The export itself is audited (who, when, which filters) before the first row.
 * Refusals are the console's error page (console-resource.server.ts). Exporting every member is as sensitive as
 * the settings (issue 33 item 8): without a recent second factor the address leads to the code page, which comes
 * back here; the members page asks for the code beside its export button instead (its action).
 */
const resource = consoleResource(async ({ request, context }: Route.LoaderArgs) => {
  const app = getApp(context);
  requirePermission(context, "member.export");
  const now = requestNow(request, app.config);
  const actor = requireRecentSecondFactor(context, now);
  const url = new URL(request.url);
  const stores = await storeChoicesFor(app.db, actor, getLocale(request));
  const { filters, search, valid } = memberFilters(url, serverT(request), stores);
  if (!valid) throw data(null, { status: 400 });
  await auditedTx(app.db, consoleAudit(context, request), now, async (_tx, record) => {
    await record("member.exported", ["member_export", null], {
      after: { filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) },
    });
  });
  const rows = memberExportRows(app.db, actor, { ...search, after: null });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // A byte-order mark, so spreadsheet programs read the Chinese names as UTF-8.
      controller.enqueue(encoder.encode(`\uFEFF${MEMBER_CSV_COLUMNS.join(",")}\r\n`));
    },
    async pull(controller) {
      const chunk: string[] = [];
      for (let i = 0; i < 500; i++) {
        const next = await rows.next();
        if (next.done) {
          if (chunk.length) controller.enqueue(encoder.encode(chunk.join("")));
          controller.close();
          return;
        }
        chunk.push(`${next.value}\r\n`);
      }
      controller.enqueue(encoder.encode(chunk.join("")));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="members-${taipeiIsoDate(now)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
});

export const middleware: Route.MiddlewareFunction[] = [resource.middleware];
export const loader = resource.loader;
export { ConsoleError as ErrorBoundary } from "~/components/console/console-error";
