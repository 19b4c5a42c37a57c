import path from "node:path";
import { BackupFileError } from "@platform/db/backup";
import type { DatabaseConfig } from "@platform/db/client";
import { backupDatabase, RestoreRefused, restoreDatabase } from "./backup.server";
import { formatMoveReport, MoveRefused, moveToPostgres } from "./move-to-postgres.server";

/**
 * The command-line side of the database operations (scripts/db-operation.js runs them from the
 * production build). Each returns the process exit code; refusals print one clear message, never a
 * stack. Only DATABASE_URL and DATA_DIR are read: the tools run without the app's other settings.
 */
type Env = Record<string, string | undefined>;
type Out = { log: (line: string) => void; error: (line: string) => void };

const consoleOut: Out = { log: (l) => console.log(l), error: (l) => console.error(l) };

export function embeddedDataDir(env: Env): string {
  return path.join(path.resolve(env.DATA_DIR || "./data"), "pglite");
}

export function databaseConfigFromEnv(env: Env): DatabaseConfig {
  return env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL, poolMax: 2 }
    : { kind: "pglite", dataDir: embeddedDataDir(env) };
}

function refusal(error: unknown): string | null {
  if (error instanceof MoveRefused || error instanceof RestoreRefused || error instanceof BackupFileError) {
    return error.message;
  }
  return null;
}

export async function runMoveToPostgres(
  args: string[],
  env: Env = process.env,
  out: Out = consoleOut,
): Promise<number> {
  const [targetUrl] = args;
  if (!targetUrl || !/^postgres(ql)?:\/\//.test(targetUrl)) {
    out.error("usage: npm run db:move-to-postgres -- postgres://user:password@host:5432/database");
    return 2;
  }
  const sourceDataDir = embeddedDataDir(env);
  out.log(
    `Moving the embedded database at ${sourceDataDir} to ${new URL(targetUrl).host}${new URL(targetUrl).pathname}`,
  );
  try {
    const report = await moveToPostgres({ sourceDataDir, targetUrl, progress: out.log });
    out.log(formatMoveReport(report));
    out.log(
      `Next: start the app with DATABASE_URL set to the target and SESSION_SECRET set to the "session" value in ${path.join(path.dirname(sourceDataDir), "secrets.json")}, so members stay logged in.`,
    );
    return 0;
  } catch (error) {
    const message = refusal(error);
    if (message === null) throw error;
    out.error(message);
    return 1;
  }
}

function defaultBackupFile(config: DatabaseConfig): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
  return path.resolve("backups", `han-living-${config.kind}-${stamp}.hlbackup`);
}

export async function runBackup(args: string[], env: Env = process.env, out: Out = consoleOut): Promise<number> {
  const config = databaseConfigFromEnv(env);
  const file = args[0] ? path.resolve(args[0]) : defaultBackupFile(config);
  try {
    const result = await backupDatabase(config, file);
    out.log(
      `Backup written: ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${result.manifest.driver}, schema at migration ${result.manifest.migrations}).`,
    );
    return 0;
  } catch (error) {
    const message = refusal(error);
    if (message === null) throw error;
    out.error(message);
    return 1;
  }
}

export async function runRestore(args: string[], env: Env = process.env, out: Out = consoleOut): Promise<number> {
  const file = args.find((a) => !a.startsWith("--"));
  if (!file) {
    out.error("usage: npm run db:restore -- FILE [--replace]");
    return 2;
  }
  const config = databaseConfigFromEnv(env);
  try {
    const result = await restoreDatabase(config, path.resolve(file), { replace: args.includes("--replace") });
    out.log(
      `Restored ${path.resolve(file)} (taken ${result.manifest.createdAt}): ${result.members} members, ${result.totalPoints} points${result.migrationsApplied ? `, ${result.migrationsApplied} migrations applied` : ""}.`,
    );
    if (result.previousDataDir) out.log(`The database that was there is kept at ${result.previousDataDir}.`);
    if (result.ledgerMismatches > 0) {
      out.error(`Warning: ${result.ledgerMismatches} member balances differ from their ledger in this backup.`);
      return 1;
    }
    return 0;
  } catch (error) {
    const message = refusal(error);
    if (message === null) throw error;
    out.error(message);
    return 1;
  }
}
