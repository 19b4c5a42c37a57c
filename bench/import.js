// `npm run bench:import`: moving members in (issue 35, ADR 038) on PostgreSQL.
//
//   - A fresh database on BENCH_PG_URL (an admin URL, default postgres://postgres@127.0.0.1:5432/postgres), dropped at
//     the end. The app: `node server.js` (production build, `npm run build` first) with APP_ENV=test (its test hooks
//     make the member whose pages are measured), on that database.
//   - Files generated to a temporary folder, streaming (bench/import-data.js): --members (default 100,000) members
//     with opening balances, as a SHOPLINE-like CSV (UTF-8 with BOM) and as a Firebase export (users.json +
//     memberList NDJSON, random password hashes: no --sample), about 0.2 % of rows bad on purpose.
//   - Each variant through the command line, as an operator runs it (`node scripts/import.js csv|firebase …`, a child
//     process): `--dry-run` (stage, then the dry run; timed from its phase lines), then the same command without it
//     (the staged run is re-checked and applied; apply timed). Goals: apply ≤ 60 s, dry run ≤ 20 s. The CSV is then
//     imported again: every row must come back `unchanged`.
//   - The member center (`/member-center`, the bench's logged-in member) at a fixed rate
//     (--rate, default 20/s) alone, then while the Firebase variant applies, then alone again; p95 of each request's
//     latency. Goal: p95 while importing ≤ 1.5 × p95 alone (the median of the two alone windows: the baseline,
//     measured in the same run). The import runs in its own process here (the command line); the console's import
//     runs as a job inside the app, behind the request gate.
//   - 1,000,000 rows (--million, default 1,000,000; 0 skips): a CSV dry run's peak RSS (VmHWM of the child, read from
//     /proc while it runs). Goal ≤ 300 MB.
//   - Checked after: every member's balance equals their ledger; the number of members and of import entries.
//
// Prints a table (PASS/FAIL beside each figure, never an assert) and writes bench/results/import.json. Exit code 1
// only when the bench itself broke.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import postgres from "postgres";
import { CSV_MAP, expectedRejects, writeCsv, writeFirebaseMembers, writeFirebaseUsers } from "./import-data.js";
import { cookieHeader, testHooks } from "./member.js";
import { adminStatement, databaseUrl, startBuiltServer } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    members: { type: "string", default: "100000" },
    million: { type: "string", default: "1000000" },
    rate: { type: "string", default: "20" },
    seconds: { type: "string", default: "10" },
    "db-name": { type: "string", default: `bench_imp_${process.pid}` },
    only: { type: "string", default: "csv,firebase,pages,memory" },
  },
});
const MEMBERS = Number(opts.members);
const MILLION = Number(opts.million);
const RATE = Number(opts.rate);
const SECONDS = Number(opts.seconds);
const ONLY = new Set(opts.only.split(","));
const DB_NAME = opts["db-name"];
if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error("--db-name: lower-case letters, digits and underscores");
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const HOOKS_SECRET = randomBytes(24).toString("base64url");
const GOAL_APPLY_S = 60;
const GOAL_DRY_RUN_S = 20;
const GOAL_P95_RATIO = 1.5;
const GOAL_RSS_MB = 300;

const log = (...args) => console.error("[bench:import]", ...args);
const dbUrl = (name) => databaseUrl(name, ADMIN_URL);

const admin = (statement) => adminStatement(statement, ADMIN_URL);

/** Peak resident set (MB) of a running process so far: VmHWM from /proc; null once it is gone. */
function peakRssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Runs the import command (`node scripts/import.js <kind> …`) on the bench's database: its exit code, its output,
 * the wall time, and its peak RSS (polled every 100 ms; VmHWM only grows, so the last reading is the peak).
 */
/**
 * The V8 flags `npm run import:csv` / `import:firebase` run the command with (package.json): a bounded heap, so a
 * million rows stay within the memory goal (ADR 038). Read from package.json so the bench measures what operators run.
 */
