import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as drizzle from "drizzle-orm";
import * as pgCore from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entityKindsPatch } from "./drizzle-entity-kinds";
import { applyPatches } from "./server-patches";

type Is = (value: unknown, type: unknown) => boolean;

// The ESM file the server build bundles (drizzle-orm's "exports" hides its package.json).
const entityFile = path.join(path.dirname(createRequire(import.meta.url).resolve("drizzle-orm")), "entity.js");
const { entityKind, is: publishedIs, Param, Placeholder, sql, StringChunk, Name } = drizzle;

let dir: string;
let patchedIs: Is;

beforeAll(async () => {
  const patched = applyPatches([entityKindsPatch], readFileSync(entityFile, "utf8"), entityFile, (message) => {
    throw new Error(message);
  });
  if (!patched) throw new Error("the patch did not apply to drizzle-orm/entity.js");
  dir = mkdtempSync(path.join(os.tmpdir(), "drizzle-is-"));
  writeFileSync(path.join(dir, "entity.mjs"), patched.code.replace(/^\/\/# sourceMappingURL=.*$/m, ""));
  patchedIs = (await import(pathToFileURL(path.join(dir, "entity.mjs")).href)).is as Is;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every class Drizzle exports that is()'s second argument may be (it has its own entity kind). */
function entityClasses(): unknown[] {
  const classes = new Set<unknown>();
  for (const module of [drizzle, pgCore]) {
    for (const value of Object.values(module)) {
      if (typeof value === "function" && Object.hasOwn(value, entityKind)) classes.add(value);
    }
  }
  return [...classes];
}

function sampleValues(): unknown[] {
  const member = pgCore.pgTable("member", {
    id: pgCore.uuid("id").primaryKey(),
    name: pgCore.text("name"),
    points: pgCore.integer("points"),
    at: pgCore.timestamp("at", { withTimezone: true }),
  });
  const query = sql`select ${member.id} from ${member} where ${member.points} > ${1}`;
  const builder = new pgCore.QueryBuilder().select().from(member).where(drizzle.eq(member.name, "x"));
  // A class from "another copy" of Drizzle: no instanceof, the same kind along its chain.
  // biome-ignore lint/complexity/noStaticOnlyClass: a stand-in for a Drizzle entity class
  class ForeignSql {
    static readonly [entityKind] = "SQL";
  }
  class ForeignChild extends ForeignSql {}
  // Kinds that differ along the chain: is(…, Column) is true only by the walk up to the parent.
  // biome-ignore lint/complexity/noStaticOnlyClass: a stand-in for a Drizzle entity class
  class ForeignColumn {
    static readonly [entityKind]: string = "Column";
  }
  class ForeignPgColumn extends ForeignColumn {
    static readonly [entityKind]: string = "PgColumn";
  }
  return [
    query,
    ...query.queryChunks,
    new Param(1),
    new Placeholder("p"),
    new StringChunk("x"),
    new Name("n"),
    sql.raw("now()"),
    member,
    member.id,
    member.name,
    member.points,
    member.at,
    pgCore.alias(member, "m2"),
    builder,
    builder.as("sub"),
    drizzle.eq(member.id, "x"),
    new ForeignSql(),
    new ForeignChild(),
    new ForeignPgColumn(),
    Object.create(ForeignChild.prototype),
    {},
    [],
    new Date(),
    "text",
    1,
    null,
    undefined,
  ];
}

describe("Drizzle's is() with remembered entity kinds (server build)", () => {
  it("answers as the published is() for every entity class and every kind of value, twice", () => {
    const classes = entityClasses();
    const values = sampleValues();
    expect(classes.length).toBeGreaterThan(100);
    let yes = 0;
    for (let round = 0; round < 2; round++) {
      for (const value of values) {
        for (const type of classes) {
          const expected = publishedIs(value, type as never);
          expect({ value, type, answer: patchedIs(value, type) }).toEqual({ value, type, answer: expected });
          if (expected) yes += 1;
        }
      }
    }
    // The comparison covers both answers (a broken patch that always said no would fail above).
    expect(yes).toBeGreaterThan(50);
  });

  it("still refuses a second argument that is not a Drizzle entity", () => {
    class NotAnEntity {}
    expect(() => patchedIs(new Param(1), NotAnEntity)).toThrow(/doesn't look like a Drizzle entity/);
  });
});
