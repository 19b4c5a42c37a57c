// `npm run db:seed`: loads the demo catalogue (showrooms, materials, categories) into the configured
// database (DATABASE_URL, or the embedded one under DATA_DIR), applying migrations first. Safe to run
// again: demo rows are updated in place, other rows are left alone. Uses the production build (built
// first when missing or older than the sources), so it also runs where only build/ is deployed.
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(import.meta.dirname, "..");
ensureBuild(root);
const { seedFromEnvironment } = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
try {
  const counts = await seedFromEnvironment();
  console.log(
    `Demo catalogue loaded: ${counts.stores} showrooms, ${counts.materials} materials, ${counts.categories} categories.`,
  );
  if (counts.demoMember) console.log("Demo member created: log in with 0912-345-678 / HanLiving-Demo-2026.");
  if (counts.demoStaff)
    console.log("Demo admin and clerk created: see README (console) for their logins and TOTP secrets.");
} catch (error) {
  console.error(error?.name === "ConfigError" ? error.message : error);
  process.exit(1);
}
