import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";

/**
 * Copying the app's tables from the embedded database (PGlite) into PostgreSQL with COPY, in
 * foreign-key order, plus every sequence's position. Generic: it knows tables, not the business.
 * The job queue's schema (`pgboss`) and the migrations journal (`drizzle`) are never copied: the
 * target gets its own journal from the migrations, and the queue recreates its schedules at start.
 */

/** Schemas that are not the app's data. */
const SKIPPED_SCHEMAS = ["pg_catalog", "information_schema", "pgboss", "drizzle"];
/** Rows are read from PGlite in slices of this many 8 kB pages (~32 MB), not a whole table in memory. */
const PAGES_PER_SLICE = 4096;

export type TableLayout = {
  schema: string;
  name: string;
  /** Columns in order, without generated columns (PostgreSQL computes those). */
  columns: { name: string; type: string }[];
  pages: number;
};

export type SequenceState = { schema: string; name: string; lastValue: string | null };

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function qualified(t: { schema: string; name: string }): string {
  return `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;
}

function skippedSchemasSql(): string {
  return `n.nspname not in (${SKIPPED_SCHEMAS.map((s) => `'${s}'`).join(", ")}) and n.nspname not like 'pg\\_%'`;
}

const TABLES_SQL = `
  select c.oid::int as oid, n.nspname as schema, c.relname as name,
         (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'r' and ${skippedSchemasSql()}
  order by n.nspname, c.relname`;

const COLUMNS_SQL = `
  select a.attrelid::int as oid, a.attname as name, format_type(a.atttypid, a.atttypmod) as type
  from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
  where c.relkind = 'r' and ${skippedSchemasSql()} and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
  order by a.attrelid, a.attnum`;

const FOREIGN_KEYS_SQL = `
  select conrelid::int as child, confrelid::int as parent from pg_constraint where contype = 'f'`;

type Query = <T>(text: string) => Promise<T[]>;

export function pgliteQuery(client: PGlite): Query {
  return async <T>(text: string) => (await client.query<T>(text)).rows;
}

export function postgresQuery(sql: postgres.Sql | postgres.TransactionSql): Query {
  return async <T>(text: string) => (await sql.unsafe(text)) as unknown as T[];
}

/** The app's tables, parents before children (foreign keys), each with its columns. */
export async function readTableLayout(query: Query): Promise<TableLayout[]> {
  const tables = await query<{ oid: number; schema: string; name: string; pages: number }>(TABLES_SQL);
  const columns = await query<{ oid: number; name: string; type: string }>(COLUMNS_SQL);
  const keys = await query<{ child: number; parent: number }>(FOREIGN_KEYS_SQL);
  const byOid = new Map(tables.map((t) => [t.oid, t]));
  const parents = new Map<number, Set<number>>(tables.map((t) => [t.oid, new Set<number>()]));
  for (const { child, parent } of keys) {
    // A table referring to itself is ordered within one COPY statement (its checks run at the end).
    if (child !== parent && byOid.has(child) && byOid.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: number[] = [];
  const placed = new Set<number>();
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (t) => !placed.has(t.oid) && [...(parents.get(t.oid) ?? [])].every((p) => placed.has(p)),
    );
    if (ready.length === 0) {
      const left = tables.filter((t) => !placed.has(t.oid)).map((t) => t.name);
      throw new Error(`foreign keys form a cycle between ${left.join(", ")}: no copy order exists`);
    }
    for (const t of ready) {
      placed.add(t.oid);
      ordered.push(t.oid);
    }
  }
  return ordered.map((oid) => {
    const t = byOid.get(oid) as { schema: string; name: string; pages: number };
    return {
      schema: t.schema,
      name: t.name,
      pages: Number(t.pages),
      columns: columns.filter((c) => c.oid === oid).map((c) => ({ name: c.name, type: c.type })),
    };
  });
}

/** Differences between two layouts, by table and column ("" when they match). */
export function describeLayoutDifference(source: TableLayout[], target: TableLayout[]): string {
  const describe = (layout: TableLayout[]) =>
    new Map(layout.map((t) => [`${t.schema}.${t.name}`, t.columns.map((c) => `${c.name} ${c.type}`).join(", ")]));
  const a = describe(source);
  const b = describe(target);
  const problems: string[] = [];
  for (const [name, cols] of a) {
    if (!b.has(name)) problems.push(`table ${name} is missing in the target`);
    else if (b.get(name) !== cols)
      problems.push(`table ${name} has other columns (source: ${cols}; target: ${b.get(name)})`);
  }
  for (const name of b.keys()) if (!a.has(name)) problems.push(`table ${name} exists only in the target`);
  return problems.join("; ");
}

export type TargetState =
  | { kind: "empty" }
  | { kind: "app-schema"; applied: number; relations: string[] }
  | { kind: "other"; relations: string[] };

/**
 * What the target database holds before anything is written: its relations outside the system
 * schemas (tables, views, sequences), leaving out what extensions own.
 */
export async function inspectTarget(sql: postgres.Sql): Promise<TargetState> {
  const relations = await sql<{ name: string }[]>`
    select n.nspname || '.' || c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
      and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      and not exists (
        select 1 from pg_depend d
        where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e'
      )
    order by 1`;
  if (relations.length === 0) return { kind: "empty" };
  const names = relations.map((r) => r.name);
  if (names.includes("drizzle.__drizzle_migrations")) {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    return { kind: "app-schema", applied: Number(row?.n ?? 0), relations: names };
  }
  return { kind: "other", relations: names };
}

export async function countRows(query: Query, layout: TableLayout[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const t of layout) {
    const [row] = await query<{ n: number }>(`select count(*)::bigint::text as n from ${qualified(t)}`);
    counts.set(qualified(t), Number(row?.n ?? 0));
  }
  return counts;
}

/**
 * Copies one table: COPY … TO '/dev/blob' on PGlite (a slice of pages at a time, by ctid range) into
 * COPY … FROM STDIN on PostgreSQL. Text format: the same on every server version.
 */
export async function copyTable(source: PGlite, target: postgres.TransactionSql, table: TableLayout): Promise<number> {
  const columns = table.columns.map((c) => quoteIdent(c.name)).join(", ");
  const slices =
    table.pages <= PAGES_PER_SLICE
      ? [`copy ${qualified(table)} (${columns}) to '/dev/blob'`]
      : Array.from({ length: Math.ceil((table.pages + 1) / PAGES_PER_SLICE) }, (_, i) => {
          const from = i * PAGES_PER_SLICE;
          const upTo = from + PAGES_PER_SLICE;
          // The last slice is open-ended: rows written after pages were counted are not lost.
          const range =
            (i + 1) * PAGES_PER_SLICE > table.pages
              ? `ctid >= '(${from},0)'::tid`
              : `ctid >= '(${from},0)'::tid and ctid < '(${upTo},0)'::tid`;
          return `copy (select ${columns} from ${qualified(table)} where ${range}) to '/dev/blob'`;
        });
  let bytes = 0;
  for (const statement of slices) {
    const result = await source.query(statement);
    if (!result.blob) throw new Error(`PGlite returned no data for ${qualified(table)}`);
    const data = Buffer.from(await result.blob.arrayBuffer());
    if (data.length === 0) continue;
    bytes += data.length;
    const writable = await target.unsafe(`copy ${qualified(table)} (${columns}) from stdin`).writable();
    await pipeline(Readable.from([data]), writable);
  }
  return bytes;
}

export async function readSequences(query: Query): Promise<SequenceState[]> {
  const rows = await query<{ schema: string; name: string; last_value: string | null }>(`
    select schemaname as schema, sequencename as name, last_value::text as last_value
    from pg_sequences where schemaname not in (${SKIPPED_SCHEMAS.map((s) => `'${s}'`).join(", ")})`);
  return rows.map((r) => ({ schema: r.schema, name: r.name, lastValue: r.last_value }));
}

/**
 * Puts each sequence where the source left it, and never below the largest value of the column that
 * owns it (serial and identity columns), so the next insert on PostgreSQL cannot collide.
 */
export async function restoreSequences(target: postgres.TransactionSql, sequences: SequenceState[]): Promise<number> {
  const owners = await target<
    { schema: string; sequence: string; table_schema: string; table: string; column: string }[]
  >`
    select sn.nspname as schema, s.relname as sequence, tn.nspname as table_schema, t.relname as table, a.attname as column
    from pg_depend d
    join pg_class s on s.oid = d.objid and s.relkind = 'S'
    join pg_namespace sn on sn.oid = s.relnamespace
    join pg_class t on t.oid = d.refobjid
    join pg_namespace tn on tn.oid = t.relnamespace
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')`;
  let set = 0;
  for (const seq of sequences) {
    const owner = owners.find((o) => o.schema === seq.schema && o.sequence === seq.name);
    const largest = owner
      ? await target.unsafe(
          `select max(${quoteIdent(owner.column)})::text as v from ${qualified({ schema: owner.table_schema, name: owner.table })}`,
        )
      : [];
    const candidates = [seq.lastValue, (largest[0] as { v: string | null } | undefined)?.v ?? null]
      .filter((v): v is string => v !== null)
      .map((v) => BigInt(v));
    if (candidates.length === 0) continue;
    const value = candidates.reduce((a, b) => (a > b ? a : b));
    await target.unsafe(`select setval('${qualified(seq).replace(/'/g, "''")}', ${value.toString()}, true)`);
    set++;
  }
  return set;
}
