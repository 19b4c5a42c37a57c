import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "../app/domain/audit/audit.server";
import { invitationState } from "../app/domain/staff/accounts.server";
import { auditVerifyCommand, createAdminCommand } from "./cli";

// The commands behind `npm run audit:verify` and `npm run staff:create-admin`, on a database of their own.
let dataDir: string;
let testDb: TestDatabase;
let env: NodeJS.ProcessEnv;
let handle: DatabaseHandle | null = null;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cli-"));
  testDb = await createTestDatabase({ label: "cli", pgliteDataDir: path.join(dataDir, "pglite") });
  env = {
    APP_ENV: "test",
    DATA_DIR: dataDir,
    DATABASE_URL: testDb.url ?? "",
    SESSION_SECRET: "s".repeat(40),
    PUBLIC_BASE_URL: "https://member.example.com",
  };
  const database = await openDatabase(testDb.config);
  await database.migrate();
  await database.close();
});

afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** PGlite allows one process at a time: open it only between commands. */
async function withDb<T>(run: (h: DatabaseHandle) => Promise<T>): Promise<T> {
  handle = await openDatabase(testDb.config);
  try {
    return await run(handle);
  } finally {
    await handle.close();
    handle = null;
  }
}

describe("operator commands", () => {
  it("staff:create-admin prints a one-time invitation link, and refuses usage errors", async () => {
    expect(await createAdminCommand([], env)).toMatchObject({ exitCode: 2, output: expect.stringMatching(/^usage/) });
    expect(await createAdminCommand(["--contact", "nobody", "--name", "X"], env)).toMatchObject({ exitCode: 2 });
    const made = await createAdminCommand(["--contact", "Owner@Example.com", "--name", "王大明"], env);
    expect(made.exitCode).toBe(0);
    const url = /https:\/\/member\.example\.com\/admin\/invitation\/([A-Za-z0-9_-]{43})/.exec(made.output);
    expect(url).not.toBeNull();
    expect(made.output).not.toMatch(/password:/i);
    const state = await withDb((h) => invitationState(h.db, url?.[1] ?? ""));
    expect(state).toMatchObject({ ok: true, invitation: { email: "owner@example.com", role: "admin" } });
  });

  it("audit:verify passes on an intact chain and names the row altered by hand", async () => {
    expect(await auditVerifyCommand(env)).toEqual({
      exitCode: 0,
      output: "audit log OK: 1 rows, chain intact to seq 1",
    });
    await withDb(async (h) => {
      for (let i = 0; i < 3; i++) {
        await h.db.transaction((tx) =>
          recordAudit(tx as unknown as typeof h.db, {
            context: { actorType: "system", label: "test", ip: null, userAgent: null, requestId: null },
            action: "test.appended",
            targetType: "test",
            targetId: String(i),
          }),
        );
      }
    });
    expect((await auditVerifyCommand(env)).exitCode).toBe(0);
    await withDb(async (h) => {
      await h.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
      await h.db.execute(sql`update audit_log set target_id = 'changed' where seq = 3`);
      await h.db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    });
    const broken = await auditVerifyCommand(env);
    expect(broken.exitCode).toBe(1);
    expect(broken.output).toMatch(
      /^audit log BROKEN at seq 3: .*altered.*\[hash_mismatch\]; 2 rows before it verified$/,
    );
  });
});
