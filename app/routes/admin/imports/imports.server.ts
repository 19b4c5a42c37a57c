import type { Database } from "@platform/db/client";
import { importRow } from "@platform/db/schema/imports";
import { and, asc, count, eq, isNotNull, or, sql } from "drizzle-orm";
import { data, type RouterContextProvider } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import {
  type PreviewRow,
  type ProblemRow,
  type ReportView,
  RUN_ENCODINGS,
  type RunEncoding,
  type RunView,
} from "~/components/console/imports/types";
import { guessMapping } from "~/domain/imports/csv-mapping";
import { parseHashConfig } from "~/domain/imports/read-firebase";
import type { CsvMapping, ImportProblem, ImportRecord } from "~/domain/imports/record";
import { PASSWORD_CHECKS, type PasswordCheck } from "~/domain/imports/report";
import { type RunView as EngineRunView, getRun, type RunActor } from "~/domain/imports/runs.server";
import { isRefusal, Refusal } from "~/domain/refusals";
import { requireStaff } from "~/domain/staff/guard.server";
import type { serverT } from "~/lib/i18n.server";

/**
 * What the import pages share on the server (issue 35; the upload itself: upload.server.ts): the engine's errors in
 * words beside the field, the run as the page shows it, and the rows with problems of a run.
 */

type T = ReturnType<typeof serverT>;

export const PROBLEM_PAGE_SIZE = 50;

/** Who starts or cancels a run, for its audit row. */
export function staffRunActor(context: Readonly<RouterContextProvider>, request: Request): RunActor {
  return { kind: "staff", userId: requireStaff(context).userId, context: consoleAudit(context, request) };
}

const FILE_CODES = ["not_json", "not_csv", "truncated", "empty", "too_large", "hash_config_invalid"] as const;
type FileCode = (typeof FILE_CODES)[number];

/**
 * A file the engine could not take (refusals `file_invalid` with the reader's code and line, `file_too_large`) in
 * words, for the field it belongs to; null for anything else (thrown on).
 */
export function fileFailure(
  error: unknown,
  t: T,
  field: string,
  command: string,
): { field: string; message: string; status: number } | null {
  if (!isRefusal(error, "imports")) return null;
  if (error.code === "file_too_large") {
    return { field, message: t("console.import.error.tooLarge", { command }), status: 413 };
  }
  if (error.code !== "file_invalid") return null;
  const code = error.params?.code as FileCode | undefined;
  const base = code && FILE_CODES.includes(code) ? t(`console.import.error.file.${code}`) : t(error.messageKey);
  const line = error.params?.line;
  return {
    field,
    message: line && line !== "?" ? t("console.import.error.atLine", { message: base, line }) : base,
    status: 400,
  };
}

/** A run as the pages show it (dates as ISO strings, the starter's name). */
export function runView(run: EngineRunView, names: Map<string, string>): RunView {
  const files = Array.isArray(run.files) ? (run.files as { role?: string; name?: string; bytes?: number }[]) : [];
  return {
    id: run.id,
    kind: run.kind,
    source: run.source,
    status: run.status,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    cancelRequested: run.cancelRequestedAt !== null,
    createdBy: run.createdBy,
    who: run.createdBy ? (names.get(run.createdBy) ?? null) : null,
    rowsTotal: run.progress.rowsTotal,
    rowsDone: run.progress.rowsDone,
    created: run.created,
    merged: run.merged,
    unchanged: run.unchanged,
    rejected: run.progress.rejected,
    pointsBooked: run.pointsBooked,
    etaSeconds: run.progress.etaSeconds,
    error: run.error,
    files: files.map((f) => ({ role: String(f.role ?? ""), name: String(f.name ?? ""), bytes: f.bytes ?? null })),
    encoding: runEncoding(run.options),
  };
}

/** The encoding a CSV was read in, as stored when it was staged (null when none was kept). */
function runEncoding(options: EngineRunView["options"]): RunView["encoding"] {
  const stored = options.encoding;
  if (!stored) return null;
  const name: RunEncoding = stored === "utf-8" && options.bom === true ? "utf-8-bom" : stored;
  if (!(RUN_ENCODINGS as readonly string[]).includes(name)) return null;
  // A run staged before this was kept does not say whether it was detected or chosen.
  return { name, detected: options.encodingDetected ?? null };
}

