// `npm start`: build when the sources are newer than the build, then serve it on the embedded
// database with the local development fakes (APP_ENV defaults to development).
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(import.meta.dirname, "..");
ensureBuild(root);

const child = spawn(process.execPath, [path.join(root, "server.js")], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
