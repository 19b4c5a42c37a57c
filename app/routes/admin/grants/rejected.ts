import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import {
  GRANT_PROBLEM_CODES,
  type GrantProblemCode,
  getGrantRun,
  grantRejectedCsv,
} from "~/domain/imports/grants.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { consoleResource } from "~/lib/console-resource.server";
import { csvDownload } from "~/lib/csv-download.server";
import { notFound, parseParam } from "~/lib/http.server";
import { serverT } from "~/lib/i18n.server";
import type { Route } from "./+types/rejected";

/**
 * All the refused rows of a bulk grant as CSV (`points.bulk`; the page lists the first 200): the cells as read
 * plus the problem codes and words, every cell neutralised as in the imports' rejected.csv, streamed. The id is
 * checked (a UUID) before anything is read; refusals are the console's error page.
 */
const resource = consoleResource(async ({ request, params, context }: Route.LoaderArgs) => {
  requirePermission(context, "points.bulk");
  const runId = parseParam(z.uuid(), params.runId, request);
  const db = getApp(context).db;
  const run = await getGrantRun(db, runId);
  if (!run) notFound(request);
  const t = serverT(request);
  const words = (code: GrantProblemCode) =>
    GRANT_PROBLEM_CODES.includes(code) ? t(`console.grants.problem.${code}`) : code;
  return csvDownload(grantRejectedCsv(db, run.id, words), `grant-${run.id.slice(0, 8)}-rejected.csv`);
});

export const middleware: Route.MiddlewareFunction[] = [resource.middleware];
export const loader = resource.loader;
export { ConsoleError as ErrorBoundary } from "~/components/console/console-error";
