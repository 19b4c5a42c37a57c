import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { reportDatabaseOutcome, setDatabaseProbe } from "@platform/db/availability";
import { acquireDataDirLock } from "@platform/db/data-dir-lock";
import { registerHoldable, withHeldTransactions } from "@platform/db/held-connection";
import * as schema from "@platform/db/schema/index";
import { instrumentPostgresClient } from "@platform/metrics";
import { type SQL, sql } from "drizzle-orm";
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

export type Schema = typeof schema;
/**
 * One type for both drivers: route code never knows which one it runs on. A transaction is one too:
 * `db.transaction` hands its callback a PgTransaction, which extends PgDatabase (PGlite and postgres-js
 * alike), so a function that takes a Database takes `tx` as it is — no cast.
 */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseConfig =
  | { kind: "postgres"; url: string; poolMax: number; prepare?: boolean }
  | {
      kind: "pglite";
      dataDir: string;
      /**
       * Tests only: an archive of a data directory (PGlite's `dumpDataDir`) that an empty in-memory database
       * starts from, instead of running initdb (platform/testing/pglite-template.ts).
       */
      startFrom?: string;
    };

/** How to reach the same database outside Drizzle (the job queue opens its own connections). */
export type DatabaseConnection = { driver: "postgres"; url: string } | { driver: "pglite"; client: PGlite };

export type DatabaseHandle = {
  db: Database;
  driver: "postgres" | "pglite";
  connection: DatabaseConnection;
  migrate(): Promise<void>;
  migrationStatus(): Promise<{ applied: number; expected: number; upToDate: boolean }>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
};

// Two levels up from platform/db/ (source) and from build/server/ (bundle): the repo root.
const here = path.dirname(fileURLToPath(import.meta.url));
export const migrationsFolder = [path.resolve(here, "../../drizzle"), path.resolve(process.cwd(), "drizzle")].find(
  (dir) => existsSync(path.join(dir, "meta/_journal.json")),
) as string;

function expectedMigrationCount(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** This instance's request pool as pg_stat_activity names it (≤ 63 characters). */
export const APPLICATION_NAME = `han-living-app:${hostname()}:${process.pid}`.slice(0, 63);

/** How long a readiness ping may take before the database counts as unreachable. */
export const PING_TIMEOUT_MS = 2_000;

// Any constant works; it only has to be the same in every instance.
const MIGRATION_LOCK_KEY = 7_274_019_311;

export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  if (!migrationsFolder) throw new Error("Migrations folder (drizzle/) not found");
  const expected = expectedMigrationCount();
  /** How many migrations the database has applied (0 before the first migration). */
  const status = async () => {
    const exists = rowsOf<{ present: boolean }>(
      await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`),
    );
    if (!exists[0]?.present) return { applied: 0, expected, upToDate: false };
    const counted = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
    );
    const applied = Number(counted[0]?.n ?? 0);
    return { applied, expected, upToDate: applied >= expected };
  };
  let db: Database;
  let migrate: () => Promise<void>;
  let close: () => Promise<void>;
  let driver: DatabaseHandle["driver"];
  let connection: DatabaseConnection;

  if (config.kind === "postgres") {
    // Named per instance, so /metrics can count this pool's connections in pg_stat_activity; every
    // statement is timed for the query-duration histogram.
    const prepare = config.prepare ?? true;
    const raw = postgres(config.url, {
      max: config.poolMax,
      // Off only behind a transaction-mode pooler that cannot keep prepared statements (DATABASE_PREPARE).
      prepare,
      onnotice: () => {},
      // Fail a request in seconds, not the driver's default 30, when the server cannot be reached.
      connect_timeout: 5,
      connection: { application_name: APPLICATION_NAME },
      // No array-type query on every new connection. postgres.js 3.4 leaves that query's promise
      // unhandled when the connection drops during it (an outage while the pool reconnects: an
      // unhandled rejection, which ends a Node process). Drizzle parses and writes array columns itself.
      fetch_types: false,
    });
    // A POS write's transaction may run on a connection it holds, BEGIN and COMMIT pipelined (ADR 039).
    const held = withHeldTransactions(raw);
    const client = instrumentPostgresClient(prepare ? preparingEveryStatement(held) : held, reportDatabaseOutcome);
    const pgDb = drizzlePostgres(client, { schema });
    registerHoldable(pgDb, raw, prepare);
    // Migrations run once: their statements are not worth keeping prepared on a pooled connection.
    const migrationDb = drizzlePostgres(instrumentPostgresClient(raw, reportDatabaseOutcome), { schema });
    db = pgDb as unknown as Database;
    driver = "postgres";
    connection = { driver, url: config.url };
    // Several instances may start together: an advisory lock lets one migrate at a time. The lock
    // is held on its own connection outside the pool, so a pool of one can still run the migrations.
    migrate = async () => {
      const lockClient = postgres(config.url, { max: 1, onnotice: () => {} });
      try {
        await lockClient`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
        try {
          await migratePostgres(migrationDb, { migrationsFolder });
        } finally {
          await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
        }
      } finally {
        await lockClient.end({ timeout: 5 });
      }
    };
    close = async () => {
      setDatabaseProbe(null);
      await raw.end({ timeout: 5 });
    };
  } else {
    const onDisk = !config.dataDir.startsWith("memory://");
    if (onDisk) await mkdir(config.dataDir, { recursive: true });
    // One process per data directory: a second app (or the move/backup tools) is refused here.
    const lock = onDisk ? acquireDataDirLock(path.resolve(config.dataDir)) : null;
    // relaxedDurability: after every query PGlite awaits a "sync to storage" behind a mutex. On
    // Node the data directory is mounted with NODEFS, whose sync is a no-op (every write already
    // went to the file), so the wait only costs time: ~0.45 ms per query, which was a third of a
    // simple query and most of a logged-in page's database time. Durability is unchanged.
    let client: PGlite;
    let embedded: Awaited<ReturnType<typeof loadEmbeddedDriver>>;
    try {
      embedded = await loadEmbeddedDriver();
      if (config.startFrom && onDisk) throw new Error("startFrom is for an in-memory database (memory://)");
      const loadDataDir = config.startFrom ? new Blob([await readFile(config.startFrom)]) : undefined;
      client = await embedded.PGlite.create(config.dataDir, { relaxedDurability: true, loadDataDir });
    } catch (error) {
      lock?.release();
      throw error;
    }
    embeddedClients.add(client);
    const liteDb = embedded.drizzle(client, { schema });
    db = liteDb as unknown as Database;
    driver = "pglite";
    connection = { driver, client };
    migrate = () => embedded.migrate(liteDb, { migrationsFolder });
    close = async () => {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    };
  }

  // Every start runs this: when every migration is applied already (the usual case), two small queries on
  // the pool answer it, without a connection of its own, the advisory lock and the migrator's reads.
  const runMigrations = migrate;
  migrate = async () => {
    if ((await status()).upToDate) return;
    await runMigrations();
  };
  const ping = async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // Bounded: readiness must answer within seconds even when connecting hangs.
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("database ping timed out")), PING_TIMEOUT_MS);
      });
      await Promise.race([db.execute(sql`select 1`), timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  if (driver === "postgres") setDatabaseProbe(ping);
  return {
    db,
    driver,
    connection,
    migrate,
    migrationStatus: status,
    ping,
    close,
  };
}

/**
 * Drizzle asks postgres.js for a named (prepared) statement only for queries built with `.prepare(name)`;
 * every other query went out unnamed, which postgres.js sends as Parse + Describe, waits for the parameter
 * types, then Bind + Execute: two round trips, and PostgreSQL parsed and planned the text every time. With
 * `prepare: true` on the call, the driver keeps one prepared statement per distinct query text and types
 * on each connection (its default for its own tagged queries): one round trip, no parse, a cached plan.
 * Query texts are fixed per call site (values are always parameters), so the set of statements is bounded.
 */
function preparingEveryStatement(client: postgres.Sql): postgres.Sql {
  const wrap = (target: postgres.Sql): postgres.Sql =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (prop === "unsafe" && typeof value === "function") {
          return (query: string, params?: unknown[], options?: { prepare?: boolean }) =>
            value.call(obj, query, params, { ...options, prepare: true });
        }
        if ((prop === "begin" || prop === "savepoint") && typeof value === "function") {
          return (...args: unknown[]) => {
            const callback = args.findIndex((a) => typeof a === "function");
            if (callback >= 0) {
              const inner = args[callback] as (tx: postgres.Sql) => unknown;
              args[callback] = (tx: postgres.Sql) => inner(wrap(tx));
            }
            return value.apply(obj, args);
          };
        }
        return value;
      },
    });
  return wrap(client);
}

