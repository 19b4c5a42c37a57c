// `npm run bench:dashboard -- [--database-url URL] [--runs N] [--warmup N] [--manager-stores N] [--only panels,triggers]`:
// the console dashboard (ADR 025) on a database filled by `npm run db:seed:scale` (goal at 1,000,000 members /
// 10,000,000 ledger entries / 3,000,000 purchases: every panel p95 ≤ 300 ms for a whole year), and what its
// summary triggers cost a purchase (goal: ≤ 10 % slower). Not part of CI.
//
//   - The database: --database-url, or BENCH_DASHBOARD_URL, default postgres://postgres@127.0.0.1:5432/scale_dash.
//     It is only read by the panels part.
//   - Panels: the domain functions the page's loader calls (app/domain/reports/dashboard.server.ts, loaded from the
//     TypeScript sources with tsx), one at a time on a pool like the app's, for the last 365 Taipei days up to today,
//     (1) for all stores (an admin) and (2) for a manager of the --manager-stores (3) busiest stores; --warmup (3)
//     then --runs (20) calls each, timed here: p50 / p95 / max. "page" is loadDashboard, every panel in a row.
//     Then EXPLAIN (ANALYZE, BUFFERS) of each statement of the slowest panel (by p95), as the app sends it; the
//     slowest statement's plan is printed.
//   - Triggers: a scratch copy of the database (CREATE DATABASE … TEMPLATE, dropped at the end) where the purchase
//     booking of the app (`recordPurchase`, the function behind POST /api/v1/purchases and the counter) runs in a
//     loop — --concurrency (4) workers, random members among 500 and random stores, a new receipt each — for
//     --duration (10) s per round, alternating rounds with the report_* triggers enabled and disabled
//     (ALTER TABLE … ENABLE/DISABLE TRIGGER), --rounds (3) of each. The figure is the median over the rounds of
//     the purchases/s with triggers ÷ without, and the mean booking time with ÷ without.
//
// Prints tables and writes bench/results/dashboard.json. Exit code 1 only when the bench itself broke.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    "database-url": { type: "string" },
    runs: { type: "string", default: "20" },
    warmup: { type: "string", default: "3" },
    "manager-stores": { type: "string", default: "3" },
    only: { type: "string", default: "panels,triggers" },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "10" },
    concurrency: { type: "string", default: "4" },
  },
});
const DB_URL =
  opts["database-url"] || process.env.BENCH_DASHBOARD_URL || "postgres://postgres@127.0.0.1:5432/scale_dash";
const RUNS = Number(opts.runs);
const WARMUP = Number(opts.warmup);
const MANAGER_STORES = Number(opts["manager-stores"]);
const ONLY = new Set(opts.only.split(",").map((s) => s.trim()));
const ROUNDS = Number(opts.rounds);
const DURATION = Number(opts.duration);
const CONCURRENCY = Number(opts.concurrency);
const GOAL_MS = 300;
const GOAL_SLOWDOWN = 0.1;
const REPORT_TRIGGERS = [
  ["member", "report_member"],
  ["purchase", "report_purchase"],
  ["purchase_refund", "report_purchase_refund"],
  ["point_entry", "report_point_entry"],
  ["loyalty_account", "report_loyalty_account"],
  ["point_lot", "report_point_lot"],
  ["tier_change", "report_tier_change"],
  ["coupon", "report_coupon"],
];

