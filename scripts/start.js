// `npm start`: build when the sources are newer than the build, then serve it on the embedded
// database with the local development fakes (APP_ENV defaults to development). The npm script
// loads .env first (`--env-file-if-exists`) and `exec`s this file, so npm's signals reach us.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import path from "node:path";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(import.meta.dirname, "..");
ensureBuild(root);

// The IPC channel lets the server notice if this wrapper dies without passing a signal on
// (SIGKILL): it then drains and exits instead of running on as an orphan (server.js).
const child = spawn(process.execPath, [path.join(root, "server.js")], {
  cwd: root,
  stdio: ["inherit", "inherit", "inherit", "ipc"],
  env: { ...process.env, NODE_ENV: "production" },
});

// Pass stop signals on and wait: the server drains in-flight requests, then exits, and so do we.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on("exit", (code, signal) => {
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
