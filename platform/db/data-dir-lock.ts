import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

/**
 * The embedded database (PGlite) is one process's files: a second process opening the same data
 * directory would corrupt it, and PGlite itself does not stop it (its postmaster.pid is written with a
 * fixed fake pid and silently overwritten). Whoever opens a file-backed PGlite holds this lock: a file
 * beside the data directory, created exclusively, naming the process. A lock left by a process that no
 * longer runs (a crash, kill -9) is taken over.
 */
export type DataDirLock = { path: string; release(): void };

export type LockHolder = { pid: number; host: string; since: string };

export class DataDirInUseError extends Error {
  override name = "DataDirInUseError";
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database at ${dataDir} is open in another process (pid ${holder.pid} on ${holder.host}, since ${holder.since}). Stop the app first.`,
    );
  }
}

export function lockPathFor(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, "")}.lock`;
}

function readHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number") return null;
    return { pid: parsed.pid, host: String(parsed.host ?? ""), since: String(parsed.since ?? "") };
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live holder of the data directory's lock, or null when nobody (running) holds it. */
export function dataDirHolder(dataDir: string): LockHolder | null {
  const holder = readHolder(lockPathFor(dataDir));
  if (!holder) return null;
  // A lock from another machine (a shared volume) cannot be checked: it counts as held.
  if (holder.host !== hostname()) return holder;
  return isRunning(holder.pid) ? holder : null;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = lockPathFor(dataDir);
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      return {
        path: file,
        release() {
          if (released) return;
          released = true;
          // Only our own lock is removed (never one a later process took over).
          if (readHolder(file)?.pid === me.pid) unlinkSync(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = dataDirHolder(dataDir);
      if (holder) throw new DataDirInUseError(dataDir, holder);
      // Stale (its process is gone): remove it and try once more.
      try {
        unlinkSync(file);
      } catch {
        // Another process removed it first; the next attempt decides.
      }
    }
  }
  throw new DataDirInUseError(dataDir, readHolder(file) ?? { pid: -1, host: "unknown", since: "" });
}
