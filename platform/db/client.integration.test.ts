import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DatabaseHandle, executePrepared, migrationsFolder, openDatabase, rowsOf } from "@platform/db/client";
import {
  createTestDatabase,
  PGLITE_TEMPLATE_ENV,
  type TestDatabase,
  testDatabaseDriver,
} from "@platform/testing/database";
import { writeDataDirArchive } from "@platform/testing/pglite-template";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Runs on PGlite in memory, or on PostgreSQL when TEST_DATABASE_URL is set (a fresh database per file). */
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};
const expected = journal.entries.length;

async function appliedRows(handle: DatabaseHandle): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
  );
  return Number(rows[0]?.n);
}

async function tableExists(handle: DatabaseHandle, name: string): Promise<boolean> {
  const rows = rowsOf<{ present: boolean }>(
    await handle.db.execute(sql`select to_regclass(${`public.${name}`}) is not null as present`),
  );
  return rows[0]?.present === true;
}

describe("openDatabase", () => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    testDb = await createTestDatabase({ label: "client" });
    handle = await openDatabase(testDb.config);
  });

  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });

  it("uses the driver the test database asks for", () => {
    expect(handle.driver).toBe(testDb.driver);
    expect(expected).toBeGreaterThan(0);
  });

  it("pings", async () => {
    expect(await handle.ping()).toBe(true);
  });

  it("runs a prepared read with the same answer as a plain one, again and again, quoting strings", async () => {
    const query = (text: string, n: number) =>
      sql`select ${text}::text as text, ${n}::int + 1 as next, length(${text}) as len`;
    const tricky = "O'Brien'); drop table diagnostic_probe; --";
    for (const [text, n] of [
      ["plain", 1],
      [tricky, 41],
      ["林雅婷", 7],
    ] as const) {
      const expectedRows = rowsOf(await handle.db.execute(query(text, n)));
      expect(await executePrepared(handle.db, "client_test_probe", query(text, n))).toEqual(expectedRows);
      expect(expectedRows[0]).toMatchObject({ text, next: n + 1 });
    }
    // A statement name that is not an identifier never reaches SQL.
    await expect(executePrepared(handle.db, "x; drop", query("a", 1))).rejects.toThrow(/identifier/);
  });

  it("reports pending migrations on a fresh database", async () => {
    expect(await handle.migrationStatus()).toEqual({ applied: 0, expected, upToDate: false });
    expect(await tableExists(handle, "diagnostic_probe")).toBe(false);
  });

  it("migrates, and migrating again is a no-op", async () => {
    await handle.migrate();
    expect(await handle.migrationStatus()).toEqual({ applied: expected, expected, upToDate: true });
    expect(await tableExists(handle, "diagnostic_probe")).toBe(true);
    expect(await appliedRows(handle)).toBe(expected);

    await handle.db.execute(sql`insert into diagnostic_probe (label) values ('kept across migrate')`);
    await handle.migrate();
    expect(await handle.migrationStatus()).toEqual({ applied: expected, expected, upToDate: true });
    expect(await appliedRows(handle)).toBe(expected);
    const rows = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from diagnostic_probe`));
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it("runs statements through both drivers alike", async () => {
    const rows = rowsOf<{ answer: number; zone: string }>(
      await handle.db.execute(sql`select 41 + 1 as answer, 'Asia/Taipei'::text as zone`),
    );
    expect(rows).toEqual([{ answer: 42, zone: "Asia/Taipei" }]);
  });

  it("stops answering pings once closed", async () => {
    const other = await openDatabase(testDb.config);
    expect(await other.ping()).toBe(true);
    await other.close();
    expect(await other.ping()).toBe(false);
  });
});

// Only PostgreSQL has several app instances on one database; a PGlite directory belongs to one process.
if (testDatabaseDriver() === "postgres") {
  describe("concurrent migrations on PostgreSQL", () => {
    it("let two instances migrate one fresh database at the same time (advisory lock)", async () => {
      const fresh = await createTestDatabase({ label: "concurrent" });
      const first = await openDatabase(fresh.config);
      const second = await openDatabase(fresh.config);
      try {
        const results = await Promise.allSettled([first.migrate(), second.migrate()]);
        expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : r.status))).toEqual([
          "fulfilled",
          "fulfilled",
        ]);
        for (const handle of [first, second]) {
          expect(await handle.migrationStatus()).toEqual({ applied: expected, expected, upToDate: true });
        }
        expect(await appliedRows(first)).toBe(expected);
      } finally {
        await first.close();
        await second.close();
        await fresh.drop();
      }
    });

    it("migrates with a pool of one connection (DATABASE_POOL_MAX=1)", async () => {
      const fresh = await createTestDatabase({ label: "pool_of_one", poolMax: 1 });
      const handle = await openDatabase(fresh.config);
      try {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<string>((resolve) => {
          timer = setTimeout(() => resolve("still waiting after 10 s"), 10_000);
        });
        expect(await Promise.race([handle.migrate().then(() => "migrated"), timeout])).toBe("migrated");
        clearTimeout(timer);
        expect(await handle.migrationStatus()).toEqual({ applied: expected, expected, upToDate: true });
      } finally {
        await handle.close();
        await fresh.drop();
      }
    });
  });
}

// The embedded database started from an archive (the integration run's template, platform/testing/pglite-template.ts).
if (testDatabaseDriver() === "pglite") {
  describe("an in-memory PGlite database started from an archive", () => {
    it("has the archived database's migrations and rows, and its own writes stay its own", async () => {
      const source = await openDatabase({ kind: "pglite", dataDir: "memory://" });
      const dir = mkdtempSync(path.join(tmpdir(), "pglite-archive-"));
      const archive = path.join(dir, "db.tar");
      try {
        await source.migrate();
        await source.db.execute(sql`create table archived_probe (note text)`);
        await source.db.execute(sql`insert into archived_probe values ('林雅婷')`);
        await writeDataDirArchive(source, archive);

        const [one, two] = [
          await openDatabase({ kind: "pglite", dataDir: "memory://", startFrom: archive }),
          await openDatabase({ kind: "pglite", dataDir: "memory://", startFrom: archive }),
        ];
        try {
          expect(await one.migrationStatus()).toEqual({ applied: expected, expected, upToDate: true });
          expect(rowsOf(await one.db.execute(sql`select note from archived_probe`))).toEqual([{ note: "林雅婷" }]);
          await one.db.execute(sql`insert into archived_probe values ('only in one')`);
          expect(rowsOf(await two.db.execute(sql`select note from archived_probe`))).toEqual([{ note: "林雅婷" }]);
        } finally {
          await one.close();
          await two.close();
        }
      } finally {
        await source.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("is refused for a data directory on disk", async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "pglite-disk-"));
      try {
        await expect(
          openDatabase({ kind: "pglite", dataDir: path.join(dir, "db"), startFrom: path.join(dir, "db.tar") }),
        ).rejects.toThrow(/in-memory/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("is what a migrated test database starts from in this run", async () => {
      const testDb = await createTestDatabase({ label: "from_template", migrated: true });
      expect(testDb.config).toMatchObject({ kind: "pglite", startFrom: process.env[PGLITE_TEMPLATE_ENV] });
      expect(process.env[PGLITE_TEMPLATE_ENV]).toBeTruthy();
      const handle = await openDatabase(testDb.config);
      try {
        expect(await handle.migrationStatus()).toEqual({ applied: expected, expected, upToDate: true });
      } finally {
        await handle.close();
      }
    });
  });
}
