import { rmSync } from "node:fs";
import path from "node:path";
import type { DatabaseConfig } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MEMBER } from "../app/domain/demo/demo-member";
import { runBackup, runRestore } from "../app/domain/operations/commands.server";
import { captureOutput } from "../app/domain/operations/testing.server";
import { type DevServer, tempDir as makeTempDir, startDevServer } from "./testing/dev-app";

/**
 * npm run db:backup / db:restore on the driver this run uses: the embedded database (files under a
 * DATA_DIR) without TEST_DATABASE_URL, PostgreSQL (pg_dump / pg_restore) with it. A development app
 * creates the demo member; it is backed up, restored into a fresh database, and the app started on the
 * restored copy lets the member log in and shows the same balance.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let dev: DevServer;
const dirs: string[] = [];
const databases: TestDatabase[] = [];

function tempDir(label: string): string {
  const dir = makeTempDir(label);
  dirs.push(dir);
  return dir;
}

/** A database to use: a fresh PostgreSQL database, or a new DATA_DIR for the embedded one. */
async function freshDatabase(): Promise<{ env: Record<string, string>; config: DatabaseConfig; dataDir: string }> {
  const dataDir = tempDir("backup-data");
  if (!onPostgres) {
    return { env: { DATA_DIR: dataDir }, config: { kind: "pglite", dataDir: path.join(dataDir, "pglite") }, dataDir };
  }
  const db = await createTestDatabase({ label: "backup" });
  databases.push(db);
  return { env: { DATA_DIR: dataDir, DATABASE_URL: db.url as string }, config: db.config, dataDir };
}

beforeAll(async () => {
  dev = await startDevServer();
}, 120_000);

afterAll(async () => {
  await dev?.close();
  for (const db of databases) await db.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function serve(target: { config: DatabaseConfig; dataDir: string }) {
  return dev.serve(
    { APP_ENV: "development", SEED_DEMO_CONTENT: "true" },
    { database: target.config, dataDir: target.dataDir },
  );
}

async function demoMemberBalance(base: string): Promise<string> {
  const login = await fetch(`${base}/member-login`, {
    method: "POST",
    body: new URLSearchParams({ method: "phone", phone: "0912-345-678", password: DEMO_MEMBER.password }),
    headers: { origin: base },
    redirect: "manual",
  });
  expect(login.status).toBe(302);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const html = await (await fetch(`${base}/member-center`, { headers: { cookie } })).text();
  const balance = /data-testid="points-balance"[^>]*>([^<]+)</.exec(html)?.[1];
  if (!balance) throw new Error("no balance on the member center");
  return balance;
}

describe(`backup and restore (${onPostgres ? "PostgreSQL: pg_dump / pg_restore" : "embedded: PGlite dump"})`, () => {
  it("restores a backup into a fresh database where the member logs in and sees the same balance", {
    timeout: 300_000,
  }, async () => {
    const original = await freshDatabase();
    const app = await serve(original);
    const balance = await demoMemberBalance(app.base);
    // The embedded database is one process's files: the app stops for its backup.
    if (!onPostgres) await app.stop();

    const file = path.join(tempDir("backups"), "nightly.hlbackup");
    const backup = captureOutput();
    expect(await runBackup([file], original.env, backup.out)).toBe(0);
    expect(backup.lines.join("\n")).toMatch(/Backup written: .*nightly\.hlbackup/);
    if (onPostgres) await app.stop();

    const fresh = await freshDatabase();
    const restore = captureOutput();
    expect(await runRestore([file], fresh.env, restore.out)).toBe(0);
    expect(restore.lines.join("\n")).toMatch(/Restored .*: 1 members, \d+ points/);

    const restored = await serve(fresh);
    try {
      expect(await demoMemberBalance(restored.base)).toBe(balance);
    } finally {
      await restored.stop();
    }

    // Restoring again over what is there now is refused, and changes nothing.
    const again = captureOutput();
    expect(await runRestore([file], fresh.env, again.out)).toBe(1);
    expect(again.lines.join("\n")).toMatch(
      onPostgres ? /not empty.*nothing was changed/ : /already holds a database: nothing was changed/,
    );
  });

  // PostgreSQL is backed up online; the embedded database only while the app is stopped.
  if (!onPostgres)
    it("refuses to back up the embedded database while the app has it open", async () => {
      const target = await freshDatabase();
      const app = await serve(target);
      try {
        const result = captureOutput();
        expect(await runBackup([path.join(target.dataDir, "x.hlbackup")], target.env, result.out)).toBe(1);
        expect(result.lines.join("\n")).toMatch(/open in another process .* Stop the app first/);
      } finally {
        await app.stop();
      }
    }, 120_000);
});
