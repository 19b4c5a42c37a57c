// `node bench/pos-statements.js`: what one POS purchase costs PostgreSQL — commits (pg_stat_database.xact_commit)
// and statements (the server log with log_statement = all, set on a throwaway database only) — and the app's CPU
// per purchase, for N purchases sent one at a time (no contention, so the figures are per request, not per load).
//
//   - PostgreSQL: BENCH_PG_URL (admin URL, default postgres://postgres@127.0.0.1:5432/postgres); a database
//     bench_posstmt_<pid> is created and dropped. The statements are counted from the server's log file
//     (--log-file, default Debian's /var/log/postgresql/postgresql-15-main.log; skipped when unreadable).
//   - The app: `node server.js` from build/ (npm run build), production, as in bench/pos.js.
//
// Options: --purchases N (default 200), --log-file PATH.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { purchaseRequest, seedPos } from "./pos-data.js";
import { freePort, processCpuMs } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    purchases: { type: "string", default: "200" },
    "log-file": { type: "string", default: "/var/log/postgresql/postgresql-15-main.log" },
  },
});
const N = Number(opts.purchases);
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const DB = `bench_posstmt_${process.pid}`;
const dbUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB}`;
  return url.toString();
})();
const log = (...args) => console.error("[bench:pos-statements]", ...args);

async function admin(run) {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end();
  }
}

// Backends report their statistics when idle, at most every 10 s in PostgreSQL 15: wait that out.
async function commits() {
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  return admin(
    async (sql) => (await sql`select xact_commit::int as n from pg_stat_database where datname = ${DB}`)[0].n,
  );
}

async function main() {
  if (!existsSync(path.join(root, "build", "server", "index.js"))) throw new Error("build/ is missing: npm run build");
  await admin((sql) => sql.unsafe(`create database "${DB}"`));
  const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-posstmt-"));
  let child;
  try {
    const port = await freePort();
    child = spawn(process.execPath, [path.join(root, "server.js")], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        APP_ENV: "development",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: tmp,
        DATABASE_URL: dbUrl,
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", openSync(path.join(tmp, "server.log"), "w"), "inherit"],
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (i > 600 || child.exitCode !== null) throw new Error("the app did not become ready");
      try {
        if ((await fetch(`${url}/readyz`)).status === 200) break;
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const data = await seedPos(dbUrl);
    const send = async (run, n) => {
      const { body, headers } = purchaseRequest(data, run, n);
      const response = await fetch(`${url}/api/v1/purchases`, { method: "POST", body, headers });
      if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
    };
    for (let n = 1; n <= 50; n++) await send(0, n); // warm-up
    // Every new connection of the app from now on logs its statements (the pool connects lazily; the app
    // is restarted-free, so close the warm connections by terminating them).
    await admin(async (sql) => {
      await sql.unsafe(`alter database "${DB}" set log_statement = 'all'`);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${DB} and pid <> pg_backend_pid()`;
    });
    // The terminated connections fail their next query once; one throwaway request per pooled connection.
    for (let n = 51; n <= 80; n++) await send(0, n).catch(() => {});
    let logStart = null;
    try {
      logStart = statSync(opts["log-file"]).size;
    } catch {
      log(`cannot read ${opts["log-file"]}: statements not counted`);
    }
    // The app commits on its own too (the job queue's polling, the readiness probe): an idle interval as long
    // as a sample measures that rate, which is subtracted.
    const idleStart = performance.now();
    const commitsIdle0 = await commits();
    const commitsBefore = await commits();
    const idleRate = (commitsBefore - commitsIdle0 - 1) / (performance.now() - idleStart);
    const sampleStart = performance.now();
    const cpuBefore = processCpuMs(child.pid);
    const started = performance.now();
    for (let n = 1; n <= N; n++) await send(1, n);
    const elapsed = performance.now() - started;
    const cpuAfter = processCpuMs(child.pid);
    const commitsAfter = await commits();
    const background = idleRate * (performance.now() - sampleStart);
    let statements = null;
    if (logStart !== null) {
      // Only the app's request pool (application_name, see platform/db/client.ts), not the job queue's sessions.
      const pids = await admin(
        async (sql) =>
          new Set(
            (
              await sql`select pid from pg_stat_activity where datname = ${DB} and application_name like 'han-living-app:%'`
            ).map((row) => String(row.pid)),
          ),
      );
      // One entry per log line that starts with a time stamp; a statement's further lines follow with a tab.
      const entries = readFileSync(opts["log-file"], "utf8")
        .slice(logStart)
        .split(/\n(?=\d{4}-\d\d-\d\d )/);
      const mine = entries.filter((entry) => {
        const pid = /^\S+ \S+ \S+ \[(\d+)\]/.exec(entry)?.[1];
        return pid && pids.has(pid) && entry.includes(`@${DB} `) && /LOG: {2}(statement|execute)/.test(entry);
      });
      statements = mine.length;
      if (process.env.BENCH_VERBOSE) {
        console.error(
          mine
            .slice(-60)
            .map((entry) =>
              entry
                .replace(/^.*LOG: {2}/, "")
                .replace(/\s+/g, " ")
                .slice(0, 160),
            )
            .join("\n"),
        );
      }
    }
    // One commit per sample comes from commits() itself (its own session's query) — subtracted.
    const figures = {
      purchases: N,
      commitsPerPurchase: (commitsAfter - commitsBefore - 1 - background) / N,
      backgroundCommits: background,
      statementsPerPurchase: statements === null ? null : statements / N,
      appCpuMsPerPurchase: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / N,
      latencyMsPerPurchase: elapsed / N,
      loadAverage: os.loadavg(),
    };
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    rmSync(tmp, { recursive: true, force: true });
    await admin((sql) => sql.unsafe(`drop database if exists "${DB}" with (force)`));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
