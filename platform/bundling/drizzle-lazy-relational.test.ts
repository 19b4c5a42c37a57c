import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as schema from "@platform/db/schema/index";
import { PgDatabase, PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzleLazyRelationalPatch } from "./drizzle-lazy-relational";
import { applyPatches } from "./server-patches";

// The ESM file the server build bundles, patched, written beside it (its relative imports resolve there).
const dbFile = path.join(path.dirname(createRequire(import.meta.url).resolve("drizzle-orm")), "pg-core", "db.js");
const patchedFile = path.join(path.dirname(dbFile), `db.lazy-relational-test-${process.pid}.js`);
type Constructor = new (dialect: PgDialect, session: never, schema: never) => { query: unknown };
let Patched: Constructor;

beforeAll(async () => {
  const patched = applyPatches([drizzleLazyRelationalPatch], readFileSync(dbFile, "utf8"), dbFile, (message) => {
    throw new Error(message);
  });
  if (!patched) throw new Error("the patch did not apply to drizzle-orm/pg-core/db.js");
  writeFileSync(patchedFile, patched.code.replace(/^\/\/# sourceMappingURL=.*$/m, ""));
  Patched = (await import(pathToFileURL(patchedFile).href)).PgDatabase as Constructor;
});

afterAll(() => rmSync(patchedFile, { force: true }));

// What drizzle() hands PgDatabase: the schema's relational config (as drizzle-orm/postgres-js/driver.js builds it).
async function relationalSchema() {
  const { createTableRelationsHelpers, extractTablesRelationalConfig } = await import("drizzle-orm");
  const config = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
  return { fullSchema: schema, schema: config.tables, tableNamesMap: config.tableNamesMap };
}

describe("the lazy relational query builders (server build)", () => {
  it("gives db.query the same tables and builders as the published constructor, made on first read only", async () => {
    const dialect = new PgDialect();
    const session = {} as never;
    const config = await relationalSchema();
    const published = new (PgDatabase as unknown as Constructor)(dialect, session, config as never);
    const lazy = new Patched(dialect, session, config as never);
    expect(Object.getOwnPropertyDescriptor(lazy, "query")?.get).toBeTypeOf("function");
    const query = lazy.query as Record<string, unknown>;
    expect(Object.keys(query).sort()).toEqual(Object.keys(published.query as object).sort());
    expect(Object.keys(query).length).toBeGreaterThan(10);
    for (const [table, builder] of Object.entries(published.query as Record<string, unknown>)) {
      expect((query[table] as object).constructor).toBe((builder as object).constructor);
      expect(query[table]).toEqual(builder);
    }
    // Kept once made; an assignment replaces it, as it replaced the field.
    expect(lazy.query).toBe(query);
    const other = {};
    lazy.query = other;
    expect(lazy.query).toBe(other);
    // Without a schema: an empty object, as before.
    expect(new Patched(dialect, session, undefined as never).query).toEqual({});
  });
});
