import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureBuild } from "./ensure-build.js";

/**
 * The operator commands (npm run db:backup, db:restore, audit:verify, …) run from the production build with
 * React's development build (NODE_ENV unset). What they print is theirs alone (issue 33 item 23): importing the
 * build used to print "forwardRef render functions accept exactly two parameters" on every command.
 */
const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), "cli-output-"));

beforeAll(() => {
  // Built here (when missing or stale), so the command's own output holds no build log.
  ensureBuild(root);
}, 300_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("npm run db:backup prints its one line and no React warning", async () => {
  const { NODE_ENV: _unset, ...env } = process.env;
  const result = await run(process.execPath, [path.join(root, "scripts/db-operation.js"), "backup"], {
    cwd: root,
    env: { ...env, DATA_DIR: dataDir, DATABASE_URL: "" },
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  expect(result).toMatchObject({ code: 1, stdout: "" });
  expect(result.stderr).not.toContain("forwardRef");
  expect(result.stderr).toBe(`No embedded database at ${path.join(dataDir, "pglite")} to back up.\n`);
}, 120_000);
