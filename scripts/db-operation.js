// `npm run db:move-to-postgres -- URL`, `npm run db:backup -- [FILE]`, `npm run db:restore -- FILE [--replace]`
// (docs/operations.md). Run from the production build (built first when missing or older than the
// sources), so they also work where only build/ is deployed. Stop the app before using them on the
// embedded database: it is one process's files.
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { ensureBuild } from "./ensure-build.js";

const commands = { "move-to-postgres": "runMoveToPostgres", backup: "runBackup", restore: "runRestore" };
const [command, ...args] = process.argv.slice(2);
if (!commands[command]) {
  console.error(`usage: node scripts/db-operation.js ${Object.keys(commands).join("|")} …`);
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
ensureBuild(root);
const build = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
try {
  process.exitCode = await build[commands[command]](args);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