/** postgres-js returns an array, PGlite an object with `rows`: read both the same way. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * The embedded database's code (PGlite's WebAssembly build, Drizzle's driver for it), loaded only when the
 * embedded database is opened: a start on PostgreSQL spent ~40 ms importing it for nothing (ADR 030).
 */
async function loadEmbeddedDriver() {
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  return { PGlite, drizzle, migrate };
}

/** The embedded clients this module opened (PGlite's class is not loaded on PostgreSQL to test against). */
const embeddedClients = new WeakSet<PGlite>();
const isEmbeddedClient = (client: unknown): client is PGlite =>
  typeof client === "object" && client !== null && embeddedClients.has(client as PGlite);

const dialect = new PgDialect();
const prepared = new WeakMap<PGlite, Map<string, Promise<unknown>>>();

/**
 * Runs a hot, complex read as a server-side prepared statement on the embedded database, so
 * PostgreSQL plans it once per process instead of on every request (the member center's summary:
 * planning its eight subqueries was most of its ~3 ms; executing it is well under 1 ms). PGlite is one
 * session, so `PREPARE` holds for the life of the process; `EXECUTE` takes no bind parameters,
 * so the values go in as literals — only numbers and strings, quoted here. On PostgreSQL every
 * statement is already prepared per connection (preparingEveryStatement): the query runs as it is.
 */
export async function executePrepared<T>(db: Database, name: string, query: SQL): Promise<T[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`prepared statement name must be an identifier: ${name}`);
  const client = (db as { $client?: unknown }).$client;
  if (!isEmbeddedClient(client)) return rowsOf<T>(await db.execute(query));
  const { sql: text, params } = dialect.sqlToQuery(query);
  // The statement's text is part of its name: a changed query (a reloaded module in development,
  // on the same database session) is prepared anew instead of running the old one.
  const statement = `${name}_${createHash("sha256").update(text).digest("hex").slice(0, 12)}`;
  let statements = prepared.get(client);
  if (!statements) {
    statements = new Map();
    prepared.set(client, statements);
  }
  let ready = statements.get(statement);
  if (!ready) {
    ready = client.exec(`prepare ${statement} as ${text}`).catch((error: { code?: string }) => {
      // 42P05 duplicate_prepared_statement: prepared by an earlier instance of this module.
      if (error?.code !== "42P05") throw error;
    });
    statements.set(statement, ready);
    ready.catch(() => statements?.delete(statement));
  }
  await ready;
  const args = params.map(literal).join(", ");
  return (await client.query<T>(args ? `execute ${statement} (${args})` : `execute ${statement}`)).rows;
}

function literal(value: unknown): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string") return `'${value.replace(/'/g, "''")}'`;
  throw new Error(`executePrepared takes numbers and strings, not ${typeof value}`);
}
