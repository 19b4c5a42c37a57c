import type { Database } from "@platform/db/client";
import * as drizzle from "drizzle-orm";
import { type Placeholder, type Query, QueryPromise, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/**
 * Statements built once (ADR 060, "Later (2026-12-07, the builders)"): a hot path's statement whose text never
 * changes is compiled to its text and parameter slots when the module loads, and each call only fills the slots
 * and runs it. `tx.execute(sql`…`)` and the query builders rebuild the same text on every call (walking every
 * chunk, escaping every table and column name, encoding every parameter, and for a builder its selection too):
 * on a POS purchase that was most of Drizzle's ~16 % of the app's CPU. The text sent is the same, so postgres.js
 * reuses its prepared statement per connection as before; only the app's work to build it is gone.
 *
 * A call is lazy like Drizzle's own queries: it runs when awaited (or at `.execute()`), through the session's own
 * `prepareQuery` — the same driver path (PostgreSQL and PGlite, a transaction's connection, the metrics) and the
 * same number of turns before the statement reaches the connection as `tx.execute`, so a pipelined batch keeps
 * its order.
 */

/** A named parameter slot of a statement built once (filled from the values given at each call). */
export type Slot = Placeholder;

/** The slots of a statement, by name: `(p: Slots<"memberId" | "at">) => sql`… ${p.memberId} …`` */
export type Slots<K extends string> = { readonly [k in K]: Slot };
/**
 * The values a call gives a statement with these slots: every one (Drizzle throws on a missing slot), as the driver
 * takes it — null rather than undefined, a Date as its ISO text with a `::timestamptz` cast in the text.
 */
export type ValuesOf<K extends string> = { readonly [k in K]: unknown };
type Values = Record<string, unknown>;
/**
 * Drizzle's own ordering of a selection into the columns its row mapping reads (what every select builder's
 * `_prepare` calls; exported by drizzle-orm, marked internal in its types).
 */
const { orderSelectedFields } = drizzle as unknown as {
  orderSelectedFields(fields: Record<string, unknown>): FieldsList;
};
type FieldsList = { path: string[]; field: unknown }[];
type Preparable = {
  prepareQuery(
    query: Query,
    fields: FieldsList | undefined,
    name: string | undefined,
    isResponseInArrayMode: boolean,
  ): { execute(values: Values): Promise<unknown>; joinsNotNullableMap?: Record<string, boolean> };
};

const dialect = new PgDialect();

/** Names its slots by the properties read from it: `p.memberId` is the slot filled from `values.memberId`. */
function slots<K extends string>(): Slots<K> {
  return new Proxy({} as Slots<K>, {
    get: (_, name) => (typeof name === "string" ? sql.placeholder(name) : undefined),
  });
}

/** A database or a transaction (anything with Drizzle's session behind it). */
type Runner = Pick<Database, "execute">;

const sessionOf = (db: Runner): Preparable => (db as unknown as { session: Preparable }).session;

class Run<T> extends QueryPromise<T> {
  constructor(private readonly run: () => Promise<T>) {
    super();
  }
  execute(): Promise<T> {
    return this.run();
  }
}

export type TextStatement<K extends string> = {
  /** The statement with these values, run when awaited (or at `.execute()`): what `db.execute` answers. */
  (db: Runner, values: ValuesOf<K>): QueryPromise<unknown>;
  readonly query: Query;
};

/**
 * A statement written as SQL text, built once: `build` gets the slots (`p.name`) where its values go, and must
 * give the same SQL whatever the values (they are only ever parameters). Every value named must be given at a call
 * (`ValuesOf`).
 */
export function textStatement<K extends string>(build: (p: Slots<K>) => SQL): TextStatement<K> {
  const query = dialect.sqlToQuery(build(slots<K>()));
  const run = (db: Runner, values: ValuesOf<K>) =>
    new Run(() => sessionOf(db).prepareQuery(query, undefined, undefined, false).execute(values));
  return Object.assign(run, { query });
}

type SelectLike<R> = { toSQL(): Query; _: { result: R } };
/** What the select builder's own `_prepare` reads (Drizzle 0.45's PgSelectBase). */
type SelectInternals = {
  config: { fields: Parameters<typeof orderSelectedFields>[0] };
  joinsNotNullableMap?: Record<string, boolean>;
};

export type SelectStatement<K extends string, R> = {
  /** The rows with these values, mapped as the builder maps them; run when awaited (or at `.execute()`). */
  (db: Runner, values: ValuesOf<K>): QueryPromise<R>;
  readonly query: Query;
};

/**
 * A select written with the query builder (`new QueryBuilder()` from drizzle-orm/pg-core, values as `p.name`),
 * built once: its rows are mapped to the selection as Drizzle maps them (each column's own decoding), without
 * building the selection, the text or the parameters again (the fields and the joins' nullability are taken as the
 * builder's `_prepare` takes them).
 */
export function selectStatement<K extends string, R>(build: (p: Slots<K>) => SelectLike<R>): SelectStatement<K, R> {
  const select = build(slots<K>());
  const query = select.toSQL();
  const { config, joinsNotNullableMap } = select as unknown as SelectInternals;
  const fields = orderSelectedFields(config.fields);
  const run = (db: Runner, values: ValuesOf<K>) =>
    new Run(() => {
      const prepared = sessionOf(db).prepareQuery(query, fields, undefined, true);
      prepared.joinsNotNullableMap = joinsNotNullableMap;
      return prepared.execute(values) as Promise<R>;
    });
  return Object.assign(run, { query });
}
