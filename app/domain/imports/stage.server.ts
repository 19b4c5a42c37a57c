import { createHash, type Hash } from "node:crypto";
import type { Database } from "@platform/db/client";
import { importRun } from "@platform/db/schema";
import { eq, sql } from "drizzle-orm";
import { Refusal } from "../refusals";
import { ImportFileError } from "./errors";
import { csvRows } from "./read-csv";
import { firebaseMembers, firebaseUsers } from "./read-firebase";
import type { CsvMapping, FirebaseHashConfig } from "./record";
import {
  actorUserId,
  auditContextOf,
  type ImportOptions,
  type ImportRun,
  loadRun,
  type NamedStream,
  optionsOf,
  type RunActor,
  requireStatus,
  type StoredOptions,
} from "./run-store.server";

/**
 * Stage: a file is streamed once into `import_row` (Firebase auth users into `import_auth_user`) in multi-row
 * inserts, counted and hashed (SHA-256) on the way; nothing of it is held whole in memory. A file that cannot
 * be read leaves nothing behind: the run is deleted and the caller gets Refusal("imports", "file_invalid").
 */

const STAGE_BATCH = 1000;

export type StageLimits = {
  /** Refuse (file_too_large) a file longer than this many bytes, counted while streaming. */
  maxBytes?: number;
};

type FileInfo = { role: string; name: string; bytes: number; sha256: string };

/** The stream, counted and hashed into `hashes` as it passes; over `maxBytes` it stops with file_too_large. */
async function* measured(
  file: NamedStream,
  hashes: Hash[],
  counter: { bytes: number },
  maxBytes: number | undefined,
): AsyncIterable<Uint8Array> {
  if (maxBytes !== undefined && file.bytes !== null && file.bytes > maxBytes) throw tooLarge(maxBytes);
  for await (const chunk of file.stream) {
    counter.bytes += chunk.byteLength;
    if (maxBytes !== undefined && counter.bytes > maxBytes) throw tooLarge(maxBytes);
    for (const hash of hashes) hash.update(chunk);
    yield chunk;
  }
}

function tooLarge(maxBytes: number): Refusal<"imports"> {
  return new Refusal("imports", "file_too_large", { params: { limit: `${Math.round(maxBytes / 1e6)} MB` } });
}

/** A reader's file error as the console's refusal (nothing was kept). */
function fileRefusal(error: unknown): unknown {
  if (error instanceof ImportFileError) {
    if (error.code === "too_large") return new Refusal("imports", "file_too_large", { params: { limit: "" } });
    return new Refusal("imports", "file_invalid", {
      params: { code: error.code, line: error.line === null || error.line === undefined ? "?" : String(error.line) },
      message: error.message,
    });
  }
  return error;
}

/** One statement, one parameter per batch (a JSON array): far cheaper than a parameter per cell. */
async function insertRows(
  db: Database,
  runId: string,
  rows: { line: number; external_id: string | null; raw: unknown }[],
): Promise<void> {
  await db.execute(sql`
    insert into import_row (run_id, line, external_id, raw)
    select ${runId}::uuid, x.line, x.external_id, coalesce(x.raw, 'null'::jsonb)
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(line int, external_id text, raw jsonb)`);
}

async function newRun(
  db: Database,
  input: { kind: "firebase" | "csv"; source: string; options: StoredOptions; actor: RunActor },
): Promise<ImportRun> {
  const [run] = await db
    .insert(importRun)
    .values({
      kind: input.kind,
      source: input.source,
      status: "staged",
      fileSha256: "",
      options: { ...input.options, actor: auditContextOf(input.actor) },
      createdBy: actorUserId(input.actor),
    })
    .returning();
  if (!run) throw new Error("import_run insert returned nothing");
  return run;
}

/**
 * Streams `items` into the table in multi-row inserts of STAGE_BATCH; returns how many. Each item gets its
 * record number (1 = the first record; a reader's `line` is the file's line, which a JSON array does not have).
 */