const IMPORT_NODE_FLAGS = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"))
  .scripts["import:csv"].split(/\s+/)
  .filter((arg) => arg.startsWith("--max-"));

function importCommand(kind, args, databaseUrl, { onStart } = {}) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [...IMPORT_NODE_FLAGS, path.join(root, "scripts/import.js"), kind, ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const take = (chunk) => {
      output += chunk;
      for (const line of String(chunk).split("\n")) if (line.trim()) log(`  ${kind}> ${line}`);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    let peak = 0;
    const poll = setInterval(() => {
      peak = Math.max(peak, peakRssMb(child.pid) ?? 0);
    }, 100);
    onStart?.(child);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearInterval(poll);
      resolve({ code, output, ms: Date.now() - started, peakRssMb: peak });
    });
  });
}

/** A phase's seconds from the command's output ("staged: … in 3.2 s", "dry run: … in 4.1 s", "done in 30.2 s"). */
function phaseSeconds(output, phase) {
  const patterns = {
    stage: /^staged: .* in ([\d.]+) s/m,
    check: /^dry run: .* in ([\d.]+) s/m,
    apply: /^done in ([\d.]+) s/m,
  };
  const match = patterns[phase].exec(output);
  return match ? Number(match[1]) : null;
}

/** A count from the command's last line ("done in 31.2 s: created 99,800, merged 0, unchanged: 0, rejected 200; …"). */
const count = (output, word) =>
  Number((new RegExp(`^done in .*${word}:? ([\\d,]+)`, "m").exec(output)?.[1] ?? "NaN").replace(/,/g, ""));

function percentiles(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
  return { p50Ms: at(0.5), p95Ms: at(0.95) };
}

