// `npm run bench:pos`: POS purchases per second through HTTP on PostgreSQL, as a ratio to pgbench's default
// TPC-B script on the same PostgreSQL server in the same run (goal >= 0.5), plus the p99 latency of a purchase.
//
//   - PostgreSQL: BENCH_PG_URL, an admin connection URL (default postgres://postgres@127.0.0.1:5432/postgres). Two fresh
//     databases are created there (<prefix>_app, <prefix>_pgbench; --db-prefix, default bench_pos_<pid>) and dropped.
//   - pgbench: `pgbench -i -s 1` once, then `pgbench -n -c C -j 2 -T D` (the built-in TPC-B-like script) per round.
//     It comes with PostgreSQL's client tools: Debian `apt-get install postgresql-client` (or postgresql-contrib on
//     older releases); set PGBENCH to its path if it is not on PATH.
//   - The app: `node server.js` with NODE_ENV=production (build/ must exist: `npm run build`) on the first database,
//     LOG_LEVEL=info as in production. POST /api/v1/purchases with a new receipt and Idempotency-Key per request, C
//     connections (autocannon), random members among 20,000 (POS_MEMBERS). Keys rotate among 100 store keys because of the per-key
//     limit of 600 requests a minute (a real till sends a few a minute).
//   - Rounds alternate pgbench and the app (--rounds, --duration, --connections); the figure is the median of the
//     per-round ratios; the p99 is the median of the rounds' p99. Every answer must be 201 or the bench fails.
//   - --same-work: each round also runs pgbench with the purchase's own statements (bench/pos-same-work.js) on the
//     app's database, as many clients as connections: the app's purchases/s ÷ that tps is what the app adds.
//   - --rate N: send N requests a second instead of as many as the connections can (the latency of a purchase
//     below saturation; the ratio to pgbench then means nothing).
//   - --till (also on with --same-work): after the rounds, one till: one connection sends a purchase every 20 ms
//     (--till-interval) for 20 s (--till-seconds), each waiting for the one before if it is late; prints the p50 and
//     p99 of a purchase as the till sees it (issue 36: p99 ≤ 25 ms).
//   - --spend (issue 36) / --growth (issue 38): instead of the rounds above, what a purchase that spends points
//     (or a referred friend's first purchase with a webhook endpoint taking purchases) costs beside a plain one, in
//     the same run against the same server: bench/pos-compare.js (its header says how). --compare-rounds N
//     (default 6), --compare-duration S (10) per kind and round, --growth-friends N (enough for the run: 550 a second
//     of growth segments, at least 30,000), --growth-delivery
//     off|on (off: the figure, attribution and the outbox written in the purchase's transaction; on: the
//     endpoint also delivers during the segments, reported; ADR 054 "Later (2026-12-07, late)"), --growth-parts (the referral and the outbox each alone too), --growth-mix (a realistic mix too:
//     --growth-mix-share, default 0.05, of its purchases are referred friends' first purchases), --growth-mix-only
//     (plain and the mix alone, without the worst case: with two kinds the rotated order is plain/mix, mix/plain …,
//     so many short rounds, e.g. --compare-rounds 24 --compare-duration 5, pair every mix segment with a plain one
//     next to it).
//   - --ceiling: each round also sends the same requests to two bare servers (bench/pos-ceiling-server.js): one
//     that only answers (HTTP alone), one that runs pgbench's own TPC-B transaction per request on the pgbench
//     database; with --same-work a third that sends the purchase's own statements (the same-work script) on the app's
//     database, alone like the same-work phase. Their ratios to pgbench are what a purchase could reach at best on
//     this machine.
//
// Prints a table and writes bench/results/pos.json. Exit code 1 only when the bench itself broke.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { comparePurchases } from "./pos-compare.js";
import { messagesSettled, purchaseRequest, seedPos, sendPurchases, vacuumed } from "./pos-data.js";
import { writeSameWorkScripts } from "./pos-same-work.js";
import { adminStatement, databaseUrl, freePort, postgresCpuMs, processCpuMs, startBuiltServer } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    "db-prefix": { type: "string", default: `bench_pos_${process.pid}` },
    ceiling: { type: "boolean", default: false },
    "same-work": { type: "boolean", default: false },
    rate: { type: "string" },
    till: { type: "boolean", default: false },
    "till-interval": { type: "string", default: "20" },
    "till-seconds": { type: "string", default: "20" },
    spend: { type: "boolean", default: false },
    growth: { type: "boolean", default: false },
    "compare-rounds": { type: "string", default: "6" },
    "compare-duration": { type: "string", default: "10" },
    "growth-friends": { type: "string" },
    "growth-delivery": { type: "string", default: "off" },
    "growth-parts": { type: "boolean", default: false },
    "growth-mix": { type: "boolean", default: false },
    "growth-mix-only": { type: "boolean", default: false },
    "growth-mix-share": { type: "string", default: "0.05" },
  },
});
const TILL = opts.till || opts["same-work"];
const TILL_P99_MS = 25;
const ROUNDS = Number(opts.rounds);
const DURATION = Number(opts.duration);
const CONNECTIONS = Number(opts.connections);
const PREFIX = opts["db-prefix"];
if (!/^[a-z0-9_]+$/.test(PREFIX)) throw new Error("--db-prefix: lower-case letters, digits and underscores");
const TARGET_RATIO = 0.5;
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const PGBENCH = process.env.PGBENCH || "pgbench";
/** The first non-201 answers, for the error message. */
const failures = [];

