import type { Database } from "@platform/db/client";
import { isUniqueViolation } from "@platform/db/errors";
import { type ImportKind, importRow, importRun } from "@platform/db/schema";
import { type JobQueue, willRetry } from "@platform/jobs/queue";
import { and, asc, count, desc, eq, gt, inArray, or, sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit.server";
import { inTransaction } from "../loyalty/ledger.server";
import { Refusal } from "../refusals";
import { csvCell } from "../reports/csv";
import { applyRun, finishRun } from "./apply.server";
import type { ImportProblem, ImportProblemCode } from "./record";
import {
  auditContextOf,
  type ImportRun,
  loadRun,
  optionsOf,
  type RunActor,
  type RunView,
  requireStatus,
  type StoredOptions,
  viewOf,
} from "./run-store.server";

/**
 * Moving members in (issue 35, ADR 038): the import engine's one entry point for the console and the command
 * line. stage → (setCsvMapping) → checkRun (dry run) → startRun (queued + job) → applyRun (the job) → done.
 * Parts: stage.server.ts, check.server.ts, match.server.ts, apply.server.ts, run-store.server.ts.
 */

export type { ImportPlan } from "@platform/db/schema";
export { type ApplyOptions, applyRun } from "./apply.server";
export { checkRun, type PreviewRow, previewRun } from "./check.server";
export type {
  ImportOptions,
  ImportReport,
  ImportRun,
  NamedStream,
  PasswordCheck,
  RunActor,
  RunProgress,
  RunView,
} from "./run-store.server";
export { setCsvMapping, setRunOptions, stageCsv, stageFirebase } from "./stage.server";

export const IMPORT_QUEUE = "member-import";
/** A run whose heartbeat is older than this while queued or running was stopped (killed): it may be started again. */
export const STALE_AFTER_MS = 5 * 60 * 1000;

/** Queued or running, but no batch for STALE_AFTER_MS: the worker is gone. */
function isStale(run: ImportRun, now = Date.now()): boolean {
  return (
    (run.status === "running" || run.status === "queued") &&
    (run.heartbeatAt ?? run.createdAt).getTime() < now - STALE_AFTER_MS
  );
}

/**
 * Queues a checked run and sends its job (with `jobs` null, the caller — the command line — runs applyRun
 * itself). Another run of the same kind queued or running → Refusal import_busy (the unique index decides, so
 * two starts at the same instant cannot both pass). A run left running by a killed process is started again.
 */
export async function startRun(db: Database, jobs: JobQueue | null, runId: string, actor: RunActor): Promise<void> {
  const run = await loadRun(db, runId);
  const stale = isStale(run);
  if (!stale) {
    requireStatus(run, ["checked"]);
    const options: StoredOptions = { ...optionsOf(run), actor: auditContextOf(actor) };
    let queued: { id: string }[];
    try {
      queued = await db
        .update(importRun)
        .set({ status: "queued", options, heartbeatAt: new Date() })
        .where(and(eq(importRun.id, runId), eq(importRun.status, "checked")))
        .returning({ id: importRun.id });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Refusal("imports", "import_busy");
      throw error;
    }
    if (queued.length === 0) throw new Refusal("imports", "import_wrong_state", { params: { status: run.status } });
  }
  if (!jobs) return;
  try {
    await jobs.send(IMPORT_QUEUE, { runId });
  } catch (error) {
    if (!stale) {
      await db
        .update(importRun)
        .set({ status: "checked" })
        .where(and(eq(importRun.id, runId), eq(importRun.status, "queued")));
    }
    throw error;
  }
}

/** A run no worker has started yet: cancelling it ends it at once. */
const NOT_STARTED = ["staged", "checked", "awaiting_approval", "queued"] as const;

/**
 * Cancels a run. One not started yet (staged, checked, queued: its job has not picked it up) ends at once with
 * its audit entry `import.cancelled`, in one transaction, by whoever cancelled it. One being applied stops after
 * its current batch (what was applied stays, nothing is half applied) and ends with `import.completed`.
 */
export async function cancelRun(db: Database, runId: string, actor: RunActor, now = new Date()): Promise<void> {
  const run = await loadRun(db, runId);
  const notStarted = (NOT_STARTED as readonly string[]).includes(run.status);
  if (notStarted && (await cancelNotStarted(db, runId, actor, now))) return;
  // Running, or its job took it up a moment ago (queued → running): the worker reads the flag between batches.
  const current = notStarted ? await loadRun(db, runId) : run;
  if (current.status === "queued" || current.status === "running") {
    await db
      .update(importRun)
      .set({ cancelRequestedAt: now })
      .where(and(eq(importRun.id, runId), inArray(importRun.status, ["queued", "running"])));
    // No worker is on it (its process was killed, or the command line never applied it): end it now, so the
    // next import of its kind is not refused as busy. A worker that comes back finds it finished.
    if (isStale(current)) await finishRun(db, runId, "cancelled", now);
    return;
  }
  requireStatus(current, ["queued", "running"]);
}

/** Ends a run that has not started, with its audit row, in one transaction; false when it has moved on meanwhile. */
async function cancelNotStarted(db: Database, runId: string, actor: RunActor, now: Date): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select().from(importRun).where(eq(importRun.id, runId)).for("update");
    if (!before || !(NOT_STARTED as readonly string[]).includes(before.status)) return false;
    const [run] = await tx
      .update(importRun)
      .set({ status: "cancelled", cancelRequestedAt: now, finishedAt: now, heartbeatAt: now })
      .where(eq(importRun.id, runId))
      .returning();
    if (!run) return false;
    await recordAudit(
      tx,
      {
        context: auditContextOf(actor),
        action: "import.cancelled",
        targetType: "import_run",
        targetId: run.id,
        before: { status: before.status },
        after: {
          kind: run.kind,
          source: run.source,
          status: run.status,
          fileSha256: run.fileSha256,
          rowsTotal: run.rowsTotal,
        },
      },
      now,
    );
    return true;
  });
}