/** The run of the page (any kind but a bulk grant, which has its own pages), or the console's 404. */
export async function pageRun(db: Database, runId: string): Promise<EngineRunView> {
  try {
    const run = await getRun(db, runId);
    if (run.kind === "grant") throw new Refusal("imports", "import_not_found");
    return run;
  } catch (error) {
    if (isRefusal(error, "imports") && error.code === "import_not_found") throw data(null, { status: 404 });
    throw error;
  }
}

/** 0912345678 → 0912***678: enough to find the row in the file, not the whole number. */
export function maskImportPhone(e164: string | null): string | null {
  if (!e164) return null;
  const local = e164.startsWith("+886") ? `0${e164.slice(4)}` : e164;
  return local.length < 7 ? "***" : `${local.slice(0, 4)}***${local.slice(-3)}`;
}

/**
 * The rows of a run with problems (refused, or noted), 50 a page in file order: after the dry run, and after the
 * apply (then the refused ones). Read from `import_row`, as the check and the apply wrote it.
 */
export async function problemRows(
  db: Database,
  runId: string,
  page: number,
  only: "problems" | "rejected",
): Promise<{ rows: ProblemRow[]; total: number }> {
  const where =
    only === "rejected"
      ? and(eq(importRow.runId, runId), or(eq(importRow.state, "rejected"), eq(importRow.plan, "reject")))
      : and(
          eq(importRow.runId, runId),
          or(
            eq(importRow.plan, "reject"),
            and(isNotNull(importRow.problems), sql`jsonb_array_length(${importRow.problems}) > 0`),
          ),
        );
  const [totalRow] = await db.select({ n: count() }).from(importRow).where(where);
  const rows = await db
    .select({
      line: importRow.line,
      externalId: importRow.externalId,
      record: importRow.record,
      plan: importRow.plan,
      problems: importRow.problems,
    })
    .from(importRow)
    .where(where)
    .orderBy(asc(importRow.line))
    .limit(PROBLEM_PAGE_SIZE)
    .offset((page - 1) * PROBLEM_PAGE_SIZE);
  return {
    total: Number(totalRow?.n ?? 0),
    rows: rows.map((r) => ({
      line: r.line,
      externalId: r.externalId,
      phone: maskImportPhone((r.record as ImportRecord | null)?.phoneNumber ?? null),
      plan: r.plan,
      problems: Array.isArray(r.problems) ? (r.problems as ImportProblem[]) : [],
    })),
  };
}

/** The run's choices: the CSV headers and mapping, the welcome and tier options. */
export function runChoices(run: EngineRunView): {
  headers: string[];
  mapping: CsvMapping | null;
  welcome: boolean;
  evaluateTiers: boolean;
} {
  const o = run.options;
  return {
    headers: o.headers ?? [],
    mapping: o.mapping ?? null,
    welcome: o.welcome === true,
    evaluateTiers: o.evaluateTiers === true,
  };
}

const isPasswordCheck = (value: unknown): value is PasswordCheck =>
  (PASSWORD_CHECKS as readonly unknown[]).includes(value);

/** The dry run's report as stored on the run (null before the check). */
export function reportView(report: unknown): ReportView | null {
  if (!report || typeof report !== "object") return null;
  const r = report as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  const problems = r.problems && typeof r.problems === "object" ? (r.problems as Record<string, unknown>) : {};
  return {
    rows: num(r.rows),
    create: num(r.create),
    merge: num(r.merge),
    unchanged: num(r.unchanged),
    reject: num(r.reject),
    points: num(r.points),
    problems: Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, num(v)])),
    passwordCheck: isPasswordCheck(r.passwordCheck) ? r.passwordCheck : null,
  };
}

/** previewRun's rows as the preview table shows them (the phone masked). */
export function previewView(
  rows: readonly { line: number; record: ImportRecord | null; problems: ImportProblem[]; plan: string | null }[],
): PreviewRow[] {
  return rows.map(({ line, record, problems, plan }) => ({
    line,
    plan,
    externalId: record?.externalId ?? null,
    phone: maskImportPhone(record?.phoneNumber ?? null),
    name: record?.nameZh ?? null,
    email: record?.email ?? null,
    tier: record?.tier ?? null,
    points: record ? record.points : null,
    pointsLastDay: record?.pointsLastDay ?? null,
    problems,
  }));
}

/** The mapping a CSV starts with: the readers' guess from its headers (電話 → phoneNumber, 姓名 → nameZh, …). */
export function initialMapping(headers: readonly string[]): CsvMapping {
  return guessMapping([...headers]);
}

/** hash.json read (null: it is not a Firebase hash config). */
export function readHashConfig(text: string) {
  const config = parseHashConfig(text);
  return "error" in config ? null : config;
}