const dbUrl = (name) => databaseUrl(name, ADMIN_URL);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (...args) => console.error("[bench:pos]", ...args);

const admin = (statement) => adminStatement(statement, ADMIN_URL);

function pgbench(args, database = `${PREFIX}_pgbench`) {
  const url = new URL(dbUrl(database));
  const env = {
    ...process.env,
    PGHOST: url.hostname,
    PGPORT: url.port || "5432",
    PGUSER: decodeURIComponent(url.username) || "postgres",
    PGDATABASE: url.pathname.slice(1),
  };
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const run = spawnSync(PGBENCH, args, { env, encoding: "utf8" });
  if (run.error) throw new Error(`${PGBENCH} could not run (${run.error.message}); see the header of bench/pos.js`);
  if (run.status !== 0) throw new Error(`pgbench ${args.join(" ")} failed:\n${run.stderr}`);
  return run.stdout + run.stderr;
}

/** CPU ms per request of PostgreSQL's processes and of this process (the load generator) while `work` runs. */
async function cpuOf(work, requestsOf) {
  const pgBefore = postgresCpuMs();
  const selfBefore = process.cpuUsage();
  const result = await work();
  const pgAfter = postgresCpuMs();
  const self = process.cpuUsage(selfBefore);
  const n = requestsOf(result);
  return {
    result,
    // A backend that ends between the readings can be counted twice before: never below 0.
    postgresCpuMs: pgBefore === null || pgAfter === null ? null : Math.max(0, pgAfter - pgBefore) / n,
    loadCpuMs: (self.user + self.system) / 1000 / n,
  };
}

/** A timed pgbench run (-T DURATION, CONNECTIONS clients) on `database`: tps, latency, PostgreSQL's CPU per transaction. */
function timedPgbench(args, database) {
  const before = postgresCpuMs();
  const out = pgbench(["-n", "-c", String(CONNECTIONS), "-j", "2", "-T", String(DURATION), ...args], database);
  const after = postgresCpuMs();
  const pgCpu = before === null || after === null ? null : Math.max(0, after - before);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out) ?? /tps = ([\d.]+)/.exec(out);
  const latency = /latency average = ([\d.]+) ms/.exec(out);
  const processed = /number of transactions actually processed: (\d+)/.exec(out);
  const failed = /number of failed transactions: (\d+)/.exec(out);
  if (!tps) throw new Error(`no tps in pgbench output:\n${out}`);
  if (failed && Number(failed[1]) > 0) throw new Error(`pgbench ${args.join(" ")}: failed transactions\n${out}`);
  return {
    tps: Number(tps[1]),
    latencyAvgMs: latency ? Number(latency[1]) : null,
    postgresCpuMs: pgCpu === null || !processed ? null : pgCpu / Number(processed[1]),
  };
}

/**
 * Runs a pgbench phase (synchronous) with the app stopped (SIGSTOP, then SIGCONT): the phase measures its own script
 * alone. The app would otherwise deliver, beside pgbench, the receipts the same-work script queues (work the
 * purchase causes after it, which the app's round carries). Its connections stay open and idle.
 */
function alone(app, phase) {
  process.kill(app.child.pid, "SIGSTOP");
  try {
    return phase();
  } finally {
    process.kill(app.child.pid, "SIGCONT");
  }
}

/** pgbench's built-in TPC-B-like script on the pgbench database. */
function runPgbench() {
  return timedPgbench([]);
}

