import { spawn } from "node:child_process";
import path from "node:path";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { importRun, member, pointEntry } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLedger } from "../loyalty/ledger-check.server";
import { isRefusal } from "../refusals";
import { applyRun, checkRun, getRun, type RunActor, rowStates, setCsvMapping, stageCsv, startRun } from "./runs.server";
import { generatedCsv, TEST_CSV_MAPPING, textStream } from "./testing.server";

/**
 * The import engine on real PostgreSQL (ADR 038): a killed import resumes with nothing booked twice (the apply
 * runs in a child process killed with SIGKILL part way), two imports started at the same instant (exactly one
 * runs), and the ledger equals the balances after every run. Runs only with TEST_DATABASE_URL.
 */
let testDb: TestDatabase;
let one: DatabaseHandle;
let two: DatabaseHandle;
const cli: RunActor = { kind: "cli" };
const options = { welcome: false, evaluateTiers: false };
const root = path.resolve(import.meta.dirname, "../../..");

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "imports_pg", poolMax: 6, migrated: true });
  if (testDb.driver !== "postgres" || !testDb.url) throw new Error("This file needs TEST_DATABASE_URL (PostgreSQL)");
  one = await openDatabase(testDb.config);
  await one.migrate();
  two = await openDatabase(testDb.config);
}, 120_000);

afterAll(async () => {
  await one?.close();
  await two?.close();
  await testDb?.drop();
});

async function checkedRun(source: string, rows: number, offset: number): Promise<string> {
  const staged = await stageCsv(one.db, {
    source,
    file: textStream(`${source}.csv`, generatedCsv(rows, offset)),
    actor: cli,
  });
  await setCsvMapping(one.db, staged.id, TEST_CSV_MAPPING, options);
  await checkRun(one.db, staged.id);
  return staged.id;
}

async function ledgerEqualsBalances(): Promise<void> {
  const check = await checkLedger(one.db);
  expect(check.mismatches).toEqual([]);
  expect(check.totalBalance).toBe(check.totalLedger);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("member import on PostgreSQL", () => {
  it("a killed import resumes from its pending rows with nothing booked twice", { timeout: 300_000 }, async () => {
    const total = 4000;
    const runId = await checkedRun("killed", total, 0);
    await startRun(one.db, null, runId, cli);
    const child = spawn(
      path.join(root, "node_modules/.bin/tsx"),
      ["app/domain/imports/apply-child.testing.ts", testDb.url ?? "", runId, "20"],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    let doneAtKill = 0;
    for (let waited = 0; waited < 240_000; waited += 25) {
      const [run] = await one.db
        .select({ rowsDone: importRun.rowsDone })
        .from(importRun)
        .where(eq(importRun.id, runId));
      doneAtKill = run?.rowsDone ?? 0;
      if (doneAtKill >= 200) break;
      if (child.exitCode !== null) throw new Error(`the child ended before it could be killed: ${stderr}`);
      await sleep(25);
    }
    child.kill("SIGKILL");
    await exited;
    // The killed process's last COMMIT may still be finishing in its database session (a server process does not
    // stop because its client died): a locked read of the run row waits for that transaction to end either way.
    await one.db.transaction(async (tx) => {
      await tx.select({ id: importRun.id }).from(importRun).where(eq(importRun.id, runId)).for("update");
    });
    const killed = await getRun(one.db, runId);
    expect(killed.status).toBe("running");
    expect(killed.rowsDone).toBeGreaterThanOrEqual(200);
    expect(killed.rowsDone).toBeLessThan(total);
    // The counters and the rows marked done agree: a batch committed whole or not at all.
    expect((await rowStates(one.db, runId)).done).toBe(killed.rowsDone);
    await ledgerEqualsBalances();

    const resumed = await applyRun(two.db, runId, { batchSize: 500 });
    expect(resumed).toMatchObject({ status: "done", rowsDone: total, created: total, rejected: 0 });
    const [counts] = await one.db
      .select({
        members: sql<number>`(select count(*)::int from ${member})`,
        entries: sql<number>`(select count(*)::int from ${pointEntry} where kind = 'import')`,
        keys: sql<number>`(select count(distinct idempotency_key)::int from ${pointEntry} where kind = 'import')`,
      })
      .from(sql`(select 1) as one`);
    const withPoints = Array.from({ length: total }, (_, i) => i % 500).filter((p) => p > 0).length;
    expect(counts).toEqual({ members: total, entries: withPoints, keys: withPoints });
    await ledgerEqualsBalances();
  });

  it("two imports started at the same instant: exactly one runs, the other is refused import_busy", async () => {
    const a = await checkedRun("race-a", 5, 100_000);
    const b = await checkedRun("race-b", 5, 200_000);
    const results = await Promise.allSettled([startRun(one.db, null, a, cli), startRun(two.db, null, b, cli)]);
    const refused = results.filter((r) => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const reason = (refused[0] as PromiseRejectedResult).reason;
    expect(isRefusal(reason, "imports") && reason.code).toBe("import_busy");
    const started = results[0]?.status === "fulfilled" ? a : b;
    expect((await applyRun(one.db, started, {})).status).toBe("done");
    await ledgerEqualsBalances();
  });

  it("two workers on one run take turns: every row once", { timeout: 120_000 }, async () => {
    const runId = await checkedRun("twice", 600, 300_000);
    await startRun(one.db, null, runId, cli);
    const [x, y] = await Promise.all([
      applyRun(one.db, runId, { batchSize: 50 }),
      applyRun(two.db, runId, { batchSize: 50 }),
    ]);
    expect(x.status).toBe("done");
    expect(y.status).toBe("done");
    expect(await getRun(one.db, runId)).toMatchObject({ rowsDone: 600, created: 600 });
    await ledgerEqualsBalances();
  });
});