async function insertBatched<T>(
  items: AsyncIterable<T>,
  write: (batch: (T & { n: number })[]) => Promise<void>,
): Promise<number> {
  let batch: (T & { n: number })[] = [];
  let count = 0;
  for await (const item of items) {
    count += 1;
    batch.push({ ...item, n: count });
    if (batch.length >= STAGE_BATCH) {
      await write(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await write(batch);
  return count;
}

/**
 * Stages the original system's export: memberList (required) and users.json (auth users, optional), with the
 * hash parameters when given. The run's SHA-256 covers the members file then the users file.
 */
export async function stageFirebase(
  db: Database,
  input: {
    source?: string;
    users?: NamedStream;
    members: NamedStream;
    hashConfig?: FirebaseHashConfig;
    samplePassword?: { identifier: string; password: string };
    options: ImportOptions;
    actor: RunActor;
  } & StageLimits,
): Promise<ImportRun> {
  const source = input.source?.trim() || "firebase";
  const run = await newRun(db, {
    kind: "firebase",
    source,
    actor: input.actor,
    options: {
      welcome: input.options.welcome,
      evaluateTiers: input.options.evaluateTiers,
      hashConfig: input.hashConfig ?? null,
      samplePassword: input.samplePassword ?? null,
    },
  });
  try {
    const together = createHash("sha256");
    const files: FileInfo[] = [];
    const membersHash = createHash("sha256");
    const membersCount = { bytes: 0 };
    const rowsTotal = await insertBatched(
      firebaseMembers(measured(input.members, [together, membersHash], membersCount, input.maxBytes)),
      async (batch) => {
        await insertRows(
          db,
          run.id,
          batch.map((d) => ({ line: d.n, external_id: d.documentId, raw: d.raw ?? null })),
        );
      },
    );
    files.push({
      role: "members",
      name: input.members.name,
      bytes: membersCount.bytes,
      sha256: membersHash.digest("hex"),
    });
    if (input.users) {
      const usersHash = createHash("sha256");
      const usersCount = { bytes: 0 };
      await insertBatched(
        firebaseUsers(measured(input.users, [together, usersHash], usersCount, input.maxBytes)),
        async (batch) => {
          await db.execute(sql`
            insert into import_auth_user (run_id, local_id, raw)
            select ${run.id}::uuid, x.local_id, coalesce(x.raw, 'null'::jsonb)
            from jsonb_to_recordset(${JSON.stringify(batch.map((u) => ({ local_id: u.localId, raw: u.raw ?? null })))}::jsonb)
              as x(local_id text, raw jsonb)
            on conflict do nothing`);
        },
      );
      files.push({ role: "users", name: input.users.name, bytes: usersCount.bytes, sha256: usersHash.digest("hex") });
    }
    if (input.hashConfig) files.push({ role: "hashConfig", name: "hash.json", bytes: 0, sha256: "" });
    const [staged] = await db
      .update(importRun)
      .set({ rowsTotal, files, fileSha256: together.digest("hex") })
      .where(eq(importRun.id, run.id))
      .returning();
    if (!staged) throw new Error("import_run vanished while staging");
    return staged;
  } catch (error) {
    await db.delete(importRun).where(eq(importRun.id, run.id));
    throw fileRefusal(error);
  }
}

/** Stages another CRM's CSV (UTF-8 with or without BOM, Big5, UTF-16 with BOM); the mapping comes next (setCsvMapping). */
export async function stageCsv(
  db: Database,
  input: { source: string; file: NamedStream; encoding?: "utf-8" | "big5"; actor: RunActor } & StageLimits,
): Promise<ImportRun & { headers: string[] }> {
  const source = input.source.trim() || "csv";
  const run = await newRun(db, {
    kind: "csv",
    source,
    actor: input.actor,
    options: { welcome: false, evaluateTiers: false },
  });
  try {
    const hash = createHash("sha256");
    const counter = { bytes: 0 };
    const parsed = await csvRows(
      measured(input.file, [hash], counter, input.maxBytes),
      input.encoding ? { encoding: input.encoding } : undefined,
    );
    const rowsTotal = await insertBatched(parsed.rows, async (batch) => {
      await insertRows(
        db,
        run.id,
        batch.map((r) => ({ line: r.n, external_id: null, raw: r.cells })),
      );
    });
    const sha256 = hash.digest("hex");
    const options: StoredOptions = {
      ...optionsOf(run),
      encoding: parsed.encoding,
      bom: parsed.bom,
      encodingDetected: parsed.detected,
      headers: parsed.headers,
    };
    const [staged] = await db
      .update(importRun)
      .set({
        rowsTotal,
        fileSha256: sha256,
        files: [{ role: "data", name: input.file.name, bytes: counter.bytes, sha256 }],
        options,
      })
      .where(eq(importRun.id, run.id))
      .returning();
    if (!staged) throw new Error("import_run vanished while staging");
    return { ...staged, headers: parsed.headers };
  } catch (error) {
    await db.delete(importRun).where(eq(importRun.id, run.id));
    throw fileRefusal(error);
  }
}

/** The admin's column mapping and choices; a checked run goes back to staged (its dry run is out of date). */
export async function setCsvMapping(
  db: Database,
  runId: string,
  mapping: CsvMapping,
  options: ImportOptions,
): Promise<void> {
  const run = await loadRun(db, runId);
  if (run.kind !== "csv") throw new Refusal("imports", "import_wrong_state", { params: { status: run.status } });
  requireStatus(run, ["staged", "checked"]);
  const next: StoredOptions = {
    ...optionsOf(run),
    mapping,
    welcome: options.welcome,
    evaluateTiers: options.evaluateTiers,
  };
  await db.update(importRun).set({ options: next, status: "staged", report: null }).where(eq(importRun.id, runId));
}

/** The welcome / evaluate-tiers choices of a run not started yet (any kind); the dry run stays valid. */
export async function setRunOptions(db: Database, runId: string, options: ImportOptions): Promise<void> {
  const run = await loadRun(db, runId);
  requireStatus(run, ["staged", "checked"]);
  const next: StoredOptions = { ...optionsOf(run), welcome: options.welcome, evaluateTiers: options.evaluateTiers };
  await db.update(importRun).set({ options: next }).where(eq(importRun.id, runId));
}
