import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DatabaseHandle, migrationsFolder } from "@platform/db/client";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";

export type MigrationsBefore = {
  /** Migrates a fresh database as the older release left it (every migration before the named one). */
  migrate(handle: DatabaseHandle): Promise<void>;
  remove(): void;
};

/**
 * A copy of drizzle/ holding every migration before the one whose tag ends in `tagSuffix` (e.g.
 * "_webhook-claim-hot"): for a migration's own test, which writes rows as an older release had them, then runs
 * `handle.migrate()` (this release's migrations) and checks what became of them.
 */
export function migrationsBefore(tagSuffix: string): MigrationsBefore {
  const folder = mkdtempSync(path.join(tmpdir(), "migrations-before-"));
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  if (at <= 0) throw new Error(`no migration after the first ends in ${tagSuffix}`);
  const entries = journal.entries.slice(0, at);
  mkdirSync(path.join(folder, "meta"));
  writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  const files = new Set(entries.map((e) => `${e.tag}.sql`));
  for (const file of readdirSync(migrationsFolder)) {
    if (files.has(file)) copyFileSync(path.join(migrationsFolder, file), path.join(folder, file));
  }
  return {
    async migrate(handle) {
      const config = { migrationsFolder: folder };
      if (handle.driver === "pglite") await migratePglite(handle.db as never, config);
      else await migratePostgres(handle.db as never, config);
    },
    remove() {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
