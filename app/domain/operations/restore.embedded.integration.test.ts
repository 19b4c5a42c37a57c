import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { BACKUP_APP, readBackupFile, writeBackupFile } from "@platform/db/backup";
import { openDatabase } from "@platform/db/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBackup, runRestore } from "./commands.server";
import { captureOutput, expectOneClearLine } from "./testing.server";

/**
 * npm run db:restore on the embedded database (issue 33 item 17): into a DATA_DIR that does not exist yet it
 * restores (it used to crash on `ENOENT … pglite.lock`); a backup whose data is damaged although its checksum
 * matches is refused with one line, leaving no `pglite/` folder behind and a database already there untouched.
 */
const root = mkdtempSync(path.join(tmpdir(), "restore-embedded-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let good: string;
/** Not gzip at all (PGlite's loader fails with a TypeError), and gzip of something that is not a data directory. */
let damaged: string;
let damagedGzip: string;

beforeAll(async () => {
  // A real backup of a migrated embedded database…
  const source = path.join(root, "source");
  const handle = await openDatabase({ kind: "pglite", dataDir: path.join(source, "pglite") });
  await handle.migrate();
  await handle.close();
  good = path.join(root, "good.hlbackup");
  const made = captureOutput();
  expect(await runBackup([good], { DATA_DIR: source }, made.out)).toBe(0);
  // …and one with this app's header and a matching checksum around data that is not a database dump.
  const { manifest } = await readBackupFile(good);
  expect(manifest.app).toBe(BACKUP_APP);
  damaged = path.join(root, "damaged.hlbackup");
  await writeBackupFile(damaged, manifest, Readable.from([randomBytes(64 * 1024)]));
  await readBackupFile(damaged);
  damagedGzip = path.join(root, "damaged-gzip.hlbackup");
  await writeBackupFile(damagedGzip, manifest, Readable.from([gzipSync("not a data directory\n".repeat(100))]));
  await readBackupFile(damagedGzip);
}, 120_000);

describe("db:restore into the embedded database", () => {
  it("restores into a DATA_DIR that does not exist yet", async () => {
    const dataDir = path.join(root, "new", "data");
    expect(existsSync(path.dirname(dataDir))).toBe(false);
    const result = captureOutput();
    expect(await runRestore([good], { DATA_DIR: dataDir }, result.out)).toBe(0);
    expect(result.lines.join("\n")).toMatch(/^Restored .*: 0 members, 0 points/);
    expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    expect(readdirSync(dataDir).sort()).toEqual(["pglite"]);
  }, 60_000);

  it("refuses damaged data with a valid checksum in one line, and leaves nothing behind", async () => {
    for (const file of [damaged, damagedGzip]) {
      const dataDir = path.join(root, "fresh-data");
      const result = captureOutput();
      expect(await runRestore([file], { DATA_DIR: dataDir }, result.out)).toBe(1);
      expectOneClearLine(result.lines);
      expect(result.lines[0]).toMatch(
        /damaged(-gzip)?\.hlbackup .*not .*a usable embedded database.*nothing was changed/,
      );
      expect(existsSync(dataDir)).toBe(false);
      expect(readdirSync(root).filter((f) => f.startsWith("fresh-data"))).toEqual([]);
    }
  }, 60_000);

  it("leaves an empty DATA_DIR as it was", async () => {
    const dataDir = path.join(root, "empty-data");
    mkdirSync(dataDir);
    const result = captureOutput();
    expect(await runRestore([damaged], { DATA_DIR: dataDir }, result.out)).toBe(1);
    expectOneClearLine(result.lines);
    expect(readdirSync(dataDir)).toEqual([]);
  }, 60_000);

  it("with --replace keeps the database that is there in its place", async () => {
    const dataDir = path.join(root, "live-data");
    expect(await runRestore([good], { DATA_DIR: dataDir }, captureOutput().out)).toBe(0);
    const result = captureOutput();
    expect(await runRestore([damaged, "--replace"], { DATA_DIR: dataDir }, result.out)).toBe(1);
    expectOneClearLine(result.lines);
    expect(readdirSync(dataDir).sort()).toEqual(["pglite"]);
    const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    try {
      expect((await handle.migrationStatus()).upToDate).toBe(true);
    } finally {
      await handle.close();
    }
  }, 60_000);
});
