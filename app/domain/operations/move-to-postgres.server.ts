import { existsSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { DataDirInUseError } from "@platform/db/data-dir-lock";
import {
  copyTable,
  countRows,
  describeLayoutDifference,
  inspectTarget,
  pgliteQuery,
  postgresQuery,
  qualified,
  quoteIdent,
  readSequences,
  readTableLayout,
  restoreSequences,
  type TableLayout,
} from "@platform/db/transfer";
import postgres from "postgres";
import { verifyAuditChain } from "../audit/audit.server";
import { checkLedger, type LedgerMismatch } from "../loyalty/ledger-check.server";

/**
 * `npm run db:move-to-postgres -- <DATABASE_URL>` (docs/operations.md, ADR 021): the embedded
 * database, stopped, into an empty PostgreSQL database. Nothing is written to the target until the
 * source and the target have both been checked; the rows go in one transaction, so a failure leaves
 * the target as empty as it was found (the migrated schema is removed again).
 */

export type MoveRefusalCode =
  | "source_missing"
  | "source_open"
  | "source_schema"
  | "ledger_broken"
  | "audit_broken"
  | "target_not_empty"
  | "target_older_schema"
  | "schema_mismatch"
  | "verification_failed";

export class MoveRefused extends Error {
  override name = "MoveRefused";
  constructor(
    readonly code: MoveRefusalCode,
    message: string,
    readonly mismatches: LedgerMismatch[] = [],
  ) {
    super(message);
  }
}

export type MoveReport = {
  tables: { name: string; rows: number }[];
  rows: number;
  bytes: number;
  sequences: number;
  members: number;
  totalPoints: number;
  /** Rows of the audit log, whose hash chain verified on the source and again on the target. */
  auditRows: number;
  /** Jobs that were waiting in the source's queue: not moved (the app recreates its schedules). */
  queuedJobsLeftBehind: { name: string; count: number }[];
  migrations: number;
  ms: number;
};

export type MoveOptions = {
  /** The PGlite data directory ($DATA_DIR/pglite). */
  sourceDataDir: string;
  targetUrl: string;
  /** Progress lines (the CLI prints them). */
  progress?: (line: string) => void;
};

function describeMismatches(mismatches: LedgerMismatch[]): string {
  const lines = mismatches
    .slice(0, 20)
    .map(
      (m) =>
        `  member ${m.memberNumber} (${m.memberId}): balance ${m.balance}, ledger sum ${m.ledgerSum}, difference ${m.difference > 0 ? "+" : ""}${m.difference}`,
    );
  if (mismatches.length > 20) lines.push(`  … and ${mismatches.length - 20} more`);
  return lines.join("\n");
}

export async function moveToPostgres(options: MoveOptions): Promise<MoveReport> {
  const started = performance.now();
  const say = options.progress ?? (() => {});
  const sourceDir = path.resolve(options.sourceDataDir);
  if (!existsSync(path.join(sourceDir, "PG_VERSION"))) {
    throw new MoveRefused(
      "source_missing",
      `No embedded database at ${sourceDir} (set DATA_DIR to its parent folder).`,
    );
  }

  let source: DatabaseHandle;
  try {
    source = await openDatabase({ kind: "pglite", dataDir: sourceDir });
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new MoveRefused("source_open", `${error.message} The move copies a stopped database only.`);
    }
    throw error;
  }
  const admin = postgres(options.targetUrl, { max: 1, onnotice: () => {} });
  let target: DatabaseHandle | null = null;
  let migrated = false;
  let layout: TableLayout[] = [];
  try {
    const pg = (source.connection as { client: PGlite }).client;
    const status = await source.migrationStatus();
    if (status.applied !== status.expected) {
      throw new MoveRefused(
        "source_schema",
        status.applied < status.expected
          ? `The embedded database has ${status.applied} of ${status.expected} migrations: start this version of the app on it once (it migrates at start), stop it, then move.`
          : `The embedded database has ${status.applied} migrations, more than this version knows (${status.expected}): move it with the newer version of the app.`,
      );
    }

    say("Checking the source's ledger (every balance against its entries)…");
    const ledger = await checkLedger(source.db);
    if (ledger.mismatches.length > 0) {
      throw new MoveRefused(
        "ledger_broken",
        `The embedded database's ledger is inconsistent for ${ledger.mismatches.length} member(s); nothing was copied:\n${describeMismatches(ledger.mismatches)}`,
        ledger.mismatches,
      );
    }

    say("Checking the source's audit log (its hash chain)…");
    const sourceAudit = await verifyAuditChain(source.db);
    if (!sourceAudit.ok) {
      throw new MoveRefused(
        "audit_broken",
        `The embedded database's audit log does not verify: row ${sourceAudit.seq} (${sourceAudit.reason}); nothing was copied. Run npm run audit:verify and look into that row first.`,
      );
    }

    say("Checking that the target database is empty…");
    const state = await inspectTarget(admin);
    if (state.kind === "app-schema") {
      throw new MoveRefused(
        state.applied < status.expected ? "target_older_schema" : "target_not_empty",
        state.applied < status.expected
          ? `The target database already has this app's schema at an older version (${state.applied} of ${status.expected} migrations). Move into a new, empty database; nothing was written.`
          : `The target database already has this app's schema (${state.relations.length} tables and sequences). Move into a new, empty database; nothing was written.`,
      );
    }
    if (state.kind === "other") {
      const sample = state.relations.slice(0, 5).join(", ");
      throw new MoveRefused(
        "target_not_empty",
        `The target database is not empty (${state.relations.length} tables and sequences, e.g. ${sample}). Move into a new, empty database; nothing was written.`,
      );
    }

    layout = await readTableLayout(pgliteQuery(pg));
    const sourceCounts = await countRows(pgliteQuery(pg), layout);
    const sequences = await readSequences(pgliteQuery(pg));
    const queuedJobsLeftBehind = await queuedJobs(pg);

    say(`Creating the schema on the target (${status.expected} migrations)…`);
    target = await openDatabase({ kind: "postgres", url: options.targetUrl, poolMax: 2 });
    migrated = true;
    await target.migrate();
    const difference = describeLayoutDifference(layout, await readTableLayout(postgresQuery(admin)));
    if (difference) throw new MoveRefused("schema_mismatch", `The schemas differ after migrating: ${difference}`);

    let bytes = 0;
    let sequencesSet = 0;
    await admin.begin(async (tx) => {
      // Rows the migrations themselves inserted (default rules, the audit chain's head) come again from the
      // source. DELETE, children first, rather than TRUNCATE: the audit log refuses TRUNCATE (it is empty here,
      // and a row trigger on an empty table never fires).
      for (const table of [...layout].reverse()) await tx.unsafe(`delete from ${qualified(table)}`);
      for (const table of layout) {
        const rows = sourceCounts.get(qualified(table)) ?? 0;
        if (rows === 0) continue;
        say(`  ${table.name}: ${rows} rows`);
        bytes += await copyTable(pg, tx, table);
      }
      sequencesSet = await restoreSequences(tx, sequences);
      const targetCounts = await countRows(postgresQuery(tx), layout);
      const wrong = layout
        .map(qualified)
        .filter((name) => targetCounts.get(name) !== sourceCounts.get(name))
        .map((name) => `${name}: source ${sourceCounts.get(name)}, target ${targetCounts.get(name)}`);
      if (wrong.length > 0) throw new MoveRefused("verification_failed", `Row counts differ: ${wrong.join("; ")}`);
    });

    say("Verifying the target's ledger…");
    const moved = await checkLedger(target.db);
    if (
      moved.mismatches.length > 0 ||
      moved.members !== ledger.members ||
      moved.totalBalance !== ledger.totalBalance ||
      moved.totalLedger !== ledger.totalLedger
    ) {
      throw new MoveRefused(
        "verification_failed",
        `The moved ledger differs from the source (members ${ledger.members} → ${moved.members}, balances ${ledger.totalBalance} → ${moved.totalBalance}, ledger ${ledger.totalLedger} → ${moved.totalLedger})${moved.mismatches.length ? `:\n${describeMismatches(moved.mismatches)}` : ""}`,
        moved.mismatches,
      );
    }
    say("Verifying the target's audit log (its hash chain)…");
    const movedAudit = await verifyAuditChain(target.db);
    if (!movedAudit.ok || movedAudit.rows !== sourceAudit.rows) {
      throw new MoveRefused(
        "verification_failed",
        movedAudit.ok
          ? `The moved audit log has ${movedAudit.rows} rows, the source ${sourceAudit.rows}.`
          : `The moved audit log does not verify: row ${movedAudit.seq} (${movedAudit.reason}).`,
      );
    }
    migrated = false; // Done: the target keeps its schema and rows.
    const tables = layout.map((t) => ({ name: qualified(t), rows: sourceCounts.get(qualified(t)) ?? 0 }));
    return {
      tables,
      rows: tables.reduce((sum, t) => sum + t.rows, 0),
      bytes,
      sequences: sequencesSet,
      members: ledger.members,
      totalPoints: ledger.totalBalance,
      auditRows: sourceAudit.rows,
      queuedJobsLeftBehind,
      migrations: status.expected,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await target?.close();
    // A failure after the schema was created: take it away again, so the target is as we found it
    // (it had no tables at all, so everything there now is ours).
    if (migrated) await removeCreatedSchema(admin, layout).catch(() => {});
    await admin.end({ timeout: 5 });
    await source.close();
  }
}

async function removeCreatedSchema(admin: postgres.Sql, layout: TableLayout[]): Promise<void> {
  if (layout.length) await admin.unsafe(`drop table if exists ${layout.map(qualified).join(", ")} cascade`);
  const leftovers = await admin<{ schema: string; name: string }[]>`
    select schemaname as schema, sequencename as name from pg_sequences where schemaname = 'public'`;
  for (const s of leftovers) await admin.unsafe(`drop sequence if exists ${qualified(s)}`);
  await admin.unsafe(`drop schema if exists ${quoteIdent("drizzle")} cascade`);
}

async function queuedJobs(pg: PGlite): Promise<{ name: string; count: number }[]> {
  const present = await pg.query<{ ok: boolean }>("select to_regclass('pgboss.job') is not null as ok");
  if (!present.rows[0]?.ok) return [];
  const rows = await pg.query<{ name: string; count: number }>(
    "select name, count(*)::int as count from pgboss.job where state in ('created', 'retry', 'active') group by name order by name",
  );
  return rows.rows;
}

export function formatMoveReport(report: MoveReport): string {
  const width = Math.max(...report.tables.map((t) => t.name.length), 10);
  const lines = [
    "Moved the embedded database to PostgreSQL.",
    "",
    ...report.tables.map((t) => `  ${t.name.padEnd(width)}  ${String(t.rows).padStart(9)}`),
    "",
    `  ${report.rows} rows in ${report.tables.length} tables (${(report.bytes / 1024 / 1024).toFixed(1)} MB), ${report.sequences} sequences set, schema at migration ${report.migrations}.`,
    `  Verified: row counts of every table; ${report.members} members, every balance equals its ledger (total ${report.totalPoints} points); the audit log's ${report.auditRows} rows verify as one hash chain.`,
  ];
  if (report.queuedJobsLeftBehind.length > 0) {
    lines.push(
      `  Not moved: ${report.queuedJobsLeftBehind.map((j) => `${j.count} × ${j.name}`).join(", ")} waiting in the job queue (recurring jobs are scheduled again at start; queued messages were not sent).`,
    );
  }
  lines.push(`  Took ${(report.ms / 1000).toFixed(1)} s.`);
  return lines.join("\n");
}
