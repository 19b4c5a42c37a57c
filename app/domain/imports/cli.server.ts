import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { finished } from "node:stream/promises";
import { type Database, type DatabaseHandle, openDatabase, rowsOf } from "@platform/db/client";
import { sql } from "drizzle-orm";
import { databaseConfigFromEnv } from "../operations/commands.server";
import { Refusal } from "../refusals";
import {
  type CsvCliArgs,
  type FirebaseCliArgs,
  formatMapping,
  type ParsedCliArgs,
  PROBLEM_WORDS,
  parseCsvArgs,
  parseFirebaseArgs,
  problemLines,
} from "./cli-args";
import { guessMapping } from "./read-csv";
import { parseHashConfig } from "./read-firebase";
import type { CsvMapping, FirebaseHashConfig } from "./record";
import { loadRun, optionsOf } from "./run-store.server";
import {
  applyRun,
  cancelRun,
  checkRun,
  getRun,
  type ImportReport,
  rejectedRows,
  setCsvMapping,
  setRunOptions,
  stageCsv,
  stageFirebase,
  startRun,
} from "./runs.server";

/**
 * `npm run import:firebase` and `npm run import:csv` (ADR 038; docs/operations.md "Moving from another system"): the
 * engine's stage → check → apply from the command line, for files too big for the console's upload. Files are
 * streamed from disk. Output: one line per phase, a progress line every few seconds while applying, the dry run's
 * report in words. Exit 0: the run finished (rejected rows, if any, are written to `<file>.rejected.csv` beside the
 * input); 2: refused (bad arguments, a file that cannot be read, another import running), in one line, never a
 * stack. Running the same command again after a killed run resumes it (same source and file SHA-256).
 */

type Env = Record<string, string | undefined>;
export type Out = { log: (line: string) => void; error: (line: string) => void };
const consoleOut: Out = { log: (l) => console.log(l), error: (l) => console.error(l) };

export type ImportCommandOptions = {
  /** Milliseconds between progress lines while applying (default 5,000). */
  progressEveryMs?: number;
  /** Stops the apply between batches (SIGINT): the run stays resumable. */
  signal?: AbortSignal;
  /** Tests: the "now" of the check and the apply. */
  now?: Date;
  /** Rows per batch (the engine's default when unset). */
  batchSize?: number;
};

/**
 * A run whose heartbeat (written after every batch) is younger than this is being applied by another process: not
 * resumed. A killed run is resumed once its heartbeat is this old.
 */
export const LIVE_MS = 30_000;

/** A refusal of the command: one line, exit 2. */
class CliRefused extends Error {}

const n = (value: number) => value.toLocaleString("en-US");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A file that must exist and be a readable file: its absolute path and size, or a refusal naming it. */
async function inputFile(option: string, file: string): Promise<{ path: string; bytes: number }> {
  const absolute = path.resolve(file);
  try {
    const info = await stat(absolute);
    if (!info.isFile()) throw new CliRefused(`--${option} ${file}: not a file`);
    return { path: absolute, bytes: info.size };
  } catch (error) {
    if (error instanceof CliRefused) throw error;
    const code = (error as { code?: string }).code;
    throw new CliRefused(
      `--${option} ${file}: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "cannot be read (permission)" : "cannot be read"}`,
    );
  }
}

/** SHA-256 of a file, streamed (the key, with the source, by which a killed run is found again). */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const named = (file: { path: string; bytes: number }) => ({
  name: path.basename(file.path),
  bytes: file.bytes,
  stream: createReadStream(file.path, { highWaterMark: 1 << 16 }) as AsyncIterable<Uint8Array>,
});

/**
 * The newest run of this source and file that has not finished, or null: one being applied (queued, running: a killed
 * one is resumed), or one the command line staged (staged, checked: a dry run, used again by the apply; runs staged in
 * the console are left to the console). One being applied by another process right now (its heartbeat younger than
 * `liveMs`) is reported as `live`.
 */
