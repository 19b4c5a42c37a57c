import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import {
  BACKUP_APP,
  type BackupFile,
  type BackupManifest,
  dumpPglite,
  dumpPostgres,
  loadPglite,
  readBackupFile,
  restorePostgres,
  writeBackupFile,
} from "@platform/db/backup";
import { type DatabaseConfig, type DatabaseHandle, migrationsFolder, openDatabase, rowsOf } from "@platform/db/client";
import { acquireDataDirLock, DataDirInUseError, lockPathFor } from "@platform/db/data-dir-lock";
import { databaseConnectionProblem, errorLine } from "@platform/db/errors";
import { inspectTarget } from "@platform/db/transfer";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { checkLedger } from "../loyalty/ledger-check.server";

/**
 * `npm run db:backup` and `npm run db:restore` (docs/operations.md, ADR 021), for both drivers.
 * A restore never overwrites: PostgreSQL must be an empty database, the embedded data directory must
 * not exist (or is moved aside with --replace). After a restore the migrations run (an older backup
 * is brought up to this version) and the ledger is checked.
 */

export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

function journalTags(): string[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((e) => e.tag);
}

async function serverVersion(handle: DatabaseHandle): Promise<{ text: string; major: number }> {
  const [row] = rowsOf<{ v: string; n: number }>(
    await handle.db.execute(
      sql`select current_setting('server_version') as v, current_setting('server_version_num')::int as n`,
    ),
  );
  return { text: String(row?.v), major: Math.floor(Number(row?.n) / 10000) };
}

async function open(config: DatabaseConfig): Promise<DatabaseHandle> {
  try {
    return await openDatabase(config);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new RestoreRefused(`${error.message}`);
    throw error;
  }
}

export type BackupResult = { file: string; manifest: BackupManifest; bytes: number };

export async function backupDatabase(config: DatabaseConfig, file: string): Promise<BackupResult> {
  if (config.kind === "pglite" && !existsSync(path.join(config.dataDir, "PG_VERSION"))) {
    throw new RestoreRefused(`No embedded database at ${config.dataDir} to back up.`);
  }
  const handle = await open(config);
  try {
    const status = await handle.migrationStatus().catch((error: unknown) => {
      const problem = config.kind === "postgres" ? databaseConnectionProblem(error, config.url) : null;
      throw problem ? new RestoreRefused(`${problem}; no backup was written.`) : error;
    });
    const version = await serverVersion(handle);
    const manifest: BackupManifest = {
      app: BACKUP_APP,
      format: 1,
      driver: handle.driver,
      migrations: status.applied,
      lastMigration: journalTags()[status.applied - 1] ?? null,
      createdAt: new Date().toISOString(),
      serverVersion: version.text,
    };
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    const payload =
      config.kind === "pglite"
        ? await dumpPglite((handle.connection as { client: PGlite }).client)
        : await dumpPostgres(config.url, version.major);
    const bytes = await writeBackupFile(file, manifest, payload);
    return { file: path.resolve(file), manifest, bytes };
  } finally {
    await handle.close();
  }
}

export type RestoreResult = {
  manifest: BackupManifest;
  members: number;
  totalPoints: number;
  ledgerMismatches: number;
  migrationsApplied: number;
  /** Where the replaced embedded database was moved (with --replace). */
  previousDataDir: string | null;
};