/** The member center at a fixed arrival rate for `seconds`: every request's latency, p95 of them. */
function memberPages(url, cookie, seconds) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon(
      {
        url: `${url}/member-center`,
        connections: 4,
        overallRate: RATE,
        duration: seconds,
        headers: { cookie, "accept-encoding": "gzip" },
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({ requests: result.requests.total, non2xx: result.non2xx, ...percentiles(latencies), latencies });
      },
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/** While `work` runs: the member center in windows of `SECONDS` (at least one), all latencies together. */
async function pagesWhile(url, cookie, work) {
  let running = true;
  const done = work.finally(() => {
    running = false;
  });
  const windows = [];
  do {
    windows.push(await memberPages(url, cookie, SECONDS));
  } while (running);
  await done;
  return { windows, ...percentiles(windows.flatMap((w) => w.latencies)) };
}

async function main() {
  log(
    `${MEMBERS.toLocaleString("en-US")} members · ${os.availableParallelism()} cores · load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-import-"));
  await admin(`drop database if exists ${DB_NAME} with (force)`);
  await admin(`create database ${DB_NAME}`);
  const databaseUrl = dbUrl(DB_NAME);
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  let app;
  const rows = [];
  const results = { at: new Date().toISOString(), members: MEMBERS };
  try {
    app = await startBuiltServer({
      label: "import",
      readyMs: 120_000,
      env: {
        APP_ENV: "test",
        TEST_HOOKS_SECRET: HOOKS_SECRET,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "info",
      },
    });
    // The member whose pages are measured (the history hook of bench/member.js answered 404 here: a member without
    // history, so the figure is the page's own cost beside the import).
    const hook = testHooks(app.url, HOOKS_SECRET);
    const { userId } = await hook("/members", { phoneNumber: "+886955123456", name: "林雅婷" });
    const cookie = cookieHeader((await hook("/sessions", { userId })).setCookie);
    log("app ready, member logged in; generating the files");

    const files = {
      csv: path.join(tmp, "members.csv"),
      users: path.join(tmp, "users.json"),
      memberList: path.join(tmp, "memberList.ndjson"),
    };
    let started = Date.now();
    const bytes = {
      csv: await writeCsv(files.csv, MEMBERS),
      users: await writeFirebaseUsers(files.users, MEMBERS),
      memberList: await writeFirebaseMembers(files.memberList, MEMBERS),
    };
    results.generate = { ms: Date.now() - started, bytes };
    log(`generated in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(bytes)}`);
    const expectedReject = expectedRejects(MEMBERS);

    const csvArgs = ["--file", files.csv, "--source", "bench-csv", "--map", CSV_MAP];
    const firebaseArgs = ["--auth", files.users, "--members", files.memberList];

    async function variant(name, kind, args, { measurePages = false } = {}) {
      const dry = await importCommand(kind, [...args, "--dry-run"], databaseUrl);
      if (dry.code !== 0) throw new Error(`${name} --dry-run exited ${dry.code}`);
      const stageS = phaseSeconds(dry.output, "stage");
      const checkS = phaseSeconds(dry.output, "check");
      let applied;
      let pages = null;
      if (measurePages) {
        const alone = await memberPages(app.url, cookie, SECONDS);
        const during = await pagesWhile(
          app.url,
          cookie,
          importCommand(kind, args, databaseUrl).then((r) => {
            applied = r;
          }),
        );
        const after = await memberPages(app.url, cookie, SECONDS);
        // The baseline: both windows alone together (before and after: the machine drifts).
        const baseline = percentiles([...alone.latencies, ...after.latencies]).p95Ms;
        const strip = ({ latencies, ...rest }) => rest;
        pages = {
          alone: strip(alone),
          during: { ...during, windows: during.windows.map(strip) },
          after: strip(after),
          baselineP95Ms: baseline,
          ratio: during.p95Ms / baseline,
        };
      } else {
        applied = await importCommand(kind, args, databaseUrl);
      }
      if (applied.code !== 0) throw new Error(`${name} apply exited ${applied.code}`);
      const applyS = phaseSeconds(applied.output, "apply");
      const rejected = count(applied.output, "rejected");
      results[name] = {
        stageS,
        checkS,
        applyS,
        rejected,
        dryRunOutput: dry.output,
        applyOutput: applied.output,
        pages,
      };
      rows.push([`${name}: stage (stream the file into import_row)`, `${stageS} s`, "reported", null]);
      rows.push([
        `${name}: dry run`,
        `${checkS} s`,
        `<= ${GOAL_DRY_RUN_S} s`,
        checkS !== null && checkS <= GOAL_DRY_RUN_S,
      ]);
      rows.push([
        `${name}: apply ${MEMBERS.toLocaleString("en-US")} members with opening balances`,
        `${applyS} s (${rejected} rejected, ~${expectedReject} expected)`,
        `<= ${GOAL_APPLY_S} s`,
        applyS !== null && applyS <= GOAL_APPLY_S,
      ]);
      if (pages) {
        rows.push([
          `member center at ${RATE}/s: p95 while ${name} applies ÷ p95 alone`,
          `${pages.ratio.toFixed(2)} (${pages.during.p95Ms.toFixed(0)} ms vs ${pages.baselineP95Ms.toFixed(0)} ms; windows ${pages.during.windows.map((w) => w.p95Ms.toFixed(0)).join(", ")} ms)`,
          `<= ${GOAL_P95_RATIO}`,
          pages.ratio <= GOAL_P95_RATIO,
        ]);
      }
    }

    if (ONLY.has("csv")) {
      await variant("csv", "csv", csvArgs);
      const again = await importCommand("csv", csvArgs, databaseUrl);
      const unchanged = count(again.output, "unchanged");
      const expected = MEMBERS - (results.csv.rejected ?? 0);
      results.csvRerun = { code: again.code, unchanged, ms: again.ms, output: again.output };
      rows.push([
        "csv again: every row unchanged",
        `unchanged: ${unchanged} of ${expected} (${(again.ms / 1000).toFixed(1)} s)`,
        `${expected}`,
        again.code === 0 && unchanged === expected,
      ]);
    }
    if (ONLY.has("firebase")) await variant("firebase", "firebase", firebaseArgs, { measurePages: ONLY.has("pages") });

    // The ledger and the balances agree; the counts.
    const [ledger] = await sql`
      select count(*)::int as mismatched from loyalty_account a
        left join (select member_id, sum(amount)::bigint as total from point_entry group by member_id) e
          on e.member_id = a.member_id
       where a.balance <> coalesce(e.total, 0)`;
    const [counts] = await sql`select (select count(*)::int from member) as members,
                                      (select count(*)::int from point_entry where kind = 'import') as entries`;
    results.check = { ...ledger, ...counts };
    rows.push([
      "every balance = its ledger",
      `${ledger.mismatched} mismatched; ${counts.members} members, ${counts.entries} import entries`,
      "0",
      ledger.mismatched === 0,
    ]);

    if (ONLY.has("memory") && MILLION > 0) {
      const big = path.join(tmp, "million.csv");
      started = Date.now();
      const bigBytes = await writeCsv(big, MILLION);
      log(
        `generated ${MILLION.toLocaleString("en-US")} rows (${(bigBytes / 1024 / 1024).toFixed(0)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      const dry = await importCommand(
        "csv",
        ["--file", big, "--source", "bench-million", "--map", CSV_MAP, "--dry-run"],
        databaseUrl,
      );
      results.million = {
        code: dry.code,
        bytes: bigBytes,
        ms: dry.ms,
        peakRssMb: dry.peakRssMb,
        stageS: phaseSeconds(dry.output, "stage"),
        checkS: phaseSeconds(dry.output, "check"),
      };
      // The baseline, in the same run: a process that only loads the build the command loads (same V8 flags).
      const base = await new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            ...IMPORT_NODE_FLAGS,
            "--input-type=module",
            "-e",
            `await import(${JSON.stringify(pathToFileURL(path.join(root, "build/server/index.js")).href)}); console.log(/VmHWM:\\s+(\\d+)/.exec((await import("node:fs")).readFileSync("/proc/self/status", "utf8"))[1]); process.exit(0);`,
          ],
          { env: { ...process.env, NODE_ENV: "production" }, stdio: ["ignore", "pipe", "inherit"] },
        );
        let text = "";
        child.stdout.on("data", (chunk) => {
          text += chunk;
        });
        child.once("error", reject);
        child.once("exit", () => resolve(Number(text.trim()) / 1024));
      });
      results.million.baselineRssMb = base;
      rows.push([
        `${MILLION.toLocaleString("en-US")}-row CSV dry run: peak RSS of the command (baseline: the build loaded, ${base.toFixed(0)} MB)`,
        `${dry.peakRssMb.toFixed(0)} MB (exit ${dry.code}; stage ${results.million.stageS} s, dry run ${results.million.checkS} s)`,
        `<= ${GOAL_RSS_MB} MB`,
        dry.code === 0 && dry.peakRssMb <= GOAL_RSS_MB,
      ]);
    }

    console.log(
      `\nbench:import — ${new Date().toISOString()} · load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    console.log("| figure | measured | goal | |\n|---|---|---|---|");
    for (const [figure, measured, goal, pass] of rows)
      console.log(`| ${figure} | ${measured} | ${goal} | ${pass === null ? "" : pass ? "PASS" : "FAIL"} |`);
    const out = path.join(root, "bench", "results");
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, "import.json"), JSON.stringify({ ...results, rows }, null, 2));
  } catch (error) {
    if (app)
      log(
        `server log (last lines):\n${readFileSync(path.join(app.tmp, "server.log"), "utf8").split("\n").slice(-15).join("\n")}`,
      );
    throw error;
  } finally {
    await sql.end({ timeout: 5 });
    if (app) {
      app.child.kill("SIGTERM");
      await new Promise((resolve) => app.child.once("exit", resolve));
      rmSync(app.tmp, { recursive: true, force: true });
    }
    rmSync(tmp, { recursive: true, force: true });
    await admin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
