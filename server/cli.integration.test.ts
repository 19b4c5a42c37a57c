import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { auditLog } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRowHash, recordAudit } from "../app/domain/audit/audit.server";
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

// Each command opens the embedded database from its data directory (a few seconds of PGlite start-up, many more on a
// loaded machine): more time than the 30 s of a test that shares one open database.
describe("operator commands", { timeout: 120_000 }, () => {
  it("audit:verify on a database that was never set up says so in a line, not a stack", async () => {
    const emptyDir = mkdtempSync(path.join(tmpdir(), "cli-empty-"));
    const empty = await createTestDatabase({ label: "cli-empty", pgliteDataDir: path.join(emptyDir, "pglite") });
    try {
      const result = await auditVerifyCommand({ ...env, DATA_DIR: emptyDir, DATABASE_URL: empty.url ?? "" });
      expect(result).toEqual({ exitCode: 2, output: expect.stringMatching(/^no audit log in this database/) });
    } finally {
      await empty.drop();
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });

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
      output: "audit log OK: 1 rows, chain intact to seq 1 (signed head at seq 1)",
    });
    await withDb(async (h) => {
      for (let i = 0; i < 3; i++) {
        await h.db.transaction((tx) =>
          recordAudit(tx, {
            context: { actorType: "system", label: "test", ip: null, userAgent: null, requestId: null },
            action: "settings.changed",
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

  it("audit:verify names rows cut off the end with the head moved back, and a chain recomputed without the key", async () => {
    // Undo the last test's change: the chain is intact again, and verifying signs its head (seq 4).
    await withDb(async (h) => {
      await h.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
      await h.db.execute(sql`update audit_log set target_id = '1' where seq = 3`);
      await h.db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    });
    expect(await auditVerifyCommand(env)).toEqual({
      exitCode: 0,
      output: "audit log OK: 4 rows, chain intact to seq 4 (signed head at seq 4)",
    });

    // A superuser deletes the newest row and moves the head back: the unkeyed chain alone still holds.
    const removed = await withDb(async (h) => {
      const [last] = await h.db.select().from(auditLog).where(eq(auditLog.seq, 4));
      const [kept] = await h.db.select().from(auditLog).where(eq(auditLog.seq, 3));
      await h.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
      await h.db.execute(sql`delete from audit_log where seq = 4`);
      await h.db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
      await h.db.execute(sql`update audit_chain_head set seq = 3, hash = ${kept?.hash ?? ""}`);
      return last;
    });
    const cut = await auditVerifyCommand(env);
    expect(cut.exitCode).toBe(1);
    expect(cut.output).toMatch(
      /^audit log CUT at seq 4: the chain ends at seq 3 but the signed head .* reaches seq 4 .*\[truncated\]/,
    );

    // The row put back: intact again.
    await withDb(async (h) => {
      if (removed) await h.db.insert(auditLog).values(removed);
      await h.db.execute(sql`update audit_chain_head set seq = 4, hash = ${removed?.hash ?? ""}`);
    });
    expect((await auditVerifyCommand(env)).exitCode).toBe(0);

    // Every row recomputed with the unkeyed hash after a change to row 2: the chain holds, the signed head does not.
    await withDb(async (h) => {
      await h.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
      await h.db.execute(sql`update audit_log set target_id = 'forged' where seq = 2`);
      let previous = (await h.db.select().from(auditLog).where(eq(auditLog.seq, 1)))[0]?.hash ?? "";
      for (const row of await h.db.select().from(auditLog).where(sql`seq >= 2`).orderBy(asc(auditLog.seq))) {
        const hash = auditRowHash({ ...row, prevHash: previous });
        await h.db.execute(sql`update audit_log set prev_hash = ${previous}, hash = ${hash} where seq = ${row.seq}`);
        previous = hash;
      }
      await h.db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
      await h.db.execute(sql`update audit_chain_head set hash = ${previous}`);
    });
    const rewritten = await auditVerifyCommand(env);
    expect(rewritten.exitCode).toBe(1);
    expect(rewritten.output).toMatch(/^audit log REWRITTEN at seq 4: .*signed head.*\[rewritten\]/);
  });
});
