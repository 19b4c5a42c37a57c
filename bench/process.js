// Process helpers shared by the benches: a free port for a server, and a process's CPU time from /proc.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import process from "node:process";

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** User + system CPU milliseconds a process has used so far (Linux /proc); null elsewhere or once it is gone. */
export function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * User + system CPU milliseconds all processes named `postgres` on this machine have used so far (Linux /proc): the
 * local PostgreSQL server's backends and helpers, with the time of the backends that have ended (the postmaster
 * reaps them: its children's time). A backend reaped while /proc is being read would be counted twice or not at
 * all, so a reading during which the postmaster's children's time moved is taken again.
 */
export function postgresCpuMs() {
  for (let attempt = 0; attempt < 20; attempt++) {
    const processes = postgresProcesses();
    if (processes.length === 0) return null;
    const pids = new Set(processes.map((p) => p.pid));
    const postmaster = processes.find((p) => !pids.has(p.ppid));
    const total = processes.reduce((sum, p) => sum + p.ticks + p.childTicks, 0);
    if (postmaster && readStat(postmaster.pid)?.childTicks !== postmaster.childTicks) continue;
    return (total * 1000) / CLOCK_TICKS;
  }
  return null;
}

function postgresProcesses() {
  const found = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = readStat(pid);
    if (stat?.comm === "postgres") found.push(stat);
  }
  return found;
}

/** A process's name, parent and CPU ticks (its own, and its reaped children's), or null once it is gone. */
function readStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      pid: String(pid),
      comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
      ppid: fields[1],
      ticks: Number(fields[11]) + Number(fields[12]),
      childTicks: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null;
  }
}

const root = path.resolve(import.meta.dirname, "..");

/**
 * `node server.js` from build/ (production mode) on a free port with a temporary DATA_DIR and the given settings,
 * until /readyz answers 200: `{ url, child, tmp }` (its log in `tmp/server.log`). `nodeArgs`, e.g. `--cpu-prof`.
 */
export async function startBuiltServer({ label, env, nodeArgs = [], readyMs = 60_000 }) {
  if (!existsSync(path.join(root, "build", "server", "index.js"))) throw new Error("build/ is missing: npm run build");
  const port = await freePort();
  const tmp = mkdtempSync(path.join(os.tmpdir(), `bench-${label}-`));
  const fd = openSync(path.join(tmp, "server.log"), "w");
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, "server.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: tmp, ...env },
    stdio: ["ignore", fd, fd],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { url, child, tmp };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGTERM");
  throw new Error(`the app did not become ready:\n${readFileSync(path.join(tmp, "server.log"), "utf8").slice(-3000)}`);
}

/** The benches' PostgreSQL server: BENCH_PG_URL, an admin URL (default the local server's `postgres` database). */
export const BENCH_ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";

/** The URL of database `name` on the admin URL's server. */
export function databaseUrl(name, adminUrl = BENCH_ADMIN_URL) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the admin URL (create or drop the bench's database), on a connection of its own. */
export async function adminStatement(statement, adminUrl = BENCH_ADMIN_URL) {
  const { default: postgres } = await import("postgres");
  const client = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(statement);
  } finally {
    await client.end();
  }
}
