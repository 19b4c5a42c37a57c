import { getApp } from "~/adapters/context.server";
import { IMPORT_PROBLEM_CODES } from "~/domain/imports/record";
import { rejectedRows } from "~/domain/imports/runs.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { consoleResource } from "~/lib/console-resource.server";
import { csvDownload } from "~/lib/csv-download.server";
import { serverT } from "~/lib/i18n.server";
import type { Route } from "./+types/rejected";
import { pageRun } from "./imports.server";

/**
 * The rejected rows of an import as CSV (admins, `member.import`): the original cells plus the problem codes and
 * words, every cell neutralised (the engine's `rejectedRows`), streamed. Refusals are the console's error page.
 */
const resource = consoleResource(async ({ request, params, context }: Route.LoaderArgs) => {
  requirePermission(context, "member.import");
  const db = getApp(context).db;
  const run = await pageRun(db, params.runId);
  const t = serverT(request);
  const words = (code: (typeof IMPORT_PROBLEM_CODES)[number]) =>
    IMPORT_PROBLEM_CODES.includes(code) ? t(`console.import.problem.${code}`) : code;
  // The lines come with their byte-order mark (spreadsheet programs read the Chinese cells as UTF-8).
  return csvDownload(rejectedRows(db, run.id, words), `import-${run.source}-${run.id.slice(0, 8)}-rejected.csv`);
});

export const middleware: Route.MiddlewareFunction[] = [resource.middleware];
export const loader = resource.loader;
export { ConsoleError as ErrorBoundary } from "~/components/console/console-error";
