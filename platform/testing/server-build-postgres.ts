import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { postgresWriteBatchesPatch } from "../bundling/postgres-write-batches";
import { applyPatches } from "../bundling/server-patches";

/**
 * postgres.js as the server build runs it (ADR 060: a gathered batch up to 16 kB goes out in one write), loaded from
 * a patched copy of its ESM sources in a temporary folder. A test that counts the writes a request makes to the
 * database mocks `postgres` with it (`vi.mock("postgres", () => serverBuildPostgres())`), so it counts what
 * production sends: with the published 1 kB threshold, where a batch splits depends on its values' lengths.
 */
export async function serverBuildPostgres(): Promise<{ default: unknown }> {
  const published = path.join(process.cwd(), "node_modules", "postgres", "src");
  const target = path.join(mkdtempSync(path.join(os.tmpdir(), "postgres-build-")), "postgres", "src");
  cpSync(published, target, { recursive: true });
  writeFileSync(path.join(target, "package.json"), '{ "type": "module" }');
  const file = path.join(target, "connection.js");
  const out = applyPatches([postgresWriteBatchesPatch], readFileSync(file, "utf8"), file, (message) => {
    throw new Error(message);
  });
  if (!out) throw new Error("the server build's patch did not apply to postgres/src/connection.js");
  writeFileSync(file, out.code);
  return (await import(pathToFileURL(path.join(target, "index.js")).href)) as { default: unknown };
}
