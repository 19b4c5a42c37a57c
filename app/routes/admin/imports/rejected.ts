import { getApp } from "~/adapters/context.server";
import { IMPORT_PROBLEM_CODES } from "~/domain/imports/record";
import { rejectedRows } from "~/domain/imports/runs.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { consoleResource } from "~/lib/console-resource.server";
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
  const lines = rejectedRows(db, run.id, words)[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk: string[] = [];
      for (let i = 0; i < 500; i++) {
        const next = await lines.next();
        if (next.done) {
          if (chunk.length) controller.enqueue(encoder.encode(chunk.join("")));
          controller.close();
          return;
        }
        chunk.push(next.value.endsWith("\n") ? next.value : `${next.value}\r\n`);
      }
      controller.enqueue(encoder.encode(chunk.join("")));
    },
    async cancel() {
      await lines.return?.(undefined);
    },
  });
  const name = `import-${run.source}-${run.id.slice(0, 8)}-rejected.csv`;
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
});

export const middleware: Route.MiddlewareFunction[] = [resource.middleware];
export const loader = resource.loader;
export { ConsoleError as ErrorBoundary } from "~/components/console/console-error";