export async function findUnfinishedRun(
  db: Database,
  kind: "firebase" | "csv",
  source: string,
  sha256: string,
  liveMs = LIVE_MS,
): Promise<{ id: string; status: string; live: boolean } | null> {
  const [row] = rowsOf<{ id: string; status: string; live: boolean }>(
    await db.execute(sql`
      select id, status,
             (status in ('queued', 'running')
              and coalesce(heartbeat_at, created_at) > now() - make_interval(secs => ${liveMs / 1000})) as live
        from import_run
       where kind = ${kind} and source = ${source} and file_sha256 = ${sha256}
         and (status in ('queued', 'running') or (status in ('staged', 'checked') and created_by is null))
       order by created_at desc
       limit 1`),
  );
  return row ?? null;
}

/** Another run of this kind being applied (console or another command line), or null. */
async function activeRun(db: Database, kind: "firebase" | "csv"): Promise<{ id: string; source: string } | null> {
  const [row] = rowsOf<{ id: string; source: string }>(
    await db.execute(
      sql`select id, source from import_run where kind = ${kind} and status in ('queued', 'running') limit 1`,
    ),
  );
  return row ?? null;
}

function printReport(out: Out, report: ImportReport, ms: number): void {
  out.log(
    `dry run: ${n(report.rows)} rows in ${seconds(ms)} — create ${n(report.create)}, merge ${n(report.merge)}, unchanged: ${n(report.unchanged)}, reject ${n(report.reject)}; opening balances ${n(report.points)} points`,
  );
  const lines = problemLines(report.problems);
  if (lines.length > 0) {
    out.log("problems (rows; a note does not refuse the row):");
    for (const line of lines) out.log(line);
  }
}

const PASSWORD_CHECK: Record<ImportReport["passwordCheck"], string> = {
  ok: "passwords: the sample password verifies with hash.json",
  wrong_key:
    "passwords: the sample password does NOT verify — hash.json is wrong (every imported password would fail); fetch the parameters again",
  no_sample: "passwords: not checked (give --sample <phone-or-email>:<password> to check hash.json)",
  no_hashes:
    "passwords: none imported (no --hash-config, or no password hashes in users.json): members claim their accounts by SMS code",
  sample_not_found: "passwords: the --sample member is not in the files",
};

/** Writes the run's rejected rows beside the input (or, when that folder is read-only, in the working folder). */
async function writeRejected(db: Database, runId: string, input: string, out: Out): Promise<void> {
  const targets = [`${input}.rejected.csv`, path.resolve(`${path.basename(input)}.rejected.csv`)];
  for (const target of targets) {
    try {
      const file = createWriteStream(target);
      const opened = new Promise<void>((resolve, reject) => {
        file.once("open", () => resolve());
        file.once("error", reject);
      });
      await opened;
      for await (const line of rejectedRows(db, runId, (code) => PROBLEM_WORDS[code])) {
        if (!file.write(line.endsWith("\n") ? line : `${line}\r\n`)) {
          await new Promise<void>((resolve) => file.once("drain", () => resolve()));
        }
      }
      file.end();
      await finished(file);
      out.log(`rejected rows: ${target}`);
      return;
    } catch {
      // try the next place
    }
  }
  out.error(`rejected rows: could not write ${targets[0]} nor ${targets[1]}`);
}

