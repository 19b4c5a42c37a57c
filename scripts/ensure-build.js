// Builds the app when build/ is missing or older than the sources (shared by `npm start` and `npm run db:seed`).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export function ensureBuild(root) {
  const builtFile = path.join(root, "build/server/index.js");
  if (!existsSync(path.join(root, "app"))) return; // a deployed image: build/ only
  const sources = ["app", "server", "platform", "drizzle"].map((d) => path.join(root, d));
  const stale =
    !existsSync(builtFile) ||
    Math.max(...sources.map(newestMtime), statSync(path.join(root, "package.json")).mtimeMs) >
      statSync(builtFile).mtimeMs;
  if (!stale) return;
  console.log("Building the app (first start or changed sources)…");
  // Always the production build: a NODE_ENV inherited from the caller (vitest sets "test") would make Vite resolve
  // the packages' development builds, which the route-matching patch refuses (platform/bundling).
  const result = spawnSync("npx", ["react-router", "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
