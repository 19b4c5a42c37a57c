// `npm run import:firebase -- --auth users.json --members memberList.json [--hash-config hash.json] …` and
// `npm run import:csv -- --file members.csv --source shopline …` (docs/operations.md "Moving from another system",
// ADR 038). Runs from the production build (built first when missing or stale). Uses DATABASE_URL, or the embedded
// database under DATA_DIR (stop the app first). Exit 0: the run finished (rejected rows → <file>.rejected.csv);
// 2: refused (one line); 1: stopped before the end (run the same command again to resume) or an unexpected failure.
// Ctrl-C stops between batches; the run resumes when the same command is run again.
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { ensureBuild } from "./ensure-build.js";

const commands = { firebase: "runImportFirebase", csv: "runImportCsv" };
const [kind, ...args] = process.argv.slice(2);
if (!commands[kind]) {
  console.error("usage: node scripts/import.js firebase|csv … (npm run import:firebase / npm run import:csv)");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
ensureBuild(root);
const build = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
const stop = new AbortController();
process.once("SIGINT", () => {
  console.error("stopping after the current batch… (Ctrl-C again to quit at once; the run resumes either way)");
  stop.abort();
  process.once("SIGINT", () => process.exit(130));
});
try {
  process.exitCode = await build[commands[kind]](args, process.env, undefined, { signal: stop.signal });
} catch (error) {
  console.error(`import failed: ${error?.message ?? error}`);
  if (process.env.LOG_LEVEL === "debug") console.error(error);
  process.exitCode = 1;
}
