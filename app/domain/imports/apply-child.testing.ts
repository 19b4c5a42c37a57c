import { openDatabase } from "@platform/db/client";
import { applyRun } from "./apply.server";

/**
 * Test helper (run with tsx by runs.postgres.integration.test.ts): applies one run in its own process, so the
 * test can kill it with SIGKILL part way through. Arguments: database URL, run id, batch size.
 */
const [url, runId, batch] = process.argv.slice(2);
if (!url || !runId) throw new Error("usage: apply-child.testing.ts <database url> <run id> [batch size]");
const database = await openDatabase({ kind: "postgres", url, poolMax: 2 });
try {
  const run = await applyRun(database.db, runId, { batchSize: Number(batch ?? 50) });
  process.stdout.write(`${JSON.stringify({ status: run.status, rowsDone: run.rowsDone })}\n`);
} finally {
  await database.close();
}
