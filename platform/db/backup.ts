import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import { PassThrough, Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { PGlite } from "@electric-sql/pglite";

/**
 * The backup file: one header line naming the app and the schema, the payload, one trailer line with
 * the payload's length and SHA-256. The payload is the driver's own format: PGlite's dump of its data
 * directory (a gzipped tar) or `pg_dump --format=custom`. A file from another program has no header;
 * a truncated one has no (or a wrong) trailer: both are refused before anything is restored.
 *
 *   HANLIVING-BACKUP {"app":"han-living-member","format":1,"driver":"postgres","migrations":6,...}\n
 *   <payload bytes>
 *   \nHANLIVING-BACKUP-END <16-digit length> <64 hex sha256>\n
 */
export const BACKUP_APP = "han-living-member";
const MAGIC = "HANLIVING-BACKUP ";
const TRAILER_MAGIC = "\nHANLIVING-BACKUP-END ";
const TRAILER_LENGTH = TRAILER_MAGIC.length + 16 + 1 + 64 + 1;
const MAX_HEADER = 4096;

export type BackupManifest = {
  app: string;
  format: 1;
  driver: "pglite" | "postgres";
  /** Applied migrations when the backup was taken (the schema version). */
  migrations: number;
  /** The newest applied migration's tag (its file name), to tell schemas apart. */
  lastMigration: string | null;
  createdAt: string;
  /** The PostgreSQL server's version (PGlite's, for the embedded database). */
  serverVersion: string;
};

export class BackupFileError extends Error {
  override name = "BackupFileError";
}

function trailer(length: number, sha256: string): string {
  return `${TRAILER_MAGIC}${String(length).padStart(16, "0")} ${sha256}\n`;
}

/** Writes header, payload (streamed, hashed) and trailer to `file` (via `file.partial`, then renamed). */
export async function writeBackupFile(file: string, manifest: BackupManifest, payload: Readable): Promise<number> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  const hash = createHash("sha256");
  let length = 0;
  try {
    out.write(`${MAGIC}${JSON.stringify(manifest)}\n`);
    await pipeline(
      payload,
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          length += chunk.length;
          done(null, chunk);
        },
        flush(done) {
          done(null, trailer(length, hash.digest("hex")));
        },
      }),
      out,
    );
    await rename(partial, file);
    return length;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

export type BackupFile = {
  manifest: BackupManifest;
  /** The payload, streamed from the file (its integrity was checked already). */
  payload(): Readable;
  payloadBytes: number;
};

/**
 * Reads and checks a backup file: the header must be ours, the trailer present, and the payload's
 * length and SHA-256 must match it (one pass over the file).
 */
export async function readBackupFile(file: string): Promise<BackupFile> {
  const size = (await stat(file)).size;
  const handle = await open(file, "r");
  let manifest: BackupManifest;
  let payloadStart: number;
  let expected: { length: number; sha256: string };
  try {
    const head = Buffer.alloc(Math.min(MAX_HEADER, size));
    await handle.read(head, 0, head.length, 0);
    const newline = head.indexOf(0x0a);
    if (!head.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC)) || newline < 0) {
      throw new BackupFileError(`${file} is not a backup made by this app (${BACKUP_APP}): refused.`);
    }
    try {
      manifest = JSON.parse(head.subarray(MAGIC.length, newline).toString("utf8")) as BackupManifest;
    } catch {
      throw new BackupFileError(`${file} has a damaged header: refused.`);
    }
    if (manifest.app !== BACKUP_APP) {
      throw new BackupFileError(`${file} is a backup of "${manifest.app}", not of ${BACKUP_APP}: refused.`);
    }
    if (manifest.format !== 1) throw new BackupFileError(`${file} has an unknown backup format (${manifest.format}).`);
    payloadStart = newline + 1;
    const tail = Buffer.alloc(TRAILER_LENGTH);
    const tailAt = size - TRAILER_LENGTH;
    if (tailAt >= payloadStart) await handle.read(tail, 0, TRAILER_LENGTH, tailAt);
    const text = tail.toString("latin1");
    const match = /^\nHANLIVING-BACKUP-END (\d{16}) ([0-9a-f]{64})\n$/.exec(text);
    if (tailAt < payloadStart || !match) {
      throw new BackupFileError(`${file} is incomplete (truncated: its end marker is missing): refused.`);
    }
    expected = { length: Number(match[1]), sha256: match[2] as string };
    if (expected.length !== tailAt - payloadStart) {
      throw new BackupFileError(
        `${file} is incomplete or damaged (${tailAt - payloadStart} bytes of data, ${expected.length} expected): refused.`,
      );
    }
  } finally {
    await handle.close();
  }
  const end = payloadStart + expected.length - 1;
  const payload = () =>
    expected.length === 0 ? Readable.from([]) : createReadStream(file, { start: payloadStart, end });
  const hash = createHash("sha256");
  for await (const chunk of payload()) hash.update(chunk as Buffer);
  if (hash.digest("hex") !== expected.sha256) {
    throw new BackupFileError(`${file} is damaged (its checksum does not match): refused.`);
  }
  return { manifest, payload, payloadBytes: expected.length };
}

