// `npm run bench:ab -- --before DIR [--after DIR]`: the server CPU per request of one page in two builds, measured
// side by side (issue 17). A noisy machine moves every figure between rounds a minute apart; two builds measured in
// alternating short rounds see the same noise, so the ratio of their medians is what a change did.
// Each checkout's `server.js` and `build/` run on their own embedded database (or a fresh PostgreSQL database with
// --pg), with the bench's member (APP_ENV=test hooks: 200 ledger entries, 10 coupons) logged in; public pages are
// rendered on every request (RENDER_CACHE_MS=0). Nothing else may run meanwhile.
//
// Options: --before DIR (required)  --after DIR (default: this checkout)  --path P (default /member-center)
//          --rounds N (default 10)  --duration S per round (default 4)  --connections N (default 10)  --pg
// Environment: BENCH_PG_URL  admin connection for --pg (default postgres://postgres@127.0.0.1:5432/postgres)
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";
import { benchMemberCookie, testHooks } from "./member.js";
import { freePort, processCpuMs } from "./process.js";

const { values: opts } = parseArgs({
  options: {
    before: { type: "string" },
    after: { type: "string", default: path.resolve(import.meta.dirname, "..") },
    path: { type: "string", default: "/member-center" },
    rounds: { type: "string", default: "10" },
    duration: { type: "string", default: "4" },
    connections: { type: "string", default: "10" },
    pg: { type: "boolean", default: false },
  },
});
if (!opts.before) {
  console.error("usage: npm run bench:ab -- --before DIR [--after DIR] [--path P] [--rounds N] [--pg]");
  process.exit(2);
}
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const servers = [];

/** One checkout's built server, ready, with the bench's member logged in. */
async function start(label, dir) {
  const port = await freePort();
  const hooksSecret = randomBytes(32).toString("base64url");
  const tmp = mkdtempSync(path.join(os.tmpdir(), `bench-ab-${label}-`));
  const env = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: tmp };
  Object.assign(env, { RENDER_CACHE_MS: "0", LOG_LEVEL: "info", APP_ENV: "test", SEED_DEMO_CONTENT: "true" });
  env.TEST_HOOKS_SECRET = hooksSecret;
  delete env.DATABASE_URL;
  const server = { label, dir, tmp, database: null, child: null, url: `http://127.0.0.1:${port}`, headers: {} };
  servers.push(server);
  if (opts.pg) {
    server.database = `bench_ab_${label}_${process.pid}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`CREATE DATABASE ${server.database}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${server.database}`;
    env.DATABASE_URL = url.toString();
  }
  const log = openSync(path.join(tmp, "server.log"), "w");
  server.child = spawn(process.execPath, [path.join(dir, "server.js")], { cwd: dir, env, stdio: ["ignore", log, log] });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline || server.child.exitCode !== null) {
      throw new Error(`${label} (${dir}) did not become ready; its log: ${path.join(tmp, "server.log")}`);
    }
    try {
      if ((await fetch(`${server.url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const cookie = await benchMemberCookie(testHooks(server.url, hooksSecret));
  server.headers = { cookie, "accept-encoding": "gzip" };
  return server;
}

/** One round of load on one server: its CPU per request and requests/s. */
async function round(server, duration) {
  const cpuBefore = processCpuMs(server.child.pid);
  const run = await autocannon({
    url: server.url + opts.path,
    connections: Number(opts.connections),
    duration,
    headers: server.headers,
  });
  if (run.non2xx > 0 || run.errors > 0) throw new Error(`${server.label}: ${run.non2xx} non-2xx, ${run.errors} errors`);
  return { cpuMs: (processCpuMs(server.child.pid) - cpuBefore) / run.requests.total, rps: run.requests.average };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const before = await start("before", path.resolve(opts.before));
  const after = await start("after", path.resolve(opts.after));
  await round(before, 2);
  await round(after, 2);
  const results = { before: [], after: [] };
  for (let i = 0; i < Number(opts.rounds); i++) {
    for (const server of i % 2 === 0 ? [before, after] : [after, before]) {
      results[server.label].push(await round(server, Number(opts.duration)));
    }
  }
  console.log(
    `${opts.path} on ${opts.pg ? "PostgreSQL" : "the embedded database"}, ${opts.rounds} rounds of ${opts.duration} s each, alternating; load average ${os.loadavg()[0].toFixed(1)} at the end`,
  );
  for (const server of [before, after]) {
    const cpu = results[server.label].map((r) => r.cpuMs);
    console.log(
      `  ${server.label.padEnd(6)} ${server.dir}: CPU ms/request ${cpu.map((c) => c.toFixed(2)).join(" ")}; median ${median(cpu).toFixed(2)}, ${median(results[server.label].map((r) => r.rps)).toFixed(0)} req/s`,
    );
  }
  const ratio = median(results.after.map((r) => r.cpuMs)) / median(results.before.map((r) => r.cpuMs));
  console.log(`  after ÷ before, CPU per request (medians): ${ratio.toFixed(3)}`);
} finally {
  for (const server of servers) {
    if (server.child && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once("exit", resolve));
      server.child.kill("SIGTERM");
      await exited;
    }
    rmSync(server.tmp, { recursive: true, force: true });
    if (server.database) {
      const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${server.database} WITH (FORCE)`);
      await admin.end();
    }
  }
}