/** Applies a checked (or interrupted) run in this process, printing its progress. */
async function apply(
  db: Database,
  runId: string,
  resume: boolean,
  out: Out,
  options: ImportCommandOptions,
): Promise<{ rejected: number; finished: boolean }> {
  if (options.signal?.aborted) {
    out.log("stopped before applying: nothing was applied (the staged run is used again by the same command)");
    return { rejected: 0, finished: false };
  }
  if (!resume) {
    try {
      // No job: this process applies the run itself (the app's workers never see it).
      await startRun(db, null, runId, { kind: "cli" });
    } catch (error) {
      if (error instanceof Refusal && error.code === "import_busy") {
        const other = await activeRun(db, "csv").then(async (r) => r ?? (await activeRun(db, "firebase")));
        throw new CliRefused(
          `another import is running${other ? ` (run ${other.id}, source ${other.source})` : ""}: wait for it to finish (or cancel it at /admin/imports), then run this again`,
        );
      }
      throw error;
    }
  }
  const started = Date.now();
  const before = await getRun(db, runId);
  const doneBefore = before?.progress.rowsDone ?? 0;
  out.log(`applying: ${n(before?.progress.rowsTotal ?? 0)} rows${resume ? ` (resuming at row ${n(doneBefore)})` : ""}`);
  const every = options.progressEveryMs ?? 5000;
  let printing = Promise.resolve();
  const timer = setInterval(() => {
    printing = printing.then(async () => {
      const run = await getRun(db, runId).catch(() => null);
      if (!run) return;
      const { rowsDone, rowsTotal, rejected } = run.progress;
      const rate = ((rowsDone - doneBefore) / Math.max(Date.now() - started, 1)) * 1000;
      out.log(`  ${n(rowsDone)}/${n(rowsTotal)} rows, ${n(rejected)} rejected, ${n(Math.round(rate))} rows/s`);
    });
  }, every);
  let run: Awaited<ReturnType<typeof applyRun>>;
  try {
    run = await applyRun(db, runId, { batchSize: options.batchSize, signal: options.signal, now: options.now });
  } finally {
    clearInterval(timer);
    await printing;
  }
  const ms = Date.now() - started;
  if (run.status !== "done") {
    out.log(
      `stopped (${run.status}) after ${seconds(ms)} at row ${n(run.rowsDone)} of ${n(run.rowsTotal)}: run the same command again to resume`,
    );
    return { rejected: run.rejected, finished: false };
  }
  out.log(
    `done in ${seconds(ms)}: created ${n(run.created)}, merged ${n(run.merged)}, unchanged: ${n(run.unchanged)}, rejected ${n(run.rejected)}; ${n(run.pointsBooked)} points booked (${n(Math.round((run.rowsTotal - doneBefore) / Math.max(ms / 1000, 0.001)))} rows/s)`,
  );
  return { rejected: run.rejected, finished: true };
}

/** Opens the configured database (DATABASE_URL, or the embedded one under DATA_DIR) migrated to this version. */
async function open(env: Env): Promise<DatabaseHandle> {
  const database = await openDatabase(databaseConfigFromEnv(env));
  await database.migrate();
  return database;
}

const FILE_PROBLEMS: Record<string, string> = {
  not_json: "is not JSON",
  truncated: "is cut off (truncated)",
  not_csv: "is not a CSV file",
  empty: "is empty",
  too_large: "is too large",
  hash_config_invalid: "is not Firebase's password hash parameters",
};

/** An engine refusal in one line. */
function refusalLine(error: Refusal): string {
  if (error.code === "file_invalid") {
    const code = error.params?.code ?? "";
    const line = error.params?.line && error.params.line !== "?" ? ` (line ${error.params.line})` : "";
    return `refused: the file ${FILE_PROBLEMS[code] ?? `cannot be read (${code})`}${line}; nothing was imported [${error.message}]`;
  }
  if (error.code === "file_too_large") return "refused: the file is too large; nothing was imported";
  if (error.code === "import_busy")
    return "refused: another import is running: wait for it to finish, then run this again";
  return `refused: ${error.code}${error.params ? ` ${JSON.stringify(error.params)}` : ""}`;
}

/** Turns the known refusals into one line and exit 2; anything else is a failure the caller reports (exit 1). */
async function guarded(out: Out, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CliRefused) {
      out.error(error.message);
      return 2;
    }
    if (error instanceof Refusal) {
      out.error(refusalLine(error));
      return 2;
    }
    throw error;
  }
}

/** A command: its arguments checked (a mistake: the line and the usage, exit 2), then `run` guarded. */
async function importCommand<A>(
  parsed: ParsedCliArgs<A>,
  out: Out,
  run: (args: A) => Promise<number>,
): Promise<number> {
  if (!parsed.ok) {
    out.error(parsed.message);
    return 2;
  }
  const { args } = parsed;
  return guarded(out, () => run(args));
}

/**
 * The unfinished run of the same source and file(s), if any: one another process is applying right now is refused;
 * one being applied (a killed process's) is resumed.
 */
