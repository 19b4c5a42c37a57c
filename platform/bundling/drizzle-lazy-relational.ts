import type { SourcePatch } from "./server-patches.ts";

/**
 * Drizzle's relational query builders (`db.query.<table>`) made on first use, in the server build (ADR 060, "Later
 * (2026-12-07, the builders)").
 *
 * Every PgDatabase — and every transaction is one (`db.transaction` hands its callback a new PgTransaction) — made
 * one RelationalQueryBuilder per table of the schema in its constructor, used or not: on a POS purchase, whose
 * transaction never reads `tx.query`, a hundred-odd objects built and collected per request (the constructor was
 * 1.4 % of the app's busy time in a profile, besides their garbage). The patched constructor defines `query` as a
 * getter that builds the same object, with the same builders, on its first read (and keeps it); an assignment
 * replaces it, as it replaced the field before.
 *
 * drizzle-orm is pinned in package.json; if the constructor's text is not found as expected (an upgrade changed
 * it), the build fails rather than silently leaving it out.
 */
const TARGET = /[\\/]drizzle-orm[\\/]pg-core[\\/]db\.js$/;

export const EAGER_RELATIONAL_BUILDERS = `    this.query = {};
    if (this._.schema) {
      for (const [tableName, columns] of Object.entries(this._.schema)) {
        this.query[tableName] = new RelationalQueryBuilder(
          schema.fullSchema,
          this._.schema,
          this._.tableNamesMap,
          schema.fullSchema[tableName],
          columns,
          dialect,
          session
        );
      }
    }`;

const LAZY_RELATIONAL_BUILDERS = `    const relational = this._;
    let query;
    Object.defineProperty(this, "query", {
      configurable: true,
      enumerable: true,
      get() {
        if (query === undefined) {
          query = {};
          if (relational.schema) {
            for (const [tableName, columns] of Object.entries(relational.schema)) {
              query[tableName] = new RelationalQueryBuilder(
                schema.fullSchema,
                relational.schema,
                relational.tableNamesMap,
                schema.fullSchema[tableName],
                columns,
                dialect,
                session
              );
            }
          }
        }
        return query;
      },
      set(value) {
        query = value;
      },
    });`;

/** The patch (platform/bundling/server-patches.ts). */
export const drizzleLazyRelationalPatch: SourcePatch = {
  name: "the relational query builders made in PgDatabase's constructor (drizzle-orm/pg-core/db.js)",
  file: TARGET,
  find: EAGER_RELATIONAL_BUILDERS,
  apply: (code) => code.replace(EAGER_RELATIONAL_BUILDERS, LAZY_RELATIONAL_BUILDERS),
};
