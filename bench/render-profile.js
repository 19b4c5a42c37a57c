// `node bench/render-profile.js`: where the CPU of a page rendered on every request goes (issue 17).
// Starts `node server.js` from build/ (NODE_ENV=production, RENDER_CACHE_MS=0, a temporary embedded database) with
// the inspector on, warms the page up, then records a CPU profile of the load window only (Profiler.start/stop
// around autocannon) and prints the functions and the packages with the most self time.
//
// Options: --path P (default /)  --duration S (default 10)  --connections N (default 4)  --top N (default 15)
//          --pg: on a fresh PostgreSQL database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres)
//          --member: as a logged-in member with 200 ledger entries and 10 coupons (APP_ENV=test hooks, the
//          bench's member), e.g. `--member --path /member-center`
// Writes bench/results/render-<path>.cpuprofile (open it in Chrome DevTools' Performance panel, or re-read it
// with --read FILE to print the tables again).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";
import { benchMemberCookie, testHooks } from "./member.js";
import { freePort, processCpuMs } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");

// Node 20 has no global WebSocket (the DevTools protocol below needs one) without --experimental-websocket; Node 22
// and later have it by default. On 20, run again with the flag, so `npm run bench:render` works on either.
if (typeof globalThis.WebSocket !== "function") {
  const again = spawn(process.execPath, ["--experimental-websocket", ...process.argv.slice(1)], { stdio: "inherit" });
  again.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  await new Promise(() => {});
}

const { values: opts } = parseArgs({
  options: {
    path: { type: "string", default: "/" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "4" },
    top: { type: "string", default: "15" },
    read: { type: "string" },
    member: { type: "boolean", default: false },
    pg: { type: "boolean", default: false },
  },
});
const top = Number(opts.top);

if (opts.read) {
  report(JSON.parse(readFileSync(opts.read, "utf8")), null);
  process.exit(0);
}

const port = await freePort();
const inspectPort = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "render-profile-"));
const env = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", RENDER_CACHE_MS: "0" };
Object.assign(env, { DATA_DIR: dataDir, LOG_LEVEL: "info" });
delete env.DATABASE_URL;
delete env.APP_ENV;
// --pg: on a fresh PostgreSQL database on BENCH_PG_URL's server (dropped at the end) instead of PGlite.
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const pgName = `bench_render_${process.pid}`;
if (opts.pg) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`CREATE DATABASE ${pgName}`);
  await admin.end();
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${pgName}`;
  env.DATABASE_URL = dbUrl.toString();
}
const hooksSecret = randomBytes(32).toString("base64url");
if (opts.member) Object.assign(env, { APP_ENV: "test", TEST_HOOKS_SECRET: hooksSecret, SEED_DEMO_CONTENT: "true" });
const child = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectPort}`, "server.js"], {
  cwd: root,
  env,
  stdio: ["ignore", "ignore", "ignore"],
});
const url = `http://127.0.0.1:${port}`;
const headers = { "accept-encoding": "gzip" };
try {
  await until(async () => (await fetch(`${url}/readyz`)).ok);
  if (opts.member) headers.cookie = await benchMemberCookie(testHooks(url, hooksSecret));
  await autocannon({ url: url + opts.path, connections: Number(opts.connections), duration: 3, headers });
  const [target] = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const inspector = await connect(target.webSocketDebuggerUrl);
  await inspector.send("Profiler.enable");
  await inspector.send("Profiler.setSamplingInterval", { interval: 200 });
  await inspector.send("Profiler.start");
  const cpuBefore = processCpuMs(child.pid);
  const run = await autocannon({
    url: url + opts.path,
    connections: Number(opts.connections),
    duration: Number(opts.duration),
    headers,
  });
  const cpuMs = processCpuMs(child.pid) - cpuBefore;
  const { profile } = await inspector.send("Profiler.stop");
  inspector.close();
  if (run.non2xx > 0 || run.errors > 0) throw new Error(`${run.non2xx} non-2xx answers, ${run.errors} errors`);
  const file = path.join(
    root,
    "bench",
    "results",
    `render-${opts.path.replace(/[^a-z0-9]+/gi, "_") || "_"}.cpuprofile`,
  );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(profile));
  console.log(
    `${opts.path}: ${run.requests.total} requests in ${opts.duration} s, ${(cpuMs / run.requests.total).toFixed(2)} ms CPU each (profiler on); load average ${os.loadavg()[0].toFixed(1)}; ${path.relative(root, file)}`,
  );
  report(profile, run.requests.total);
} finally {
  child.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
  if (opts.pg) {
    await new Promise((resolve) => child.once("exit", resolve));
    const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await admin.end();
  }
}

function report(profile, requests) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const byFunction = new Map();
  const byPackage = new Map();
  let idle = 0;
  for (const [id, us] of self) {
    const { functionName, url: fileUrl, lineNumber } = nodes.get(id).callFrame;
    if (functionName === "(idle)") {
      idle += us;
      continue;
    }
    const file = shorten(fileUrl);
    const fn = `${functionName || "(anonymous)"}  ${file}${file ? `:${lineNumber + 1}` : ""}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(fileUrl)?.[1] ?? (file || "(native / VM)");
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  const busy = total - idle;
  const per = requests ? `, ${(busy / 1000 / requests).toFixed(2)} ms per request` : "";
  console.log(`busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled${per}`);
  for (const [title, map] of [
    ["self time by function", byFunction],
    ["self time by package or file", byPackage],
  ]) {
    console.log(`\n${title}:`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name}`);
    }
  }
}

function shorten(fileUrl) {
  return fileUrl.replace(/^file:\/\/.*?\/node_modules\//, "").replace(`file://${root}/`, "");
}

async function until(check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not become ready");
}

async function connect(wsUrl) {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", reject, { once: true });
  });
  let next = 0;
  const pending = new Map();
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        const id = ++next;
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}