export async function getRun(db: Database, runId: string): Promise<RunView> {
  return viewOf(await loadRun(db, runId));
}

export const RUNS_PAGE_SIZE = 20;

/** Newest first, with progress. */
export async function listRuns(
  db: Database,
  input: { kind?: ImportKind | ImportKind[]; page: number },
): Promise<{ runs: RunView[]; total: number; page: number; pageSize: number }> {
  const kinds = input.kind === undefined ? null : Array.isArray(input.kind) ? input.kind : [input.kind];
  const where = kinds ? inArray(importRun.kind, kinds) : undefined;
  const page = Math.max(1, Math.floor(input.page) || 1);
  const [total] = await db.select({ n: count() }).from(importRun).where(where);
  const rows = await db
    .select()
    .from(importRun)
    .where(where)
    .orderBy(desc(importRun.createdAt), desc(importRun.id))
    .limit(RUNS_PAGE_SIZE)
    .offset((page - 1) * RUNS_PAGE_SIZE);
  const now = new Date();
  return { runs: rows.map((r) => viewOf(r, now)), total: total?.n ?? 0, page, pageSize: RUNS_PAGE_SIZE };
}

/**
 * The rejected rows as CSV lines (header first, each line ending CRLF): the original cells (CSV: the file's
 * columns; Firebase: the document as JSON), then the problem codes and their words. Every cell goes through
 * csvCell, so a formula in the old data is neutralised. Streamed in pages; `describe` words a code (the
 * console passes its translation; default: the code).
 */
export async function* rejectedRows(
  db: Database,
  runId: string,
  describe: (code: ImportProblemCode) => string = (code) => code,
): AsyncIterable<string> {
  const run = await loadRun(db, runId);
  const headers = run.kind === "firebase" ? ["documentId", "document"] : (optionsOf(run).headers ?? []);
  const line = (cells: (string | number | null)[]) => `${cells.map((c) => csvCell(c)).join(",")}\r\n`;
  yield `\uFEFF${line(["line", ...headers, "problem", "problem_text"])}`;
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        line: importRow.line,
        externalId: importRow.externalId,
        raw: importRow.raw,
        problems: importRow.problems,
      })
      .from(importRow)
      .where(
        and(
          eq(importRow.runId, run.id),
          gt(importRow.line, after),
          or(eq(importRow.state, "rejected"), eq(importRow.plan, "reject")),
        ),
      )
      .orderBy(asc(importRow.line))
      .limit(1000);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]?.line ?? after;
    let chunk = "";
    for (const row of rows) {
      const problems = ((row.problems ?? []) as ImportProblem[]).filter((p) => p.severity === "reject");
      const cells =
        run.kind === "firebase"
          ? [row.externalId, JSON.stringify(row.raw)]
          : headers.map((h) => {
              const value = (row.raw as Record<string, unknown> | null)?.[h];
              return typeof value === "string" ? value : value === undefined || value === null ? null : String(value);
            });
      chunk += line([
        row.line,
        ...cells,
        problems.map((p) => p.code).join(" "),
        problems.map((p) => describe(p.code)).join("; "),
      ]);
    }
    yield chunk;
  }
}

/** The `member-import` job: applies one run; a last failed attempt marks the run failed (with its audit entry). */
export async function registerImportJobs(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(IMPORT_QUEUE, { retryLimit: 10, retryDelay: 10, retryDelayMax: 120, expireInSeconds: 2 * 60 * 60 });
  await jobs.work<{ runId: string }>(IMPORT_QUEUE, async (job) => {
    try {
      const run = await applyRun(db, job.data.runId, { signal: job.signal });
      return { status: run.status, rowsDone: run.rowsDone };
    } catch (error) {
      if (!willRetry(job, error) && !(error instanceof Refusal)) {
        await finishRun(
          db,
          job.data.runId,
          "failed",
          new Date(),
          error instanceof Error ? error.message : String(error),
        );
      }
      if (error instanceof Refusal) return { refused: error.code };
      throw error;
    }
  });
}

/** Rows total of the run's `rows` (for tests and the CLI's summary). */
export async function rowStates(db: Database, runId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ state: importRow.state, n: sql<number>`count(*)::int` })
    .from(importRow)
    .where(eq(importRow.runId, runId))
    .groupBy(importRow.state);
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

export type { ImportRun as ImportRunRow };