const log = (...args) => console.error("[bench:dashboard]", ...args);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => x.toFixed(1);
const src = (p) => tsImport(path.join(root, p), import.meta.url);
const dbUrl = (name) => {
  const url = new URL(DB_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

const reports = await src("app/domain/reports/dashboard.server.ts");
const showroom = await src("app/domain/reports/showroom.server.ts");
const { addIsoDays } = await src("app/domain/reports/filters.ts");
const { taipeiIsoDate } = await src("app/lib/time.ts");
const schema = await src("platform/db/schema/index.ts");
const { drizzle } = await src("node_modules/drizzle-orm/postgres-js/index.js");

/** A Drizzle database like the app's (postgres-js, prepared statements), recording the statements when asked. */
function openDb(url, max) {
  const client = postgres(url, {
    max,
    prepare: true,
    onnotice: () => {},
    connection: { application_name: "bench-dashboard" },
  });
  const recorder = { statements: null };
  const db = drizzle(client, {
    schema,
    logger: { logQuery: (query, params) => recorder.statements?.push({ query, params }) },
  });
  return { client, db, recorder };
}

async function timeIt(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function panels(result) {
  const { client, db, recorder } = openDb(DB_URL, 10);
  try {
    const [{ members, entries, purchases }] = await client`
      select (select count(*) from member)::int as members, (select count(*) from point_entry)::int as entries,
             (select count(*) from purchase)::int as purchases`;
    log(
      `database: ${members.toLocaleString("en")} members, ${entries.toLocaleString("en")} ledger entries, ${purchases.toLocaleString("en")} purchases`,
    );
    const now = new Date();
    const today = taipeiIsoDate(now);
    const from = addIsoDays(today, -364);
    const busiest = await client`
      select store_id from report_day_store where day between ${from}::date and ${today}::date and store_id not in ('', '*')
       group by store_id order by sum(purchases) desc limit ${MANAGER_STORES}`;
    const scopes = [
      { name: "all stores", scope: { kind: "all" } },
      {
        name: `manager (${busiest.length} stores)`,
        scope: { kind: "stores", storeIds: busiest.map((r) => r.store_id) },
      },
    ];
    result.database = { members, entries, purchases, from, to: today, managerStores: busiest.map((r) => r.store_id) };
    log(`range ${from} … ${today}; manager's stores: ${busiest.map((r) => r.store_id).join(", ")}`);
    const PANELS = [
      ["days (series, totals, monthly points)", reports.loadDays, false],
      ["stores", reports.loadStores, false],
      ["active members (30/90 days)", reports.loadActive, false],
      ["liability, tiers, expiring", reports.loadLiability, true],
      ["tier movements", reports.loadTierMoves, true],
      ["rewards", reports.loadRewards, false],
      ["cohorts", reports.loadCohorts, false],
      // 展示廳 (ADR 048): live queries over appointment and purchase, not summaries.
      ["showroom appointments", showroom.loadAppointments, false],
      ["showroom visits → purchases (30/90 d)", showroom.loadVisitFollowUps, false],
      ["page (loadDashboard)", reports.loadDashboard, false],
    ];
    const rows = [];
    for (const { name: scopeName, scope } of scopes) {
      const input = { from, to: today, today, scope, now };
      for (const [panel, fn, programmeOnly] of PANELS) {
        if (programmeOnly && scope.kind !== "all") continue;
        for (let i = 0; i < WARMUP; i++) await fn(db, input);
        const times = [];
        for (let i = 0; i < RUNS; i++) times.push(await timeIt(() => fn(db, input)));
        times.sort((a, b) => a - b);
        recorder.statements = [];
        await fn(db, input);
        const statements = recorder.statements;
        recorder.statements = null;
        const row = {
          scope: scopeName,
          panel,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          max: times[times.length - 1],
          statements,
          page: fn === reports.loadDashboard,
        };
        rows.push(row);
        log(
          `${scopeName.padEnd(22)} ${panel.padEnd(40)} p50 ${ms(row.p50).padStart(7)} ms  p95 ${ms(row.p95).padStart(7)} ms`,
        );
      }
    }
    result.panels = rows.map(({ statements, page, ...r }) => ({ ...r, page, pass: page ? null : r.p95 <= GOAL_MS }));

    const slowest = rows.filter((r) => !r.page).sort((a, b) => b.p95 - a.p95)[0];
    const plans = [];
    for (const s of slowest.statements) {
      const plan = await client.unsafe(`explain (analyze, buffers) ${s.query}`, s.params);
      const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
      const exec = Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? 0);
      plans.push({ query: s.query, params: s.params, exec, text });
    }
    plans.sort((a, b) => b.exec - a.exec);
    result.slowest = { scope: slowest.scope, panel: slowest.panel, p95: slowest.p95, plan: plans[0] };

    console.log(
      `\nDashboard panels, ${from} … ${today} (365 days), ${RUNS} runs each after ${WARMUP} warm-up (load ${load()})`,
    );
    console.log(
      `${"scope".padEnd(22)} ${"panel".padEnd(40)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"max ms".padStart(8)}  goal p95 ≤ ${GOAL_MS} ms`,
    );
    for (const r of rows) {
      const verdict = r.page ? "(sum of the panels)" : r.p95 <= GOAL_MS ? "PASS" : "FAIL";
      console.log(
        `${r.scope.padEnd(22)} ${r.panel.padEnd(40)} ${ms(r.p50).padStart(8)} ${ms(r.p95).padStart(8)} ${ms(r.max).padStart(8)}  ${verdict}`,
      );
    }
    console.log(
      `\nSlowest panel: ${slowest.panel} (${slowest.scope}), p95 ${ms(slowest.p95)} ms; its slowest statement:`,
    );
    console.log(plans[0].query.replace(/\s+/g, " "));
    console.log(`params: ${JSON.stringify(plans[0].params)}`);
    console.log(plans[0].text);
  } finally {
    await client.end({ timeout: 5 });
  }
}

async function setTriggers(client, enabled) {
  for (const [table, trigger] of REPORT_TRIGGERS) {
    await client.unsafe(`alter table ${table} ${enabled ? "enable" : "disable"} trigger ${trigger}`);
  }
}

async function triggers(result) {
  const { recordPurchase } = await src("app/domain/loyalty/purchases.server.ts");
  const source = new URL(DB_URL).pathname.slice(1);
  const scratch = `${source}_trg_${process.pid}`.slice(0, 63);
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  log(`copying ${source} to ${scratch} (CREATE DATABASE … TEMPLATE, file copy)…`);
  const t0 = performance.now();
  await admin.unsafe(`create database "${scratch}" template "${source}" strategy file_copy`);
  log(`copied in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const { client, db } = openDb(dbUrl(scratch), CONCURRENCY + 1);
  try {
    const members = (
      await client`select m.id from member m join loyalty_account a on a.member_id = m.id
                    where m.deleted_at is null order by random() limit 500`
    ).map((r) => r.id);
    const stores = (await client`select id from store`).map((r) => r.id);
    let receipt = 0;
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [true, false] : [false, true];
      const figures = {};
      for (const enabled of order) {
        await setTriggers(client, enabled);
        const times = [];
        const until = performance.now() + DURATION * 1000;
        const worker = async () => {
          while (performance.now() < until) {
            const now = new Date();
            const input = {
              memberId: members[Math.floor(Math.random() * members.length)],
              storeId: stores[Math.floor(Math.random() * stores.length)],
              receiptNumber: `BENCH-${process.pid}-${++receipt}`,
              netAmount: 500 + Math.floor(Math.random() * 20_000),
              purchasedAt: now,
            };
            times.push(await timeIt(() => recordPurchase(db, input, now)));
          }
        };
        const started = performance.now();
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        const seconds = (performance.now() - started) / 1000;
        times.sort((a, b) => a - b);
        figures[enabled ? "on" : "off"] = {
          perSecond: times.length / seconds,
          meanMs: times.reduce((a, b) => a + b, 0) / times.length,
          p95Ms: percentile(times, 95),
          purchases: times.length,
        };
        log(
          `round ${round + 1} triggers ${enabled ? "on " : "off"}: ${(times.length / seconds).toFixed(1)} purchases/s, mean ${ms(figures[enabled ? "on" : "off"].meanMs)} ms (load ${load()})`,
        );
      }
      rounds.push(figures);
    }
    await setTriggers(client, true);
    const rate = median(rounds.map((r) => r.on.perSecond / r.off.perSecond));
    const time = median(rounds.map((r) => r.on.meanMs / r.off.meanMs));
    result.triggers = { concurrency: CONCURRENCY, duration: DURATION, rounds, rateRatio: rate, timeRatio: time };
    console.log(
      `\nSummary triggers and a purchase (recordPurchase, ${CONCURRENCY} workers, ${ROUNDS} × ${DURATION} s each way)`,
    );
    console.log("round  on/s    off/s   on mean ms  off mean ms  on p95 ms  off p95 ms");
    rounds.forEach((r, i) => {
      console.log(
        `${String(i + 1).padEnd(6)} ${r.on.perSecond.toFixed(1).padStart(6)}  ${r.off.perSecond.toFixed(1).padStart(6)}  ${ms(r.on.meanMs).padStart(10)}  ${ms(r.off.meanMs).padStart(11)}  ${ms(r.on.p95Ms).padStart(9)}  ${ms(r.off.p95Ms).padStart(10)}`,
      );
    });
    const slowdown = 1 / rate - 1;
    console.log(
      `median purchases/s with ÷ without: ${rate.toFixed(3)} (${(slowdown * 100).toFixed(1)} % slower; goal ≤ ${GOAL_SLOWDOWN * 100} %: ${slowdown <= GOAL_SLOWDOWN ? "PASS" : "FAIL"}); mean booking time with ÷ without: ${time.toFixed(3)}`,
    );
  } finally {
    await client.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists "${scratch}" with (force)`);
    await admin.end({ timeout: 5 });
  }
}

const result = { at: new Date().toISOString(), database: null, loadBefore: load() };
try {
  log(`load average ${load()} on ${os.cpus().length} cores`);
  if (ONLY.has("panels")) await panels(result);
  if (ONLY.has("triggers")) await triggers(result);
  result.loadAfter = load();
  console.log(`\nload average before ${result.loadBefore}, after ${result.loadAfter}`);
  mkdirSync(path.join(root, "bench/results"), { recursive: true });
  writeFileSync(path.join(root, "bench/results/dashboard.json"), `${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
} catch (error) {
  console.error(error);
  process.exit(1);
}
