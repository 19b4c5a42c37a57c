// `npm run bench:scale`: what one and two app instances on one PostgreSQL serve on this machine (docs/scaling.md).
//
//   - PostgreSQL: BENCH_PG_URL, an admin connection URL (default postgres://postgres@127.0.0.1:5432/postgres); one fresh
//     database is created there and dropped at the end. With --database-url URL the bench uses that database as it
//     is instead (e.g. one filled by `npm run db:seed:scale`, docs/scaling.md): nothing is created or dropped; the
//     member center is measured for two members already there — the one with the most ledger entries ("heavy")
//     and a random member with purchases ("typical") — and the POS purchases go to 500 random members of it
//     through 100 store keys the bench adds (and deletes at the end; the purchases it booked stay).
//   - --only member-center,purchase,catalogue: the targets to measure (healthz, the baseline, always runs);
//     --instances 1: only the one-instance figures.
//   - The app: `node server.js` with NODE_ENV=production (build/ must exist: `npm run build`), LOG_LEVEL=info as in
//     production, APP_ENV=test for the test hooks that create the member (a realistic history of 200 ledger
//     entries and 10 coupons) and its session. Both instances share SESSION_SECRET, as replicas do.
//   - Targets: /healthz (no database, no render: the baseline of each round, measured in the same round), the
//     logged-in /member-center, POST /api/v1/purchases (a new receipt and key each, as bench/pos.js) and the public
//     catalogue /materials (served through the render cache, as in production).
//   - Load: C keep-alive connections from this process (--connections, default 10) for D seconds (--duration,
//     default 5) per target and round (--rounds, default 2), requests spread round-robin over the instances as a
//     load balancer does; each latency is timed here, so p50/p95 are exact. The figures are the medians of the rounds.
//   - Beside each figure: the ratio to /healthz in the same round (it moves much less with the machine's load
//     than req/s), the instances' resident memory (VmRSS, and the peak VmHWM) and the most PostgreSQL connections
//     each instance held (pg_stat_activity by application_name) while loaded.
//
// Prints a table and writes bench/results/scale.json. Exit code 1 only when the bench itself broke.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { benchMemberCookie, cookieHeader, testHooks } from "./member.js";
import { POS_KEYS, purchaseRequest, seedPos } from "./pos-data.js";
import { freePort, processCpuMs } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "2" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    "pool-max": { type: "string", default: "10" },
    "database-url": { type: "string" },
    only: { type: "string", default: "member-center,purchase,catalogue" },
    instances: { type: "string", default: "2" },
  },
});
const EXISTING_URL = opts["database-url"];
const ONLY = new Set(opts.only.split(",").map((s) => s.trim()));
const INSTANCES = Number(opts.instances);
const ROUNDS = Number(opts.rounds);
const DURATION = Number(opts.duration);
const CONNECTIONS = Number(opts.connections);
const POOL_MAX = Number(opts["pool-max"]);
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = EXISTING_URL
  ? decodeURIComponent(new URL(EXISTING_URL).pathname.slice(1))
  : `bench_scale_${process.pid}`;
const HOOKS_SECRET = randomBytes(24).toString("base64url");
const SESSION_SECRET = randomBytes(32).toString("base64url");
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "bench-scale-"));

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...args) => console.error("[bench:scale]", ...args);
const dbUrl = (() => {
  if (EXISTING_URL) return EXISTING_URL;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

/** kB of resident memory now (VmRSS) and at its peak (VmHWM), from /proc. */
function memoryKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

async function startInstance(name) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpRoot, `${name}-`));
  const logFile = path.join(tmpRoot, `${name}.log`);
  const fd = openSync(logFile, "w");
  const child = spawn(process.execPath, [path.join(root, "server.js")], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      APP_ENV: "test",
      TEST_HOOKS_SECRET: HOOKS_SECRET,
      SESSION_SECRET,
      SEED_DEMO_CONTENT: "true",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      DATABASE_POOL_MAX: String(POOL_MAX),
      // "false" through a transaction-mode pooler (docs/scaling.md, PgBouncer).
      DATABASE_PREPARE: process.env.DATABASE_PREPARE ?? "true",
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "info",
    },
    stdio: ["ignore", fd, fd],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { name, url, child };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill("SIGTERM");
  throw new Error(`${name} did not become ready:\n${readFileSync(logFile, "utf8").slice(-3000)}`);
}

async function stopInstance(instance) {
  const { child } = instance;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** The POS data on an existing database: 500 random members of it and 100 new keys for its first 10 stores. */
async function posDataOnExisting(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const members = (
      await sql`select member_number from member tablesample system (1)
        where deleted_at is null and not disabled limit 500`
    ).map((r) => r.member_number);
    const stores = (await sql`select id from store order by published desc, sort_order, id limit 10`).map((r) => r.id);
    const keys = [];
    for (let i = 0; i < POS_KEYS; i++) {
      const secret = `hlpos_${randomBytes(32).toString("base64url")}`;
      const hash = createHash("sha256").update(secret).digest("hex");
      await sql`insert into api_key (store_id, name, prefix, secret_hash)
        values (${stores[i % stores.length]}, ${`bench:scale ${i}`}, ${secret.slice(0, 12)}, ${hash})`;
      keys.push(secret);
    }
    return { members, keys };
  } finally {
    await sql.end();
  }
}

