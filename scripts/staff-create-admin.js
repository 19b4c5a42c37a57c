// `npm run staff:create-admin -- --contact <e-mail or mobile> --name <name>`: the first admin of a fresh
// install, as a one-time invitation link (never a default password). Refused once an admin exists.
// Uses DATABASE_URL, or the embedded database under DATA_DIR (stop the app first).
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(import.meta.dirname, "..");
ensureBuild(root);
const { createAdminCommand } = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
try {
  const { exitCode, output } = await createAdminCommand(process.argv.slice(2));
  (exitCode === 0 ? console.log : console.error)(output);
  process.exitCode = exitCode;
} catch (error) {
  console.error(error?.name === "ConfigError" ? error.message : error);
  process.exit(1);
}