/** pgbench with the purchase's own statements on the app's database: its tps and PostgreSQL's CPU per purchase. */
function runSameWork(scriptArgs) {
  const { tps, postgresCpuMs } = timedPgbench(["-M", "prepared", ...scriptArgs], `${PREFIX}_app`);
  return { tps, postgresCpuMs };
}

function startApp(databaseUrl) {
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to see where the app's time goes.
  return startBuiltServer({
    label: "pos",
    nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(" ") : [],
    env: { APP_ENV: "development", DATABASE_URL: databaseUrl, LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "info" },
  });
}

/** bench/pos-ceiling-server.js in CEILING_MODE `mode` on the pgbench database, until /readyz answers. */
async function startCeiling(mode, database = `${PREFIX}_pgbench`) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "pos-ceiling-server.js")], {
    env: { ...process.env, CEILING_MODE: mode, PORT: String(port), DATABASE_URL: dbUrl(database) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { mode, url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGTERM");
  throw new Error(`the ${mode} ceiling server did not start`);
}

/** One round against a ceiling server: its rate, p99 and CPU per request. */
async function runCeiling(server, data, round) {
  const cpuBefore = processCpuMs(server.child.pid);
  const { result, postgresCpuMs, loadCpuMs } = await cpuOf(
    () => runPurchases(server.url, data, round),
    (r) => r["2xx"],
  );
  const cpuAfter = processCpuMs(server.child.pid);
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${server.mode} ceiling, round ${round}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const perSecond = result["2xx"] / result.duration;
  return {
    perSecond,
    p99Ms: result.latency.p99,
    cpuMs: (cpuAfter - cpuBefore) / result["2xx"],
    postgresCpuMs,
    loadCpuMs,
  };
}

function runPurchases(url, data, round, seconds = DURATION) {
  const overallRate = opts.rate ? Number(opts.rate) : undefined;
  return sendPurchases(url, data, round, { connections: CONNECTIONS, seconds, overallRate, failures });
}

/**
 * One till (issue 36): one keep-alive connection, a purchase every `interval` ms for `seconds` s, each sent when its
 * time comes or when the one before is answered, whichever is later. Latency from sending to the whole answer.
 */
async function runTill(url, data, interval, seconds) {
  const { Agent, request } = await import("node:http");
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL("/api/v1/purchases", url);
  const post = (n) =>
    new Promise((resolve, reject) => {
      const { body, headers } = purchaseRequest(data, "till", n);
      const started = performance.now();
      const req = request(target, { method: "POST", agent, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          if (res.statusCode !== 201 && failures.length < 5) failures.push(`${res.statusCode} ${text}`);
          resolve({ ms: performance.now() - started, ok: res.statusCode === 201 });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  const count = Math.floor((seconds * 1000) / interval);
  const latencies = [];
  let errors = 0;
  const start = performance.now();
  for (let n = 0; n < count; n++) {
    const wait = start + n * interval - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { ms, ok } = await post(n);
    latencies.push(ms);
    if (!ok) errors++;
  }
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { purchases: count, errors, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1), intervalMs: interval };
}

async function main() {
  if (opts.spend && opts.growth) throw new Error("--spend and --growth: one at a time");
  if (!["on", "off"].includes(opts["growth-delivery"])) throw new Error("--growth-delivery: on or off");
  if (opts["growth-mix-only"]) opts["growth-mix"] = true;
  const share = Number(opts["growth-mix-share"]);
  if (!(share > 0 && share <= 1)) throw new Error("--growth-mix-share: a share above 0 and at most 1, e.g. 0.05");
  if (opts.spend || opts.growth) {
    await comparePurchases(opts, { adminUrl: ADMIN_URL, prefix: PREFIX });
    return;
  }
  const which = spawnSync(PGBENCH, ["--version"], { encoding: "utf8" });
  if (which.error) throw new Error(`${PGBENCH} not found: apt-get install postgresql-client (or set PGBENCH)`);
  log(
    which.stdout.trim(),
    `· ${os.availableParallelism()} cores · load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  await admin(`create database "${PREFIX}_app"`);
  await admin(`create database "${PREFIX}_pgbench"`);
  let app;
  let queue;
  let pgbenchDb;
  const ceilings = [];
  const scriptDir = mkdtempSync(path.join(os.tmpdir(), "bench-pos-same-work-"));
  try {
    pgbench(["-i", "-q", "-s", "1"]);
    app = await startApp(dbUrl(`${PREFIX}_app`));
    queue = postgres(dbUrl(`${PREFIX}_app`), { max: 1, onnotice: () => {} });
    pgbenchDb = postgres(dbUrl(`${PREFIX}_pgbench`), { max: 1, onnotice: () => {} });
    const data = await seedPos(dbUrl(`${PREFIX}_app`));
    if (opts.ceiling) ceilings.push(await startCeiling("http"), await startCeiling("tpcb"));
    const sameWorkArgs = opts["same-work"] ? await writeSameWorkScripts(dbUrl(`${PREFIX}_app`), scriptDir) : null;
    // The purchase's own statements from a bare server, on the app's database (needs the same-work script's tables).
    if (opts.ceiling && sameWorkArgs) ceilings.push(await startCeiling("purchase", `${PREFIX}_app`));
    log("warm-up");
    await runPurchases(app.url, data, 0, 2);
    for (const server of ceilings) await runPurchases(server.url, data, 0, 2);
    await messagesSettled(queue);
    alone(app, runPgbench); // warm-up too
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await messagesSettled(queue);
      await vacuumed(queue);
      await vacuumed(pgbenchDb);
      const base = alone(app, runPgbench);
      const cpuBefore = processCpuMs(app.child.pid);
      let settleMs = 0;
      const measured = await cpuOf(
        async () => {
          const result = await runPurchases(app.url, data, round);
          // The receipts the app left to deliver after its round (its dispatcher rests while it serves requests):
          // their CPU is counted with the round's, the wait for them is not (it is mostly the dispatcher's rest).
          settleMs = await messagesSettled(queue);
          return result;
        },
        (r) => r["2xx"],
      );
      const result = measured.result;
      const cpuAfter = processCpuMs(app.child.pid);
      const ok = result["2xx"];
      let sameWork = null;
      if (sameWorkArgs) {
        await vacuumed(queue);
        sameWork = alone(app, () => runSameWork(sameWorkArgs));
        sameWork.ratio = ok / result.duration / sameWork.tps;
        sameWork.ofTpcb = sameWork.tps / base.tps;
        log(
          `round ${round}: the purchase's own statements through pgbench ${sameWork.tps.toFixed(0)} tps ` +
            `(PostgreSQL CPU ${sameWork.postgresCpuMs?.toFixed(2)} ms/purchase), ${sameWork.ofTpcb.toFixed(2)} of ` +
            `TPC-B's; the app's purchases ÷ that: ${sameWork.ratio.toFixed(2)}`,
        );
      }
      const ceiling = {};
      for (const server of ceilings) {
        // The purchase ceiling works on the app's database: alone there too, as the same-work phase.
        const onAppDb = server.mode === "purchase";
        if (onAppDb) {
          await messagesSettled(queue);
          await vacuumed(queue);
          process.kill(app.child.pid, "SIGSTOP");
        }
        let c;
        try {
          c = await runCeiling(server, data, round);
        } finally {
          if (onAppDb) process.kill(app.child.pid, "SIGCONT");
        }
        ceiling[server.mode] = { ...c, ratio: c.perSecond / base.tps };
        if (onAppDb && sameWork) ceiling[server.mode].ofSameWork = c.perSecond / sameWork.tps;
        log(
          `round ${round}: ${server.mode} ceiling ${c.perSecond.toFixed(0)}/s, ratio ${(c.perSecond / base.tps).toFixed(2)}, ` +
            `p99 ${c.p99Ms} ms, CPU ${c.cpuMs.toFixed(2)} ms/request (PostgreSQL ${c.postgresCpuMs?.toFixed(2)}, ` +
            `load generator ${c.loadCpuMs.toFixed(2)})` +
            (onAppDb && sameWork
              ? `; ÷ the same statements through pgbench: ${(c.perSecond / sameWork.tps).toFixed(2)}`
              : ""),
        );
      }
      if (result.non2xx > 0) log("first failures:", failures.slice(0, 3));
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
        throw new Error(
          `round ${round}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
      }
      const purchasesPerSecond = ok / result.duration;
      rounds.push({
        pgbenchTps: base.tps,
        purchasesPerSecond,
        ratio: purchasesPerSecond / base.tps,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        appCpuMsPerPurchase: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / ok,
        postgresCpuMsPerPurchase: measured.postgresCpuMs,
        postgresCpuMsPerPgbenchTx: base.postgresCpuMs,
        loadGeneratorCpuMsPerPurchase: measured.loadCpuMs,
        ...(opts.ceiling ? { ceiling } : {}),
        ...(sameWork ? { sameWork } : {}),
        receiptsSettledMs: settleMs,
      });
      log(
        `round ${round}: pgbench ${base.tps.toFixed(0)} tps, purchases ${purchasesPerSecond.toFixed(0)}/s, ` +
          `ratio ${(purchasesPerSecond / base.tps).toFixed(2)}, p99 ${result.latency.p99} ms, ` +
          `app CPU ${rounds.at(-1).appCpuMsPerPurchase?.toFixed(2)} ms/purchase, PostgreSQL CPU ` +
          `${measured.postgresCpuMs?.toFixed(2)} ms/purchase (pgbench: ${base.postgresCpuMs?.toFixed(2)} ms/transaction), receipts delivered ${settleMs} ms after`,
      );
    }
    const summary = {
      when: new Date().toISOString(),
      cores: os.availableParallelism(),
      loadAverage: os.loadavg(),
      connections: CONNECTIONS,
      durationSec: DURATION,
      rounds,
      ratio: median(rounds.map((r) => r.ratio)),
      purchasesPerSecond: median(rounds.map((r) => r.purchasesPerSecond)),
      pgbenchTps: median(rounds.map((r) => r.pgbenchTps)),
      p99Ms: median(rounds.map((r) => r.p99Ms)),
      appCpuMsPerPurchase: median(rounds.map((r) => r.appCpuMsPerPurchase ?? 0)),
      postgresCpuMsPerPurchase: median(rounds.map((r) => r.postgresCpuMsPerPurchase ?? 0)),
      postgresCpuMsPerPgbenchTx: median(rounds.map((r) => r.postgresCpuMsPerPgbenchTx ?? 0)),
      loadGeneratorCpuMsPerPurchase: median(rounds.map((r) => r.loadGeneratorCpuMsPerPurchase)),
      target: TARGET_RATIO,
    };
    if (opts.ceiling) {
      summary.ceiling = Object.fromEntries(
        ceilings.map(({ mode }) => [
          mode,
          {
            ratio: median(rounds.map((r) => r.ceiling[mode].ratio)),
            perSecond: median(rounds.map((r) => r.ceiling[mode].perSecond)),
            p99Ms: median(rounds.map((r) => r.ceiling[mode].p99Ms)),
            cpuMsPerRequest: median(rounds.map((r) => r.ceiling[mode].cpuMs)),
            postgresCpuMsPerRequest: median(rounds.map((r) => r.ceiling[mode].postgresCpuMs ?? 0)),
            loadCpuMsPerRequest: median(rounds.map((r) => r.ceiling[mode].loadCpuMs)),
            ...(mode === "purchase" && sameWorkArgs
              ? { ofSameWork: median(rounds.map((r) => r.ceiling[mode].ofSameWork)) }
              : {}),
          },
        ]),
      );
    }
    if (sameWorkArgs) {
      summary.sameWork = {
        tps: median(rounds.map((r) => r.sameWork.tps)),
        ratio: median(rounds.map((r) => r.sameWork.ratio)),
        ofTpcb: median(rounds.map((r) => r.sameWork.ofTpcb)),
        postgresCpuMs: median(rounds.map((r) => r.sameWork.postgresCpuMs ?? 0)),
      };
    }
    if (TILL) {
      const till = await runTill(app.url, data, Number(opts["till-interval"]), Number(opts["till-seconds"]));
      if (till.errors > 0) throw new Error(`till: ${till.errors} answers not 201: ${failures.slice(0, 3).join("; ")}`);
      summary.till = { ...till, target: TILL_P99_MS, pass: till.p99Ms <= TILL_P99_MS };
      log(
        `till: ${till.purchases} purchases, one every ${till.intervalMs} ms: p50 ${till.p50Ms.toFixed(1)} ms, p99 ${till.p99Ms.toFixed(1)} ms`,
      );
    }
    summary.pass = summary.ratio >= TARGET_RATIO;
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(path.join(root, "bench", "results", "pos.json"), `${JSON.stringify(summary, null, 2)}\n`);
    console.log("figure                                    value       target   result");
    console.log(
      `POS purchases/s ÷ pgbench TPC-B tps        ${summary.ratio.toFixed(2).padEnd(11)} ≥ ${TARGET_RATIO}    ${summary.pass ? "PASS" : "FAIL"}`,
    );
    console.log(`  purchases/s (median)                    ${summary.purchasesPerSecond.toFixed(0)}`);
    console.log(`  pgbench tps (median)                    ${summary.pgbenchTps.toFixed(0)}`);
    console.log(`  purchase p99 latency (median of rounds) ${summary.p99Ms} ms`);
    console.log(`  app CPU per purchase (median)           ${summary.appCpuMsPerPurchase.toFixed(2)} ms`);
    console.log(
      `  PostgreSQL CPU per purchase (median)    ${summary.postgresCpuMsPerPurchase.toFixed(2)} ms ` +
        `(per pgbench transaction: ${summary.postgresCpuMsPerPgbenchTx.toFixed(2)} ms)`,
    );
    // What the goal leaves per purchase: the machine's cores divided by the goal's rate, for the app, PostgreSQL and
    // the load generator together.
    const machineMs =
      summary.appCpuMsPerPurchase + summary.postgresCpuMsPerPurchase + summary.loadGeneratorCpuMsPerPurchase;
    const goalRate = TARGET_RATIO * summary.pgbenchTps;
    console.log(
      `  CPU per purchase, app + PostgreSQL + load generator: ${machineMs.toFixed(2)} ms; at the goal's rate ` +
        `(${goalRate.toFixed(0)}/s) ${os.availableParallelism()} cores allow ${((os.availableParallelism() * 1000) / goalRate).toFixed(2)} ms`,
    );
    if (summary.sameWork) {
      console.log(
        `  the purchase's own statements, pgbench: ${summary.sameWork.tps.toFixed(0)} tps (PostgreSQL ` +
          `${summary.sameWork.postgresCpuMs.toFixed(2)} ms CPU each); purchases/s ÷ that ${summary.sameWork.ratio.toFixed(2)}`,
      );
      // Issue 36's goals: the purchase's SQL ≥ 0.35 of TPC-B's rate; the app ≥ 0.7 of its own SQL's rate.
      const w = summary.sameWork;
      console.log(
        `the purchase's SQL through pgbench ÷ TPC-B tps  ${w.ofTpcb.toFixed(2).padEnd(11)} ≥ 0.35   ${w.ofTpcb >= 0.35 ? "PASS" : "FAIL"}`,
      );
      console.log(
        `app purchases/s ÷ its SQL through pgbench       ${w.ratio.toFixed(2).padEnd(11)} ≥ 0.7    ${w.ratio >= 0.7 ? "PASS" : "FAIL"}`,
      );
    }
    if (summary.till) {
      const t = summary.till;
      console.log(
        `one till, a purchase every ${t.intervalMs} ms: p50 ${t.p50Ms.toFixed(1)} ms, p99 ${t.p99Ms.toFixed(1)} ms ` +
          `(max ${t.maxMs.toFixed(1)} ms, ${t.purchases} purchases)   ≤ ${t.target} ms   ${t.pass ? "PASS" : "FAIL"}`,
      );
    }
    for (const [mode, c] of Object.entries(summary.ceiling ?? {})) {
      const what = {
        http: "bare HTTP, no database",
        tpcb: "bare HTTP + pgbench's TPC-B transaction",
        purchase: "bare HTTP + the purchase's own statements",
      }[mode];
      console.log(
        `  ceiling: ${what.padEnd(42)} ratio ${c.ratio.toFixed(2)}, ${c.perSecond.toFixed(0)}/s, p99 ${c.p99Ms} ms, ` +
          `${c.cpuMsPerRequest.toFixed(2)} ms CPU/request, PostgreSQL ${c.postgresCpuMsPerRequest.toFixed(2)} ms, ` +
          `load generator ${c.loadCpuMsPerRequest.toFixed(2)} ms` +
          (c.ofSameWork === undefined ? "" : `; ÷ the same statements through pgbench ${c.ofSameWork.toFixed(2)}`),
      );
    }
  } finally {
    for (const server of ceilings) server.child.kill("SIGTERM");
    rmSync(scriptDir, { recursive: true, force: true });
    await queue?.end();
    await pgbenchDb?.end();
    if (app) {
      app.child.kill("SIGTERM");
      await new Promise((resolve) => (app.child.exitCode !== null ? resolve() : app.child.once("exit", resolve)));
      rmSync(app.tmp, { recursive: true, force: true });
    }
    await admin(`drop database if exists "${PREFIX}_app" with (force)`);
    await admin(`drop database if exists "${PREFIX}_pgbench" with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
