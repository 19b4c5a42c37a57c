import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";

/**
 * `npm start` (issue 11, item 7): stopping it the way a process manager does (SIGTERM to npm) stops
 * the wrapper (scripts/start.js) and the server it runs, after the server has drained; and the
 * server does not outlive a wrapper that was killed outright. The npm scripts load `.env`.
 */
const root = path.resolve(import.meta.dirname, "..");
const dataDirs: string[] = [];
/** Every process a test started (npm, the wrapper, the server): none may outlive the test, pass or fail. */
const started: number[] = [];

afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
});

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Polls until `done` holds (no fixed sleeps); fails with `message` after a generous deadline. */
async function until(done: () => boolean | Promise<boolean>, timeoutMs: number, message: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether a process runs (a zombie waiting to be reaped has stopped running). */
/** The kernel's view of a process (state, what it waits in), for a failure's message. */
function processState(pid: number): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const state = /^State:\s+(.*)$/m.exec(status)?.[1] ?? "?";
    const wchan = readFileSync(`/proc/${pid}/wchan`, "utf8");
    return `state ${state}, waiting in ${wchan || "-"}`;
  } catch {
    return "gone";
  }
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Every process below `pid`. */
function descendants(pid: number): number[] {
  const pids = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const children = pids.filter((p) => frontier.includes(parentOf(p) ?? -1));
    found.push(...children);
    frontier = children;
  }
  return found;
}

/** `npm start` on a free port and a fresh embedded database; resolves once the server answers. */
async function npmStart() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "npm-start-"));
  dataDirs.push(dataDir);
  let output = "";
  const npm = spawn("npm", ["start"], {
    cwd: root,
    env: {
      ...process.env,
      APP_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      LOG_LEVEL: "info",
      SEED_DEMO_CONTENT: "false",
      SHUTDOWN_TIMEOUT_MS: "2000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(npm.pid as number);
  npm.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  npm.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await until(
    async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200,
    240_000,
    () => `npm start did not answer /healthz:\n${output}`,
  );
  const tree = descendants(npm.pid as number);
  const wrapper = tree.find((pid) => commandOf(pid).includes("scripts/start.js"));
  const server = tree.find((pid) => commandOf(pid).includes("server.js"));
  started.push(...tree);
  expect(wrapper, `no scripts/start.js under npm: ${tree.map(commandOf).join(" | ")}`).toBeDefined();
  expect(server, `no server.js under npm: ${tree.map(commandOf).join(" | ")}`).toBeDefined();
  return { npm, wrapper: wrapper as number, server: server as number, output: () => output };
}

describe("npm start", () => {
  it("stops the wrapper and the server when npm gets SIGTERM, after the server drains", {
    timeout: 300_000,
  }, async () => {
    const run = await npmStart();
    const npmExited = new Promise<void>((resolve) => run.npm.once("exit", () => resolve()));
    process.kill(run.npm.pid as number, "SIGTERM");
    await npmExited;
    await until(
      () => !alive(run.wrapper) && !alive(run.server),
      30_000,
      () => `still running: ${[run.wrapper, run.server].filter(alive).map(commandOf).join(" | ")}`,
    );
    // The server went through its graceful shutdown (server.js logs it), not a kill.
    expect(run.output()).toContain("shutting down");
    expect(run.output()).toContain('"msg":"stopped"');
  });

  it("stops the server when the wrapper is killed outright (SIGKILL)", { timeout: 300_000 }, async () => {
    const run = await npmStart();
    process.kill(run.wrapper, "SIGKILL");
    // The server notices at once, then drains (up to SHUTDOWN_TIMEOUT_MS) and closes the embedded database; on a
    // loaded CI machine that once took longer than 30 s. The message says what state the process was in.
    await until(
      () => !alive(run.server),
      90_000,
      () => `server.js still running after its wrapper was killed (${processState(run.server)}):\n${run.output()}`,
    );
    expect(run.output()).toContain("parent exited");
  });
});

describe(".env", () => {
  const scripts = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>;

  it.each(["start", "dev", "serve", "db:seed", "api-key"])("is loaded by `npm run %s`", (name) => {
    expect(scripts[name]).toMatch(/\bnode --env-file-if-exists=\.env /);
  });

  it("fills what the environment does not set, and a missing file is no error (the Node this project runs on)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "env-file-"));
    dataDirs.push(dir);
    const print = ["--env-file-if-exists=.env", "-e", "console.log(process.env.PORT, process.env.LOG_LEVEL)"];
    writeFileSync(path.join(dir, ".env"), "PORT=4321\nLOG_LEVEL=debug\n");
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn" };
    delete env.PORT;
    expect(execFileSync(process.execPath, print, { cwd: dir, env, encoding: "utf8" }).trim()).toBe("4321 warn");
    rmSync(path.join(dir, ".env"));
    expect(execFileSync(process.execPath, print, { cwd: dir, env, encoding: "utf8", stdio: "pipe" }).trim()).toBe(
      "undefined warn",
    );
  });
});
