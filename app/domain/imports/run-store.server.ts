import type { Database } from "@platform/db/client";
import { type ImportPlan, type ImportStatus, importRun } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import type { AuditContext } from "../audit/audit.server";
import { Refusal } from "../refusals";
import type { TextEncodingName } from "./encoding";
import type { CsvMapping, FirebaseHashConfig } from "./record";
import type { ImportReport, PasswordCheck } from "./report";

/**
 * The run's own shapes and the few helpers every part of the import engine shares (issue 35, ADR 038): the
 * stored options, who started it, loading a run. The engine is split: stage (files → rows), check (the dry
 * run), apply (the worker), runs.server.ts (the facade the console and the command line use).
 */

export type ImportRun = typeof importRun.$inferSelect;
export type { ImportPlan, ImportReport, ImportStatus, PasswordCheck };

/** A file as it arrives: its name, its size when known (Content-Length, stat) and its bytes, streamed. */
export type NamedStream = { name: string; bytes: number | null; stream: AsyncIterable<Uint8Array> };

export type ImportOptions = { welcome: boolean; evaluateTiers: boolean };

export type RunActor = { kind: "staff"; userId: string; context: AuditContext } | { kind: "cli" };

/** What `import_run.options` holds (jsonb). The sample password is kept only until the check has used it. */
export type StoredOptions = ImportOptions & {
  mapping?: CsvMapping;
  /** A CSV's encoding as read: detected (BOM, guess) or the one the admin chose; with or without a BOM. */
  encoding?: TextEncodingName;
  bom?: boolean;
  encodingDetected?: boolean;
  headers?: string[];
  hashConfig?: FirebaseHashConfig | null;
  samplePassword?: { identifier: string; password: string } | null;
  /** Who staged the run, then who started it: the actor of the run's audit entry. */
  actor?: AuditContext;
};

export type RunProgress = { rowsTotal: number; rowsDone: number; rejected: number; etaSeconds: number | null };

/** A run as the console and the command line see it: no secrets (hash key, sample password), with progress. */
export type RunView = Omit<ImportRun, "options"> & {
  options: Omit<StoredOptions, "hashConfig" | "samplePassword" | "actor">;
  hasHashConfig: boolean;
  progress: RunProgress;
};

export const CLI_AUDIT_CONTEXT: AuditContext = {
  actorType: "system",
  label: "cli",
  ip: null,
  userAgent: null,
  requestId: null,
};

export function auditContextOf(actor: RunActor): AuditContext {
  return actor.kind === "staff" ? actor.context : CLI_AUDIT_CONTEXT;
}

export function actorUserId(actor: RunActor): string | null {
  return actor.kind === "staff" ? actor.userId : null;
}

export function optionsOf(run: Pick<ImportRun, "options">): StoredOptions {
  const stored = (run.options ?? {}) as Partial<StoredOptions>;
  return { ...stored, welcome: stored.welcome === true, evaluateTiers: stored.evaluateTiers === true };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The run, or Refusal import_not_found. */
export async function loadRun(db: Database, runId: string): Promise<ImportRun> {
  if (!UUID.test(runId)) throw new Refusal("imports", "import_not_found");
  const [run] = await db.select().from(importRun).where(eq(importRun.id, runId));
  if (!run) throw new Refusal("imports", "import_not_found");
  return run;
}

export function requireStatus(run: ImportRun, statuses: readonly ImportStatus[]): void {
  if (!statuses.includes(run.status)) {
    throw new Refusal("imports", "import_wrong_state", { params: { status: run.status } });
  }
}

export const FINISHED: readonly ImportStatus[] = ["done", "cancelled", "failed", "rejected"];

export function progressOf(run: ImportRun, now = new Date()): RunProgress {
  let etaSeconds: number | null = null;
  if ((run.status === "running" || run.status === "queued") && run.startedAt && run.rowsDone > 0) {
    const elapsed = (now.getTime() - run.startedAt.getTime()) / 1000;
    const left = Math.max(0, run.rowsTotal - run.rowsDone);
    etaSeconds = Math.max(0, Math.round((elapsed / run.rowsDone) * left));
  }
  return { rowsTotal: run.rowsTotal, rowsDone: run.rowsDone, rejected: run.rejected, etaSeconds };
}

export function viewOf(run: ImportRun, now = new Date()): RunView {
  const { hashConfig, samplePassword: _sample, actor: _actor, ...options } = optionsOf(run);
  return { ...run, options, hasHashConfig: Boolean(hashConfig), progress: progressOf(run, now) };
}
