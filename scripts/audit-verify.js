// `npm run audit:verify`: walks the audit log's hash chain and holds it against the signed head (AUDIT_ANCHOR_FILE);
// names the first broken row, the rows cut off the end or the rewritten row (exit 1), else signs the chain's end.
// Uses DATABASE_URL, or the embedded database under DATA_DIR (stop the app first). Runs from the
// production build, built first when missing or stale.
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(import.meta.dirname, "..");
ensureBuild(root);
const { auditVerifyCommand } = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
try {
  const { exitCode, output } = await auditVerifyCommand();
  (exitCode === 0 ? console.log : console.error)(output);
  process.exitCode = exitCode;
} catch (error) {
  console.error(error?.name === "ConfigError" ? error.message : error);
  process.exit(1);
}
