import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { readBackupFile, writeBackupFile } from "@platform/db/backup";
import { openDatabase } from "@platform/db/client";
import { inspectTarget } from "@platform/db/transfer";
import { createTestDatabase, databaseUrl, type TestDatabase, testDatabaseName } from "@platform/testing/database";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBackup, runRestore } from "./commands.server";
import { captureOutput, expectOneClearLine } from "./testing.server";

/**
 * npm run db:restore and db:backup against a PostgreSQL database that is not there (issue 33 item 17): one clear
 * line naming the database and what to do, never the driver's PostgresError stack, and no database created.
 */
const adminUrl = process.env.TEST_DATABASE_URL as string;
const dir = mkdtempSync(path.join(tmpdir(), "restore-postgres-"));
let source: TestDatabase;
let file: string;

async function databaseExists(name: string): Promise<boolean> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    return (await sql`select 1 from pg_database where datname = ${name}`).length > 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

beforeAll(async () => {
  source = await createTestDatabase({ label: "restore_source" });
  const handle = await openDatabase(source.config);
  await handle.migrate();
  await handle.close();
  file = path.join(dir, "nightly.hlbackup");
  expect(await runBackup([file], { DATABASE_URL: source.url as string }, captureOutput().out)).toBe(0);
});

afterAll(async () => {
  await source?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a PostgreSQL database that does not exist", () => {
  const missing = testDatabaseName("missing");

  it("db:restore says to create it first, in one line, and creates nothing", async () => {
    const result = captureOutput();
    expect(await runRestore([file], { DATABASE_URL: databaseUrl(adminUrl, missing) }, result.out)).toBe(1);
    expectOneClearLine(result.lines);
    expect(result.lines[0]).toContain(`The database "${missing}" does not exist`);
    expect(result.lines[0]).toMatch(/create it .*nothing was changed/);
    expect(await databaseExists(missing)).toBe(false);
  });

  it("db:backup says it does not exist, in one line, and writes no file", async () => {
    const result = captureOutput();
    const target = path.join(dir, "missing.hlbackup");
    expect(await runBackup([target], { DATABASE_URL: databaseUrl(adminUrl, missing) }, result.out)).toBe(1);
    expectOneClearLine(result.lines);
    expect(result.lines[0]).toContain(`The database "${missing}" does not exist`);
    expect(await databaseExists(missing)).toBe(false);
  });

  it("a server nobody listens on is one line too", async () => {
    const result = captureOutput();
    const url = new URL(databaseUrl(adminUrl, missing));
    url.port = "1";
    expect(await runRestore([file], { DATABASE_URL: url.toString() }, result.out)).toBe(1);
    expectOneClearLine(result.lines);
    expect(result.lines[0]).toMatch(/Cannot reach PostgreSQL at .*:1.*nothing was changed/);
  });
});

describe("a PostgreSQL backup whose data is damaged although its checksum matches", () => {
  it("is refused in one line and leaves the target database empty", async () => {
    const { manifest } = await readBackupFile(file);
    const damaged = path.join(dir, "damaged.hlbackup");
    await writeBackupFile(damaged, manifest, Readable.from([randomBytes(64 * 1024)]));
    const target = await createTestDatabase({ label: "restore_damaged" });
    try {
      const result = captureOutput();
      expect(await runRestore([damaged], { DATABASE_URL: target.url as string }, result.out)).toBe(1);
      expectOneClearLine(result.lines);
      expect(result.lines[0]).toMatch(/damaged\.hlbackup: pg_restore failed .*nothing was restored\./);
      const sql = postgres(target.url as string, { max: 1, onnotice: () => {} });
      try {
        expect(await inspectTarget(sql)).toEqual({ kind: "empty" });
      } finally {
        await sql.end({ timeout: 5 });
      }
    } finally {
      await target.drop();
    }
  });
});