async function earlierRun(
  db: Database,
  kind: "firebase" | "csv",
  source: string,
  sha256: string,
  out: Out,
): Promise<{ earlier: { id: string; status: string } | null; resume: boolean }> {
  const earlier = await findUnfinishedRun(db, kind, source, sha256);
  const these = kind === "csv" ? "this file is" : "these files are";
  if (earlier?.live) {
    throw new CliRefused(
      `${these} being imported right now (run ${earlier.id}): wait for it to finish (a run whose process was killed is resumed ${LIVE_MS / 1000} s after its last batch)`,
    );
  }
  const resume = earlier !== null && (earlier.status === "queued" || earlier.status === "running");
  if (resume && earlier) {
    const sha = kind === "csv" ? "file SHA-256" : "files' SHA-256";
    out.log(`resuming run ${earlier.id} (${earlier.status}; same source and ${sha})`);
  }
  return { earlier, resume };
}

/** A dry run's end: the refused rows written beside `input`, nothing applied. */
async function dryRunDone(db: Database, runId: string, report: ImportReport, input: string, out: Out): Promise<0> {
  if (report.reject > 0) await writeRejected(db, runId, input, out);
  out.log("dry run only: no member was written. Run the same command without --dry-run to apply it.");
  return 0;
}

/** The run applied, its refused rows written beside `input`; exit 0 when it finished, 1 when it stopped. */
async function applyAndReport(
  db: Database,
  runId: string,
  resume: boolean,
  input: string,
  out: Out,
  options: ImportCommandOptions,
): Promise<number> {
  const result = await apply(db, runId, resume, out, options);
  if (result.rejected > 0) await writeRejected(db, runId, input, out);
  return result.finished ? 0 : 1;
}

export async function runImportCsv(
  argv: string[],
  env: Env = process.env,
  out: Out = consoleOut,
  options: ImportCommandOptions = {},
): Promise<number> {
  return importCommand(parseCsvArgs(argv), out, async (args: CsvCliArgs) => {
    const file = await inputFile("file", args.file);
    const sha256 = await fileSha256(file.path);
    const database = await open(env);
    try {
      const { db } = database;
      const { earlier, resume } = await earlierRun(db, "csv", args.source, sha256, out);
      let runId: string;
      if (resume && earlier) {
        runId = earlier.id;
        if (args.dryRun) out.log("--dry-run: this run was already being applied; it is resumed, not checked again");
      } else {
        let headers: string[];
        if (earlier) {
          runId = earlier.id;
          headers = (await getRun(db, runId)).options.headers ?? [];
          out.log(`staged before: run ${runId} (same source and file SHA-256), not read again`);
        } else {
          const started = Date.now();
          const staged = await stageCsv(db, {
            source: args.source,
            file: named(file),
            encoding: args.encoding,
            actor: { kind: "cli" },
          });
          runId = staged.id;
          headers = staged.headers;
          out.log(
            `staged: ${n(staged.rowsTotal)} rows from ${path.basename(file.path)} (${(file.bytes / 1024 / 1024).toFixed(1)} MB, ${(staged.options as { encoding?: string }).encoding ?? args.encoding ?? "utf-8"}) in ${seconds(Date.now() - started)} — run ${runId}`,
          );
        }
        const mapping = csvMapping(args.map, headers, out);
        await setCsvMapping(db, runId, mapping, { welcome: args.welcome, evaluateTiers: args.evaluateTiers });
        const checked = Date.now();
        const report = await checkRun(db, runId, options.now);
        printReport(out, report, Date.now() - checked);
        if (args.dryRun) return await dryRunDone(db, runId, report, file.path, out);
      }
      return await applyAndReport(db, runId, resume, file.path, out, options);
    } finally {
      await database.close();
    }
  });
}