/** The members whose member center is measured on an existing database, and their ledger entries. */
async function membersOnExisting(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [heavy] = await sql`select m.user_id, m.member_number, e.n::int as entries
      from (select member_id, count(*) as n from point_entry group by member_id order by n desc limit 1) e
      join member m on m.id = e.member_id`;
    // Uniform over the members with purchases (sampling purchases would favour the heaviest).
    const [typical] = await sql`select m.user_id, m.member_number,
        (select count(*)::int from point_entry e where e.member_id = m.id) as entries
      from member m tablesample system (1)
      where exists (select 1 from purchase p where p.member_id = m.id) limit 1`;
    return { heavy, typical };
  } finally {
    await sql.end();
  }
}

/**
 * C connections, each sending its next request as soon as the last answer ended, round-robin over the instances.
 * `make(n)` gives the n-th request. Any answer but `expect` stops the bench.
 */
async function load(instances, seconds, make, expect) {
  const agents = instances.map(() => new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS }));
  const latencies = [];
  let n = 0;
  const until = performance.now() + seconds * 1000;
  const send = (i, { method = "GET", path: reqPath, headers = {}, body }) =>
    new Promise((resolve, reject) => {
      const target = new URL(instances[i].url);
      const req = http.request(
        { host: target.hostname, port: target.port, method, path: reqPath, headers, agent: agents[i] },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            if (text.length < 500) text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode, text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const cpuBefore = instances.map((i) => processCpuMs(i.child.pid));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const k = n++;
        const t0 = performance.now();
        const answer = await send(k % instances.length, make(k));
        latencies.push(performance.now() - t0);
        if (answer.status !== expect) throw new Error(`answer ${answer.status} (expected ${expect}): ${answer.text}`);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const appCpu = instances.reduce((sum, i, k) => sum + processCpuMs(i.child.pid) - cpuBefore[k], 0);
  for (const agent of agents) agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    // The app's own CPU per request: unlike req/s it barely moves when other processes compete for the cores.
    appCpuMsPerRequest: appCpu / latencies.length,
  };
}

/** The most connections each instance held while `work` ran (pg_stat_activity, sampled every 100 ms). */
async function peakConnections(sql, work) {
  const peak = new Map();
  let running = true;
  const sampler = (async () => {
    while (running) {
      const rows = await sql`select application_name as name, count(*)::int as n from pg_stat_activity
        where datname = ${DB_NAME} group by application_name`;
      for (const { name, n } of rows) peak.set(name, Math.max(peak.get(name) ?? 0, n));
      await sleep(100);
    }
  })();
  try {
    return { result: await work(), peak: Object.fromEntries(peak) };
  } finally {
    running = false;
    await sampler;
  }
}

async function measure(instances, targets, sql) {
  const figures = {};
  for (const [name] of Object.entries(targets)) figures[name] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const baseline = await load(instances, DURATION, targets.healthz.make, 200);
    for (const [name, target] of Object.entries(targets)) {
      const { result, peak } =
        name === "healthz"
          ? { result: baseline, peak: {} }
          : await peakConnections(sql, () => load(instances, DURATION, target.make, target.status));
      figures[name].push({ ...result, ratio: result.rps / baseline.rps, peak });
      log(
        `${instances.length} instance(s), round ${round}, ${name}: ${result.rps.toFixed(0)} req/s, ` +
          `p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, ÷ healthz ${(result.rps / baseline.rps).toFixed(3)}, ` +
          `app CPU ${result.appCpuMsPerRequest.toFixed(2)} ms/request`,
      );
    }
  }
  const summary = {};
  for (const [name, rounds] of Object.entries(figures)) {
    const peakConnectionsSeen = {};
    for (const r of rounds)
      for (const [app, n] of Object.entries(r.peak))
        peakConnectionsSeen[app] = Math.max(peakConnectionsSeen[app] ?? 0, n);
    summary[name] = {
      rps: median(rounds.map((r) => r.rps)),
      p50Ms: median(rounds.map((r) => r.p50)),
      p95Ms: median(rounds.map((r) => r.p95)),
      ratioToHealthz: median(rounds.map((r) => r.ratio)),
      appCpuMsPerRequest: median(rounds.map((r) => r.appCpuMsPerRequest)),
      peakConnections: peakConnectionsSeen,
      rounds,
    };
  }
  summary.memoryKb = Object.fromEntries(instances.map((i) => [i.name, memoryKb(i.child.pid)]));
  return summary;
}

