import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { acquireDataDirLock, DataDirInUseError, dataDirHolder, lockPathFor } from "@platform/db/data-dir-lock";
import { afterEach, describe, expect, it } from "vitest";

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "lock-"));
  dirs.push(dir);
  return path.join(dir, "pglite");
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the embedded database's data directory lock", () => {
  it("lets one holder in, refuses a second while it holds, and frees on release", () => {
    const dir = dataDir();
    const lock = acquireDataDirLock(dir);
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid, host: hostname() });
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError);
    expect(() => acquireDataDirLock(dir)).toThrow(`open in another process (pid ${process.pid}`);
    lock.release();
    expect(existsSync(lockPathFor(dir))).toBe(false);
    acquireDataDirLock(dir).release();
  });

  it("takes over a lock left by a process that no longer runs", () => {
    const dir = dataDir();
    const gone = spawnSync(process.execPath, ["-e", ""]).pid as number;
    writeFileSync(lockPathFor(dir), JSON.stringify({ pid: gone, host: hostname(), since: "2026-01-01T00:00:00Z" }));
    expect(dataDirHolder(dir)).toBeNull();
    const lock = acquireDataDirLock(dir);
    expect(dataDirHolder(dir)?.pid).toBe(process.pid);
    lock.release();
  });

  it("counts a lock held from another machine as held (a shared volume cannot be checked)", () => {
    const dir = dataDir();
    writeFileSync(lockPathFor(dir), JSON.stringify({ pid: 1, host: "another-host", since: "2026-01-01T00:00:00Z" }));
    expect(() => acquireDataDirLock(dir)).toThrow(/pid 1 on another-host/);
  });
});
