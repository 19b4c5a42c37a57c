import { randomBytes } from "node:crypto";
import type { DatabaseConfig } from "@platform/db/client";
import postgres from "postgres";

/**
 * A throwaway database for one test file (Vitest) or one test run (Playwright).
 *
 * - Without TEST_DATABASE_URL: PGlite in memory (`memory://`), nothing to clean up.
 * - With TEST_DATABASE_URL (an admin URL, e.g. postgres://postgres@127.0.0.1:5432/postgres): a fresh,
 *   uniquely named database is created on that server, and drop() removes it again.
 *
 * This module has no test-runner imports so the end-to-end helpers can share it.
 */
export type TestDatabase = {
  /** Pass to openDatabase(), or put into an AppConfig as `database`. */
  config: DatabaseConfig;
  driver: "pglite" | "postgres";
  /** The created database's name and URL on PostgreSQL; null on PGlite. */
  name: string | null;
  url: string | null;
  /** Drops the database (PostgreSQL) — close every handle on it first. Safe to call twice. */
  drop(): Promise<void>;
};

export const TEST_DATABASE_PREFIX = "test_";

/** Where platform/testing/pglite-template.ts leaves the path of the run's migrated PGlite archive. */
export const PGLITE_TEMPLATE_ENV = "TEST_PGLITE_TEMPLATE";

/** Where it leaves the name of the run's migrated PostgreSQL database (a template on TEST_DATABASE_URL's server). */
export const PG_TEMPLATE_ENV = "TEST_PG_TEMPLATE";

export type CreateTestDatabaseOptions = {
  /** Defaults to process.env.TEST_DATABASE_URL; empty or absent means PGlite. */
  adminUrl?: string;
  /** Part of the database name, to tell where a leftover came from (letters, digits, underscores). */
  label?: string;
  /** PGlite data directory; defaults to memory://. */
  pgliteDataDir?: string;
  /** Pool size for the PostgreSQL config. */
  poolMax?: number;
  /**
   * The caller migrates the database next: it may then start as a copy of the run's migrated template
   * (platform/testing/pglite-template.ts; PGlite in memory, or a database on TEST_DATABASE_URL's server), which
   * makes that migrate() a no-op. Leave it out
   * for a test of the migrations themselves.
   */
  migrated?: boolean;
};

/** Which driver createTestDatabase() will use, known before any database exists. */
export function testDatabaseDriver(adminUrl = process.env.TEST_DATABASE_URL): TestDatabase["driver"] {
  return adminUrl ? "postgres" : "pglite";
}

export function testDatabaseName(label = "db"): string {
  const safeLabel =
    label
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, "_")
      .slice(0, 24) || "db";
  // Identifiers are at most 63 bytes: prefix (5) + label (24) + 2 separators + pid + 12 hex.
  return `${TEST_DATABASE_PREFIX}${safeLabel}_${process.pid}_${randomBytes(6).toString("hex")}`;
}

function quoteIdent(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Refusing unexpected database name: ${name}`);
  return `"${name}"`;
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = options.adminUrl ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const template = process.env[PGLITE_TEMPLATE_ENV];
    const dataDir = options.pgliteDataDir ?? "memory://";
    const startFrom = options.migrated && template && dataDir === "memory://" ? template : undefined;
    return {
      config: { kind: "pglite", dataDir, ...(startFrom ? { startFrom } : {}) },
      driver: "pglite",
      name: null,
      url: null,
      async drop() {},
    };
  }

  const name = testDatabaseName(options.label);
  const template = process.env[PG_TEMPLATE_ENV];
  const copy = options.migrated && template && adminUrl === process.env.TEST_DATABASE_URL;
  const from = copy ? ` template ${quoteIdent(template)}` : "";
  await withAdmin(adminUrl, (sql) => sql.unsafe(`create database ${quoteIdent(name)}${from}`));
  const url = databaseUrl(adminUrl, name);
  let dropped = false;
  return {
    config: { kind: "postgres", url, poolMax: options.poolMax ?? 5 },
    driver: "postgres",
    name,
    url,
    async drop() {
      if (dropped) return;
      dropped = true;
      // WITH (FORCE) ends connections a failed test may have left open (PostgreSQL 13+).
      await withAdmin(adminUrl, (sql) => sql.unsafe(`drop database if exists ${quoteIdent(name)} with (force)`));
    },
  };
}

async function withAdmin<T>(adminUrl: string, run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
