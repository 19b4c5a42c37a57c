// `npm run bench:console -- [--database-url URL] [--requests N] [--warmup N] [--app-dir DIR]`: the staff console's
// member pages on a seeded database (`npm run db:seed:scale`, 1,000,000 members), against the goals of issue
// "Staff console part 3": member search by phone, number or name p95 ≤ 100 ms; member detail p95 ≤ 150 ms.
//
//   - The database is used as it is (nothing created or dropped): --database-url, or BENCH_CONSOLE_URL, default
//     postgres://postgres@127.0.0.1:5432/console_1m. The search terms and members are picked from it: a phone
//     typed with dashes (0912-345-678), a member number, a two-character part of a Chinese name (and, for
//     reference, a one-character surname, which matches ~5 % of the members); the filter "store of last
//     purchase" for the store most members last bought at and the one fewest did; the member detail page of the
//     member with the most ledger entries ("heavy") and of a random member with purchases ("typical").
//   - The app: `node server.js` from --app-dir (default: this repository; build/ must exist: `npm run build`)
//     with NODE_ENV=production, APP_ENV=test (its test hooks create an admin with a console session that passed
//     the second factor: POST /__test/staff), LOG_LEVEL=info as in production.
//   - Load: one request at a time (a member of staff searching), --warmup (20) then --requests (200) per target on
//     one keep-alive connection; each round trip on loopback is timed here, so p50/p95/max are exact. /healthz (no
//     database, no render) is measured in the same run, before and after the targets, as the baseline.
//   - Then EXPLAIN (ANALYZE, BUFFERS) of the name search's statement (as the app sends it, custom and generic
//     plan) and of each statement of the member detail for the heavy member; the slowest one's plan is printed.
//
// Prints a table and writes bench/results/console.json. Exit code 1 only when the bench itself broke.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { cookieHeader, testHooks } from "./member.js";
import { freePort, processCpuMs } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    "database-url": { type: "string" },
    requests: { type: "string", default: "200" },
    warmup: { type: "string", default: "20" },
    "app-dir": { type: "string" },
    "name-part": { type: "string", default: "雅婷" },
    surname: { type: "string", default: "陳" },
  },
});
const DB_URL = opts["database-url"] || process.env.BENCH_CONSOLE_URL || "postgres://postgres@127.0.0.1:5432/console_1m";
const APP_DIR = path.resolve(opts["app-dir"] || root);
const REQUESTS = Number(opts.requests);
const WARMUP = Number(opts.warmup);
const NAME_PART = opts["name-part"];
const SURNAME = opts.surname;
const GOALS = { search: 100, detail: 150 };
const HOOKS_SECRET = randomBytes(24).toString("base64url");
const SESSION_SECRET = randomBytes(32).toString("base64url");
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "bench-console-"));

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...args) => console.error("[bench:console]", ...args);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function startServer() {
  const port = await freePort();
  const logFile = path.join(tmpRoot, "app.log");
  const fd = openSync(logFile, "w");
  const child = spawn(process.execPath, [path.join(APP_DIR, "server.js")], {
    cwd: APP_DIR,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      APP_ENV: "test",
      TEST_HOOKS_SECRET: HOOKS_SECRET,
      SESSION_SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(path.join(tmpRoot, "data-")),
      DATABASE_URL: DB_URL,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "info",
    },
    stdio: ["ignore", fd, fd],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { url, port, child, logFile };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill("SIGTERM");
  throw new Error(`the server did not become ready:\n${readFileSync(logFile, "utf8").slice(-3000)}`);
}

async function stopServer(server) {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** The search terms and members, picked from the database. */
async function pickTargets(sql) {
  const [sample] = [
    ...(await sql`select id, member_number, phone_number from member tablesample system (0.1)
      where deleted_at is null and phone_number like '+8869%' limit 1`),
    // A small database: the sample may be empty.
    ...(await sql`select id, member_number, phone_number from member
      where deleted_at is null and phone_number like '+8869%' limit 1`),
  ];
  const local = `0${sample.phone_number.slice(4)}`; // 0912345678
  const dashed = `${local.slice(0, 4)}-${local.slice(4, 7)}-${local.slice(7)}`;
  const [{ n: nameMatches }] = await sql`select count(*)::int as n from member
    where name_grams @> ${[NAME_PART]}::text[] and name_zh like ${`%${NAME_PART}%`}`;
  const surname = SURNAME;
  const [{ n: surnameMatches }] = await sql`select count(*)::int as n from member
    where name_grams @> ${[surname]}::text[]`;
  const [heavy] = await sql`select m.id, m.user_id, m.member_number, e.n::int as entries
      from (select member_id, count(*) as n from point_entry group by member_id order by n desc limit 1) e
      join member m on m.id = e.member_id`;
  // Uniform over the members with purchases (sampling purchases would favour the heaviest).
  const [typical] = [
    ...(await sql`select m.id, m.user_id, m.member_number,
        (select count(*)::int from point_entry e where e.member_id = m.id) as entries
      from member m tablesample system (1)
      where exists (select 1 from purchase p where p.member_id = m.id) limit 1`),
    ...(await sql`select m.id, m.user_id, m.member_number,
        (select count(*)::int from point_entry e where e.member_id = m.id) as entries
      from member m where exists (select 1 from purchase p where p.member_id = m.id) limit 1`),
  ];
  // The store of last purchase: the store most members last bought at, and the one fewest did.
  const stores = await sql`select store_id as id, count(*)::int as n from member_last_store
    group by 1 order by 2 desc, 1`;
  const busiestStore = stores[0] ?? null;
  const quietestStore = stores.at(-1) ?? null;
  return {
    phone: dashed,
    number: sample.member_number,
    nameMatches,
    surname,
    surnameMatches,
    heavy,
    typical,
    busiestStore,
    quietestStore,
  };
}

/** One request at a time on one keep-alive connection; every answer must be 200 (and hold `expect` if given). */
async function measure(server, reqPath, headers, expect) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = () =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: server.port, path: reqPath, headers, agent }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8") }));
      });
      req.on("error", reject);
      req.end();
    });
  const check = (answer) => {
    if (answer.status !== 200)
      throw new Error(`GET ${reqPath} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
    if (expect && !answer.text.includes(expect)) throw new Error(`GET ${reqPath}: the page does not show ${expect}`);
  };
  try {
    for (let i = 0; i < WARMUP; i++) check(await send());
    const latencies = [];
    let bytes = 0;
    const cpuBefore = processCpuMs(server.child.pid);
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      const answer = await send();
      latencies.push(performance.now() - t0);
      check(answer);
      bytes = answer.text.length;
    }
    const appCpu = processCpuMs(server.child.pid) - cpuBefore;
    latencies.sort((a, b) => a - b);
    return {
      // The server process's own CPU (user + system, /proc) per request: what the app spends beside PostgreSQL.
      appCpuMsPerRequest: appCpu / latencies.length,
      requests: latencies.length,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      maxMs: latencies.at(-1),
      meanMs: latencies.reduce((s, x) => s + x, 0) / latencies.length,
      htmlChars: bytes,
    };
  } finally {
    agent.destroy();
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement, 3 times (the first may read from disk); the last plan, all timings. */
async function explain(sql, label, text, params = []) {
  const runs = [];
  let plan = "";
  for (let i = 0; i < 3; i++) {
    const rows = await sql.unsafe(`explain (analyze, buffers) ${text}`, params);
    plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    runs.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN));
  }
  return { label, sql: text.replace(/\s+/g, " ").trim(), executionMs: runs, plan };
}

/** The name search's statement in the generic plan postgres-js gets once a prepared statement ran 5 times. */
async function explainGeneric(sql, text, params) {
  return sql.begin(async (tx) => {
    await tx.unsafe("set local plan_cache_mode = force_generic_plan");
    await tx.unsafe(`prepare bench_console_search as ${text}`);
    const args = params.map((p) => (Array.isArray(p) ? `array[${p.map((x) => `'${x}'`).join(",")}]` : `'${p}'`));
    const rows = await tx.unsafe(`explain (analyze, buffers) execute bench_console_search(${args.join(", ")})`);
    await tx.unsafe("deallocate bench_console_search");
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    return { executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN), plan };
  });
}

// The statements as drizzle writes them (app/domain/members/console-search.server.ts, console.server.ts,
// privacy.server.ts currentConsents).
const SEARCH_SQL = `select "member"."id", "member"."member_number", "member"."name_zh", "member"."phone_number",
    "loyalty_account"."tier", "loyalty_account"."balance", "member"."disabled", "member"."deleted_at", "member"."created_at"
  from "member" left join "loyalty_account" on "loyalty_account"."member_id" = "member"."id"
  where ("member"."name_grams" @> $1::text[] and "member"."name_zh" ilike $2)
  order by "member"."created_at" desc, "member"."id" desc limit $3`;

const detailStatements = (m) => [
  ["member", `select * from "member" where "member"."id" = $1`, [m.id]],
  ["loyalty_account", `select * from "loyalty_account" where "loyalty_account"."member_id" = $1`, [m.id]],
  [
    "consents",
    `select * from "member_consent" where "member_consent"."user_id" = $1 order by "member_consent"."created_at" desc`,
    [m.user_id],
  ],
  [
    "LINE login",
    `select "id", "created_at" from "auth_account" where ("auth_account"."user_id" = $1 and "auth_account"."provider_id" = 'line')`,
    [m.user_id],
  ],
  ["passkeys", `select count(*) from "auth_passkey" where "auth_passkey"."user_id" = $1`, [m.user_id]],
  [
    "sessions",
    `select count(*), max("auth_session"."updated_at") from "auth_session" where "auth_session"."user_id" = $1`,
    [m.user_id],
  ],
  [
    "ledger (20 latest)",
    `select "id", "kind", "amount", "store_id", "reason", "created_at" from "point_entry"
      where "point_entry"."member_id" = $1 order by "point_entry"."created_at" desc limit 20`,
    [m.id],
  ],
  [
    "purchases (10 latest)",
    `select * from "purchase" where "purchase"."member_id" = $1 order by "purchase"."purchased_at" desc limit 10`,
    [m.id],
  ],
  [
    "coupons (20 latest)",
    `select "coupon"."id", "coupon"."code", "coupon"."status", "reward"."name", "coupon"."points_cost",
        "coupon"."issued_at", "coupon"."expires_at", "coupon"."used_at"
      from "coupon" inner join "reward" on "reward"."id" = "coupon"."reward_id"
      where "coupon"."member_id" = $1 order by "coupon"."issued_at" desc limit 20`,
    [m.id],
  ],
  [
    "tier changes (10 latest)",
    `select * from "tier_change" where "tier_change"."member_id" = $1 order by "tier_change"."created_at" desc limit 10`,
    [m.id],
  ],
  [
    "notes",
    `select "member_note"."id", "member_note"."body", "member_note"."created_at", "staff_account"."display_name"
      from "member_note" left join "staff_account" on "staff_account"."user_id" = "member_note"."author_user_id"
      where "member_note"."member_id" = $1 order by "member_note"."created_at" desc limit 50`,
    [m.id],
  ],
];

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  log(`${os.availableParallelism()} cores · load ${load()} · ${WARMUP} warm-up + ${REQUESTS} requests per target`);
  const sql = postgres(DB_URL, { max: 1, onnotice: () => {} });
  let server = null;
  try {
    const [{ members }] = await sql`select count(*)::int as members from member`;
    const t = await pickTargets(sql);
    log(
      `${members.toLocaleString("en")} members; phone ${t.phone}, number ${t.number}, name part ${NAME_PART} ` +
        `(${t.nameMatches} members), surname ${t.surname} (${t.surnameMatches}); heavy ${t.heavy.member_number} ` +
        `(${t.heavy.entries} entries), typical ${t.typical.member_number} (${t.typical.entries} entries)`,
    );
    server = await startServer();
    const staff = await testHooks(server.url, HOOKS_SECRET)("/staff", { role: "admin", displayName: "bench:console" });
    const cookie = cookieHeader(staff.setCookie);
    const headers = { cookie, "accept-encoding": "identity" };
    const q = (term) => `/admin/members?q=${encodeURIComponent(term)}`;
    const targets = [
      { name: "healthz (before)", path: "/healthz", goal: null },
      { name: `search phone ${t.phone}`, path: q(t.phone), goal: GOALS.search, expect: t.number },
      { name: `search number ${t.number}`, path: q(t.number), goal: GOALS.search, expect: t.number },
      {
        name: `search name ${NAME_PART} (${t.nameMatches})`,
        path: q(NAME_PART),
        goal: GOALS.search,
        expect: NAME_PART,
      },
      { name: `search surname ${t.surname} (${t.surnameMatches}, ref.)`, path: q(t.surname), goal: null },
      ...[t.busiestStore, t.quietestStore].filter(Boolean).map((store) => ({
        name: `last store ${store.id} (${store.n})`,
        path: `/admin/members?store=${encodeURIComponent(store.id)}`,
        goal: GOALS.search,
        expect: 'data-testid="member-row"',
      })),
      {
        name: `detail heavy (${t.heavy.entries} entries)`,
        path: `/admin/members/${t.heavy.id}`,
        goal: GOALS.detail,
        expect: t.heavy.member_number,
      },
      {
        name: `detail typical (${t.typical.entries} entries)`,
        path: `/admin/members/${t.typical.id}`,
        goal: GOALS.detail,
        expect: t.typical.member_number,
      },
      { name: "healthz (after)", path: "/healthz", goal: null },
    ];
    const results = [];
    for (const target of targets) {
      const figure = await measure(server, target.path, headers, target.expect);
      results.push({ ...target, ...figure });
      log(
        `${target.name}: p50 ${figure.p50Ms.toFixed(1)} ms, p95 ${figure.p95Ms.toFixed(1)} ms, max ${figure.maxMs.toFixed(1)} ms, ` +
          `app CPU ${figure.appCpuMsPerRequest.toFixed(1)} ms/request`,
      );
    }
    const healthz = Math.max(results[0].p50Ms, results.at(-1).p50Ms);
    const healthzP50 = (results[0].p50Ms + results.at(-1).p50Ms) / 2;
    for (const r of results) {
      r.p50RatioToHealthz = r.p50Ms / healthzP50;
      r.verdict = r.goal == null ? "" : r.p95Ms <= r.goal ? "PASS" : "FAIL";
    }
    const loadAfter = os.loadavg();
    await stopServer(server);
    server = null;

    log("EXPLAIN (ANALYZE, BUFFERS)");
    const searchParams = [[NAME_PART], `%${NAME_PART}%`, 26];
    const search = await explain(sql, `name search ${NAME_PART}`, SEARCH_SQL, searchParams);
    const searchGeneric = await explainGeneric(sql, SEARCH_SQL, searchParams);
    const surnameSearch = await explain(sql, `name search ${t.surname}`, SEARCH_SQL, [
      [t.surname],
      `%${t.surname}%`,
      26,
    ]);
    const detail = [];
    for (const [label, text, params] of detailStatements(t.heavy)) detail.push(await explain(sql, label, text, params));
    const med = (xs) => [...xs].sort((a, b) => a - b)[1];
    const slowestDetail = detail.reduce((a, b) => (med(b.executionMs) > med(a.executionMs) ? b : a));

    console.log(
      `\n${os.availableParallelism()} cores · load average ${loadBefore.map((l) => l.toFixed(1)).join(" ")} → ${loadAfter
        .map((l) => l.toFixed(1))
        .join(" ")} · ${members.toLocaleString("en")} members · ${REQUESTS} sequential requests per target\n`,
    );
    console.log(`${"target".padEnd(44)}p50 ms  p95 ms  max ms  ÷ healthz p50  app CPU ms  goal (p95)`);
    for (const r of results) {
      console.log(
        `${r.name.padEnd(44)}${r.p50Ms.toFixed(1).padEnd(8)}${r.p95Ms.toFixed(1).padEnd(8)}${r.maxMs
          .toFixed(1)
          .padEnd(
            8,
          )}${r.p50RatioToHealthz.toFixed(1).padEnd(15)}${r.appCpuMsPerRequest.toFixed(1).padEnd(12)}${r.goal == null ? "" : `≤ ${r.goal} ms ${r.verdict}`}`,
      );
    }
    console.log("\nStatement execution times (EXPLAIN ANALYZE, 3 runs, ms):");
    for (const e of [search, surnameSearch, ...detail])
      console.log(`  ${e.label.padEnd(28)}${e.executionMs.map((x) => x.toFixed(2)).join(" / ")}`);
    console.log(`  ${"name search, generic plan".padEnd(28)}${searchGeneric.executionMs.toFixed(2)}`);
    console.log(`\n── name search ${NAME_PART} (custom plan):\n${search.sql}\n${search.plan}`);
    console.log(
      `\n── name search ${NAME_PART} (generic plan, as after 5 runs of the prepared statement):\n${searchGeneric.plan}`,
    );
    console.log(`\n── name search ${t.surname} (one character, reference):\n${surnameSearch.plan}`);
    console.log(
      `\n── slowest member-detail statement, heavy member: ${slowestDetail.label}\n${slowestDetail.sql}\n${slowestDetail.plan}`,
    );

    const out = {
      when: startedAt.toISOString(),
      cores: os.availableParallelism(),
      loadAverage: { before: loadBefore, after: loadAfter },
      members,
      requests: REQUESTS,
      warmup: WARMUP,
      goals: GOALS,
      picked: t,
      healthzP50Ms: healthzP50,
      healthzWorstP50Ms: healthz,
      results,
      explain: { search, searchGeneric, surnameSearch, detail, slowestDetail: slowestDetail.label },
    };
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(path.join(root, "bench", "results", "console.json"), `${JSON.stringify(out, null, 2)}\n`);
    log("wrote bench/results/console.json");
  } finally {
    if (server) await stopServer(server);
    await sql.end();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
