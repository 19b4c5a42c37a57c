// `node bench/pos-app-cpu.js --base DIR`: the app's own CPU per POS purchase, this build against another one, in
// rounds that alternate between the two (the machine's moods fall on both sides of every difference).
//
//   - DIR is a copy of another build: its server.js, package.json, build/ and drizzle/ (node_modules may be a symlink to this
//     checkout's). To compare against the code before a change: `npm run build`, copy build/, drizzle/, server.js and
//     package.json to DIR, make the change, `npm run build` again.
//   - Both servers run at once on one fresh database (BENCH_PG_URL's server, `<--db-prefix>_app`, dropped at the end),
//     NODE_ENV=production, LOG_LEVEL=info, seeded like bench:pos (20,000 members, 100 store keys).
//   - Each round sends POST /api/v1/purchases for --duration s (default 8) with --connections (default 4) to one server
//     and then the other (the order swaps every round), --rounds (default 6). A server's CPU per purchase is its
//     process's utime+stime (/proc) over its segment, less its own over the other's segment (idle, as long: its job
//     queue's polling and timers), ÷ the purchases it booked ("raw" without that subtraction).
//   - --node-args="…": Node's flags for this build's server only; with --base a copy of the same build, what the flags
//     change (`--node-args=--max-semi-space-size=64` measured 1.00 on 2026-12-07: not kept).
//   - Prints each round and the medians; the figure is the median of the per-round ratios this ÷ base. Every answer
//     must be 201.
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { seedPos, sendPurchases } from "./pos-data.js";
import { adminStatement, databaseUrl, freePort, processCpuMs } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    base: { type: "string" },
    rounds: { type: "string", default: "6" },
    duration: { type: "string", default: "8" },
    connections: { type: "string", default: "4" },
    "db-prefix": { type: "string", default: `bench_appcpu_${process.pid}` },
    // Node's flags for this build's server only (e.g. `--max-semi-space-size=64`): the same build in --base DIR
    // then measures what the flags change.
    "node-args": { type: "string", default: "" },
  },
});
if (!opts.base) throw new Error("--base DIR: a copy of the other build (server.js, package.json, build/)");
const PREFIX = opts["db-prefix"];
if (!/^[a-z0-9_]+$/.test(PREFIX)) throw new Error("--db-prefix: lower-case letters, digits and underscores");
const log = (...args) => console.error("[bench:pos-app-cpu]", ...args);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const failures = [];

async function start(label, dir, url, nodeArgs = []) {
  const port = await freePort();
  const tmp = mkdtempSync(path.join(os.tmpdir(), `bench-appcpu-${label}-`));
  const fd = openSync(path.join(tmp, "server.log"), "w");
  const child = spawn(process.execPath, [...nodeArgs, path.join(dir, "server.js")], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: tmp,
      DATABASE_URL: url,
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", fd, fd],
  });
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return { label, url: base, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGTERM");
  throw new Error(`${label} did not become ready:\n${readFileSync(path.join(tmp, "server.log"), "utf8").slice(-3000)}`);
}

function purchases(url, data, run, seconds) {
  return sendPurchases(url, data, run, { connections: Number(opts.connections), seconds, failures });
}

/** One server under load while the other idles: each one's CPU (ms) over the segment, and the purchases booked. */
async function segment(loaded, servers, data, run) {
  const before = servers.map((server) => processCpuMs(server.child.pid));
  const result = await purchases(loaded.url, data, run, Number(opts.duration));
  const after = servers.map((server) => processCpuMs(server.child.pid));
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${loaded.label}: ${result.non2xx} non-2xx, ${result.errors} errors\n${failures.join("\n")}`);
  }
  const cpu = Object.fromEntries(servers.map((server, i) => [server.label, after[i] - before[i]]));
  return { cpu, purchases: result["2xx"], perSecond: result["2xx"] / result.duration };
}

async function main() {
  const dbName = `${PREFIX}_app`;
  await adminStatement(`create database "${dbName}"`);
  const servers = [];
  try {
    const url = databaseUrl(dbName);
    // One after the other: the first migrates the fresh database.
    servers.push(await start("this", root, url, opts["node-args"].split(" ").filter(Boolean)));
    servers.push(await start("base", path.resolve(opts.base), url));
    const data = await seedPos(url);
    log(
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; warm-up`,
    );
    for (const server of servers) await purchases(server.url, data, `w${server.label}`, 3);
    const rows = [];
    for (let round = 1; round <= Number(opts.rounds); round++) {
      const order = round % 2 ? servers : [...servers].reverse();
      const segments = {};
      for (const server of order)
        segments[server.label] = await segment(server, servers, data, `${server.label}${round}`);
      // A server's CPU under load less its own CPU while idle for as long (during the other's segment): what the
      // purchases cost it, without its job queue's polling and timers (at a few purchases a second on a busy
      // machine, that background is most of the raw figure).
      const got = {};
      for (const server of servers) {
        const own = segments[server.label];
        const other = segments[servers.find((s) => s !== server).label];
        got[server.label] = {
          rawMs: own.cpu[server.label] / own.purchases,
          cpuMs: Math.max(0, own.cpu[server.label] - other.cpu[server.label]) / own.purchases,
          perSecond: own.perSecond,
        };
      }
      const ratio = got.this.cpuMs / got.base.cpuMs;
      rows.push({ ...got, ratio });
      log(
        `round ${round}: this ${got.this.cpuMs.toFixed(2)} ms/purchase (raw ${got.this.rawMs.toFixed(2)}, ` +
          `${got.this.perSecond.toFixed(0)}/s), base ${got.base.cpuMs.toFixed(2)} ms/purchase (raw ` +
          `${got.base.rawMs.toFixed(2)}, ${got.base.perSecond.toFixed(0)}/s), this ÷ base ${ratio.toFixed(2)}`,
      );
    }
    log(
      `medians: this ${median(rows.map((r) => r.this.cpuMs)).toFixed(2)} ms, base ${median(
        rows.map((r) => r.base.cpuMs),
      ).toFixed(2)} ms, this ÷ base ${median(rows.map((r) => r.ratio)).toFixed(2)} ` +
        `(rounds ${rows.map((r) => r.ratio.toFixed(2)).join(", ")}); load ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
    );
  } finally {
    for (const server of servers) server.child.kill("SIGTERM");
    await Promise.all(servers.map((s) => new Promise((resolve) => s.child.once("exit", resolve))));
    await adminStatement(`drop database if exists "${dbName}" with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