/** The embedded database's data directory as one gzipped tar (PGlite's own dump). */
export async function dumpPglite(client: PGlite): Promise<Readable> {
  const blob = await client.dumpDataDir("gzip");
  return Readable.from([Buffer.from(await blob.arrayBuffer())]);
}

const TAR_BLOCK = 512;

/**
 * Throws unless `tar` is a whole ustar archive: every header's magic and checksum right, every entry's data within
 * the file, the end marker present. PGlite's loader must not see anything else: on data it cannot untar it tries to
 * gunzip it again, and that failure escapes as an unhandled TypeError that ends the process.
 */
export function checkTarArchive(tar: Uint8Array): void {
  const text = (at: number, length: number) => Buffer.from(tar.subarray(at, at + length)).toString("latin1");
  const octal = (at: number, length: number) => {
    const field = text(at, length)
      .replace(/[\0 ]+$/, "")
      .trim();
    return /^[0-7]+$/.test(field) ? Number.parseInt(field, 8) : Number.NaN;
  };
  let offset = 0;
  let entries = 0;
  while (offset + TAR_BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + TAR_BLOCK);
    if (header.every((b) => b === 0)) {
      if (entries === 0) throw new Error("the archive holds no files");
      return;
    }
    if (!text(offset + 257, 5).startsWith("ustar")) throw new Error(`not a tar archive (at byte ${offset})`);
    let sum = 0;
    for (let i = 0; i < TAR_BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] as number);
    if (octal(offset + 148, 8) !== sum) throw new Error(`a damaged tar header (at byte ${offset})`);
    const size = octal(offset + 124, 12);
    if (!Number.isFinite(size)) throw new Error(`a damaged tar header (at byte ${offset})`);
    offset += TAR_BLOCK + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
    entries++;
  }
  throw new Error("the archive is cut short");
}

/**
 * Creates a PGlite data directory from a dump (the directory must not hold a database). The dump is unpacked and
 * checked here first (checkTarArchive): damaged data is an ordinary error, never one thrown inside PGlite.
 */
export async function loadPglite(dataDir: string, payload: Readable): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of payload) chunks.push(chunk as Buffer);
  let data = Buffer.concat(chunks);
  if (data[0] === 0x1f && data[1] === 0x8b) data = await promisify(gunzip)(data);
  checkTarArchive(data);
  const { PGlite } = await import("@electric-sql/pglite");
  const client = await PGlite.create(dataDir, {
    loadDataDir: new Blob([new Uint8Array(data)], { type: "application/x-tar" }),
  });
  await client.close();
}

/** A URL without its password, and the password for PGPASSWORD: never on a command line. */
export function libpqTarget(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { url: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  io: { stdin?: Readable; stdout?: Writable } = {},
): Promise<string> {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: [io.stdin ? "pipe" : "ignore", io.stdout ? "pipe" : "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const finished = new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code ?? 1));
  });
  const streams: Promise<unknown>[] = [];
  if (io.stdin && child.stdin) streams.push(pipeline(io.stdin, child.stdin).catch(() => {}));
  if (io.stdout && child.stdout) streams.push(pipeline(child.stdout, io.stdout));
  else
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
  const [code] = await Promise.all([finished, ...streams]);
  if (code !== 0) throw new Error(`${command} failed (exit ${code}): ${stderr.trim().split("\n").slice(-3).join(" ")}`);
  return stdout;
}

/** The major version of a client tool (pg_dump 15.20 → 15). */
export async function clientMajorVersion(tool: "pg_dump" | "pg_restore"): Promise<number> {
  const out = await run(tool, ["--version"], {}).catch((error) => {
    throw new Error(`${tool} was not found on PATH (install the PostgreSQL client tools): ${(error as Error).message}`);
  });
  const match = /(\d+)(?:\.\d+)?/.exec(out.replace(/^[^)]*\)/, ""));
  return Number(match?.[1] ?? 0);
}

/** pg_dump's custom format, streamed. pg_dump must be at least the server's major version. */
export async function dumpPostgres(url: string, serverMajor: number): Promise<Readable> {
  const major = await clientMajorVersion("pg_dump");
  if (major < serverMajor) {
    throw new Error(
      `pg_dump ${major} cannot back up a PostgreSQL ${serverMajor} server: install pg_dump ${serverMajor} or newer.`,
    );
  }
  const target = libpqTarget(url);
  const out = new PassThrough();
  // The job queue's schema is included: a restored database keeps its queued messages and schedules.
  run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--dbname=${target.url}`], target.env, {
    stdout: out,
  }).catch((error) => out.destroy(error as Error));
  return out;
}

/** pg_restore of a custom-format dump into `url`, in one transaction (all or nothing). */
export async function restorePostgres(url: string, payload: Readable, serverMajor: number): Promise<void> {
  const major = await clientMajorVersion("pg_restore");
  if (major < serverMajor) {
    throw new Error(
      `pg_restore ${major} is older than the PostgreSQL ${serverMajor} server: install pg_restore ${serverMajor} or newer.`,
    );
  }
  const target = libpqTarget(url);
  await run(
    "pg_restore",
    ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${target.url}`],
    target.env,
    { stdin: payload },
  );
}
