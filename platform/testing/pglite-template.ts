import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { createTestDatabase, PG_TEMPLATE_ENV, PGLITE_TEMPLATE_ENV } from "@platform/testing/database";

/**
 * The run's migrated embedded database, made once and copied by each integration test file (Vitest's
 * globalSetup of the integration project).
 *
 * An in-memory PGlite database starts with initdb: 1.5–2.3 s of CPU, then 0.5 s for the migrations. A
 * database loaded from this archive (PGlite's `dumpDataDir`) starts in 0.35–0.5 s with the migrations
 * applied. Every integration file opens at least one, and most of them open it through the app.
 *
 * The archive is made from the migrations in this checkout at the start of every run. Its path reaches the
 * test files in an environment variable: the test processes start after this setup, with its environment.
 * On PostgreSQL (TEST_DATABASE_URL) it is a migrated database on that server, which each file's migrated databases
 * are created from (`CREATE DATABASE … TEMPLATE`): a copy instead of the 50 migrations, every file.
 */
export default async function setup(): Promise<() => Promise<void> | void> {
  if (process.env.TEST_DATABASE_URL) return postgresTemplate();
  const dir = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
  const database = await openDatabase({ kind: "pglite", dataDir: "memory://" });
  try {
    await database.migrate();
    const file = path.join(dir, "migrated.tar");
    await writeDataDirArchive(database, file);
    process.env[PGLITE_TEMPLATE_ENV] = file;
  } finally {
    await database.close();
  }
  return () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Writes an embedded database's data directory as an archive that `startFrom` (and PGlite's `loadDataDir`) reads. */
export async function writeDataDirArchive(database: DatabaseHandle, file: string): Promise<void> {
  if (database.connection.driver !== "pglite") throw new Error("expected the embedded database");
  const archive = await database.connection.client.dumpDataDir("none");
  writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
}

/** A migrated database on the run's PostgreSQL, named in PG_TEMPLATE_ENV; nothing connects to it after this. */
async function postgresTemplate(): Promise<() => Promise<void>> {
  const template = await createTestDatabase({ label: "template" });
  try {
    const database = await openDatabase(template.config);
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  } catch (error) {
    await template.drop();
    throw error;
  }
  process.env[PG_TEMPLATE_ENV] = template.name ?? "";
  return async () => {
    delete process.env[PG_TEMPLATE_ENV];
    await template.drop();
  };
}