async function main() {
  log(
    `${os.availableParallelism()} cores · load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} · ${CONNECTIONS} connections · ${DURATION} s × ${ROUNDS} rounds per figure`,
  );
  const adminSql = EXISTING_URL ? null : postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await adminSql?.unsafe(`create database "${DB_NAME}"`);
  const sql = postgres(EXISTING_URL ?? ADMIN_URL, { max: 1, onnotice: () => {} });
  const instances = [];
  const hook = (hookPath, body) => testHooks(instances[0].url, HOOKS_SECRET)(hookPath, body);
  const cookieFor = async (userId) => cookieHeader((await hook("/sessions", { userId })).setCookie);
  try {
    instances.push(await startInstance("app-1"));
    const targets = { healthz: { status: 200, make: () => ({ path: "/healthz" }) } };
    const seeded = EXISTING_URL && ONLY.has("member-center") ? await membersOnExisting(dbUrl) : null;
    if (seeded) {
      for (const [label, m] of Object.entries(seeded)) {
        log(`member center (${label}): ${m.member_number}, ${m.entries} ledger entries`);
        const cookie = await cookieFor(m.user_id);
        targets[`member center (${label})`] = {
          status: 200,
          make: () => ({ path: "/member-center", headers: { cookie } }),
        };
      }
    } else if (ONLY.has("member-center")) {
      const cookie = await benchMemberCookie(hook);
      targets["member center"] = { status: 200, make: () => ({ path: "/member-center", headers: { cookie } }) };
    }
    let run = 0;
    if (ONLY.has("purchase")) {
      const data = EXISTING_URL ? await posDataOnExisting(dbUrl) : await seedPos(dbUrl);
      targets["POS purchase"] = {
        status: 201,
        make: (n) => ({ method: "POST", path: "/api/v1/purchases", ...purchaseRequest(data, run, n) }),
      };
    }
    if (ONLY.has("catalogue")) targets.catalogue = { status: 200, make: () => ({ path: "/materials" }) };
    // Each load() numbers its requests from 0: a new run number keeps receipts and idempotency keys unique
    // (with the time: a seeded database may already hold an earlier run's receipts).
    const purchase = targets["POS purchase"]?.make;
    if (purchase) {
      run = Date.now();
      targets["POS purchase"].make = (n) => {
        if (n === 0) run++;
        return purchase(n);
      };
    }
    log("warm-up");
    for (const target of Object.values(targets)) await load(instances, 2, target.make, target.status);
    const one = await measure(instances, targets, sql);
    let two = null;
    if (INSTANCES >= 2) {
      instances.push(await startInstance("app-2"));
      for (const target of Object.values(targets)) await load(instances, 2, target.make, target.status);
      two = await measure(instances, targets, sql);
    }
    const appSql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    const sizes = (
      await appSql`select relname as table, n_live_tup::int as rows, pg_total_relation_size(relid)::bigint as bytes
        from pg_stat_user_tables where schemaname = 'public' order by pg_total_relation_size(relid) desc limit 6`
    ).map((r) => ({ ...r, bytes: Number(r.bytes) }));
    await appSql.end();
    const result = {
      when: new Date().toISOString(),
      cores: os.availableParallelism(),
      loadAverage: os.loadavg(),
      connections: CONNECTIONS,
      durationSec: DURATION,
      rounds: ROUNDS,
      poolMax: POOL_MAX,
      database: EXISTING_URL ? DB_NAME : "fresh",
      one,
      two,
      largestTables: sizes,
    };
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(path.join(root, "bench", "results", "scale.json"), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      "figure                    instances  req/s   p50 ms  p95 ms  ÷ healthz  app CPU ms/req  most PG connections per instance",
    );
    for (const [label, summary] of [
      ["1", one],
      ["2", two],
    ]) {
      if (!summary) continue;
      for (const name of Object.keys(targets)) {
        const f = summary[name];
        console.log(
          `${name.padEnd(26)}${label.padEnd(11)}${f.rps.toFixed(0).padEnd(8)}${f.p50Ms.toFixed(1).padEnd(8)}${f.p95Ms
            .toFixed(1)
            .padEnd(
              8,
            )}${f.ratioToHealthz.toFixed(3).padEnd(11)}${f.appCpuMsPerRequest.toFixed(2).padEnd(16)}${JSON.stringify(f.peakConnections)}`,
        );
      }
      for (const [app, m] of Object.entries(summary.memoryKb))
        console.log(`  ${app} memory: ${(m.rss / 1024).toFixed(0)} MB resident, peak ${(m.peak / 1024).toFixed(0)} MB`);
    }
    console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1))}`);
    for (const t of sizes) console.log(`  table ${t.table}: ${t.rows} rows, ${(t.bytes / 1024).toFixed(0)} kB`);
  } finally {
    for (const instance of instances) await stopInstance(instance);
    if (EXISTING_URL) await sql`delete from api_key where name like 'bench:scale %'`.catch(() => {});
    await sql.end();
    await adminSql?.unsafe(`drop database if exists "${DB_NAME}" with (force)`);
    await adminSql?.end();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