/** The admin's mapping (checked against the file's headers; headers left out are kept as extra) or the guess. */
function csvMapping(map: CsvMapping | null, headers: string[], out: Out): CsvMapping {
  if (map === null) {
    const guessed = guessMapping(headers);
    out.log(`mapping (guessed from the headers; pass --map to change it): ${formatMapping(guessed)}`);
    return guessed;
  }
  const missing = Object.keys(map).filter((header) => !headers.includes(header));
  if (missing.length > 0) {
    throw new CliRefused(
      `--map: no column ${missing.map((m) => `"${m}"`).join(", ")} in the file (its columns: ${headers.join(", ")})`,
    );
  }
  const mapping: CsvMapping = {};
  for (const header of headers) mapping[header] = map[header] ?? "ignore";
  out.log(`mapping: ${formatMapping(mapping)}`);
  return mapping;
}

export async function runImportFirebase(
  argv: string[],
  env: Env = process.env,
  out: Out = consoleOut,
  options: ImportCommandOptions = {},
): Promise<number> {
  return importCommand(parseFirebaseArgs(argv), out, async (args: FirebaseCliArgs) => {
    const members = await inputFile("members", args.members);
    const users = await inputFile("auth", args.auth);
    let hashConfig: FirebaseHashConfig | undefined;
    if (args.hashConfig) {
      const hashFile = await inputFile("hash-config", args.hashConfig);
      if (hashFile.bytes > 64 * 1024) throw new CliRefused(`--hash-config ${args.hashConfig}: too large for hash.json`);
      const config = parseHashConfig(await readFile(hashFile.path, "utf8"));
      if ("error" in config) {
        throw new CliRefused(
          `--hash-config ${args.hashConfig}: not Firebase's password hash parameters (base64_signer_key, base64_salt_separator, rounds, mem_cost)`,
        );
      }
      hashConfig = config;
    }
    const sha256 = await firebaseSha256(members.path, users.path);
    const database = await open(env);
    try {
      const { db } = database;
      const { earlier, resume } = await earlierRun(db, "firebase", args.source, sha256, out);
      let runId: string;
      if (resume && earlier) {
        runId = earlier.id;
      } else {
        runId = "";
        if (earlier) {
          // Staged (or dry-run) before: the staged rows are used again when the hash parameters are the same and no
          // sample password is to be checked (the check forgets it once used); otherwise that run is cancelled and the
          // files staged anew.
          const stored = optionsOf(await loadRun(db, earlier.id));
          if (!args.sample && JSON.stringify(stored.hashConfig ?? null) === JSON.stringify(hashConfig ?? null)) {
            runId = earlier.id;
            await setRunOptions(db, runId, { welcome: args.welcome, evaluateTiers: args.evaluateTiers });
            out.log(`staged before: run ${runId} (same source and files' SHA-256), not read again`);
          } else {
            await cancelRun(db, earlier.id, { kind: "cli" });
            out.log(`run ${earlier.id} of the same files (staged before, other options) cancelled; staging again`);
          }
        }
        if (!runId) {
          const started = Date.now();
          const staged = await stageFirebase(db, {
            source: args.source,
            users: named(users),
            members: named(members),
            hashConfig,
            samplePassword: args.sample ?? undefined,
            options: { welcome: args.welcome, evaluateTiers: args.evaluateTiers },
            actor: { kind: "cli" },
          });
          runId = staged.id;
          out.log(
            `staged: ${n(staged.rowsTotal)} member documents from ${path.basename(members.path)} and the auth users of ${path.basename(users.path)} in ${seconds(Date.now() - started)} — run ${runId}`,
          );
        }
        const checked = Date.now();
        const report = await checkRun(db, runId, options.now);
        printReport(out, report, Date.now() - checked);
        out.log(PASSWORD_CHECK[report.passwordCheck]);
        if (args.dryRun) return await dryRunDone(db, runId, report, members.path, out);
        if (report.passwordCheck === "wrong_key") {
          throw new CliRefused(
            "refused: the sample password does not verify with hash.json; nothing was applied (fix --hash-config, or leave --sample out to import anyway)",
          );
        }
      }
      return await applyAndReport(db, runId, resume, members.path, out, options);
    } finally {
      await database.close();
    }
  });
}

/** The SHA-256 the engine records for a Firebase run: of the members file, then the users file, hashed together. */
export async function firebaseSha256(members: string, users: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of [members, users]) {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  }
  return hash.digest("hex");
}