export async function restoreDatabase(
  config: DatabaseConfig,
  file: string,
  options: { replace?: boolean } = {},
): Promise<RestoreResult> {
  const backup = await readBackupFile(file);
  const { manifest } = backup;
  const tags = journalTags();
  if (manifest.migrations > tags.length) {
    throw new RestoreRefused(
      `This backup has ${manifest.migrations} migrations, newer than this version of the app (${tags.length}): restore it with the version that made it.`,
    );
  }
  if (manifest.lastMigration && tags[manifest.migrations - 1] !== manifest.lastMigration) {
    throw new RestoreRefused(
      `This backup's schema (${manifest.lastMigration}) is not one of this app's versions (${tags[manifest.migrations - 1] ?? "none"} at that step): refused.`,
    );
  }
  if (manifest.driver !== config.kind) {
    throw new RestoreRefused(
      manifest.driver === "pglite"
        ? "This is a backup of the embedded database: restore it with DATABASE_URL unset (into DATA_DIR), then use npm run db:move-to-postgres."
        : "This is a PostgreSQL backup: set DATABASE_URL to a new, empty PostgreSQL database to restore it.",
    );
  }

  if (config.kind === "pglite") {
    const restored = await restoreEmbedded(path.resolve(config.dataDir), file, backup, options.replace === true);
    return { manifest, ...restored };
  }
  const admin = postgres(config.url, { max: 1, onnotice: () => {} });
  try {
    const state = await inspectTarget(admin).catch((error: unknown) => {
      const problem = databaseConnectionProblem(error, config.url);
      throw problem ? new RestoreRefused(`${problem}; nothing was changed.`) : error;
    });
    if (state.kind !== "empty") {
      throw new RestoreRefused(
        `The target database is not empty (${state.relations.length} tables and sequences): restore into a new, empty database; nothing was changed.`,
      );
    }
    const [row] = await admin<{ n: number }[]>`select current_setting('server_version_num')::int as n`;
    await restorePostgres(config.url, backup.payload(), Math.floor(Number(row?.n) / 10000)).catch((error: unknown) => {
      // pg_restore runs in one transaction: whatever failed, nothing was restored.
      throw new RestoreRefused(`${file}: ${errorLine(error)}; nothing was restored.`);
    });
  } finally {
    await admin.end({ timeout: 5 });
  }
  return { manifest, ...(await migrateAndCheck(config)), previousDataDir: null };
}

/** Brings a restored database up to this version and checks every balance against the ledger. */
async function migrateAndCheck(config: DatabaseConfig) {
  const handle = await open(config);
  try {
    const before = await handle.migrationStatus();
    await handle.migrate();
    const ledger = await checkLedger(handle.db);
    return {
      members: ledger.members,
      totalPoints: ledger.totalBalance,
      ledgerMismatches: ledger.mismatches.length,
      migrationsApplied: before.expected - before.applied,
    };
  } finally {
    await handle.close();
  }
}

/**
 * The embedded restore touches `dataDir` only once the backup has loaded, migrated and been checked beside it
 * (`<dataDir>.restoring-<time>`): a backup that does not load leaves nothing behind — no `pglite/` folder, no
 * DATA_DIR it had to create — and with --replace the database that was there stays in place.
 */
async function restoreEmbedded(
  dataDir: string,
  file: string,
  backup: BackupFile,
  replace: boolean,
): Promise<Omit<RestoreResult, "manifest">> {
  // DATA_DIR may not exist yet (a new install): created here, and removed again if the restore fails.
  const createdDir = await mkdir(path.dirname(dataDir), { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const staging = `${dataDir}.restoring-${stamp}`;
  let lock: ReturnType<typeof acquireDataDirLock> | null = null;
  let done = false;
  try {
    try {
      lock = acquireDataDirLock(dataDir);
    } catch (error) {
      if (error instanceof DataDirInUseError) throw new RestoreRefused(error.message);
      throw error;
    }
    const present = existsSync(path.join(dataDir, "PG_VERSION"));
    if (present && !replace) {
      throw new RestoreRefused(
        `${dataDir} already holds a database: nothing was changed. Pass --replace to move it aside (it is kept) and restore.`,
      );
    }
    if (!present && existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
      throw new RestoreRefused(
        `${dataDir} holds files that are not a database: move them away first; nothing was changed.`,
      );
    }
    try {
      await loadPglite(staging, backup.payload());
    } catch (error) {
      throw new RestoreRefused(
        `${file} does not hold a usable embedded database (${errorLine(error)}): refused, nothing was changed.`,
      );
    }
    let checked: Awaited<ReturnType<typeof migrateAndCheck>>;
    try {
      checked = await migrateAndCheck({ kind: "pglite", dataDir: staging });
    } catch (error) {
      throw new RestoreRefused(
        `${file} is not a usable embedded database of this app (${errorLine(error)}): refused, nothing was changed.`,
      );
    }
    let previousDataDir: string | null = null;
    if (present) {
      previousDataDir = `${dataDir}.before-restore-${stamp}`;
      await rename(dataDir, previousDataDir);
    } else if (existsSync(dataDir)) {
      await rmdir(dataDir);
    }
    await rename(staging, dataDir);
    done = true;
    return { ...checked, previousDataDir };
  } finally {
    lock?.release();
    if (!done) {
      await rm(staging, { recursive: true, force: true });
      await rm(lockPathFor(staging), { force: true });
      if (createdDir) await rm(createdDir, { recursive: true, force: true });
    }
  }
}
