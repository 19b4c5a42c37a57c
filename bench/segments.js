// `npm run bench:segments`: the live count of an RFM segment (issue 38 part 6, ADR 056) at scale, on PostgreSQL,
// through the production path (the console's count endpoint, as the segment builder asks it).
//
//   - A fresh database on BENCH_PG_URL (an admin URL, default postgres://postgres@127.0.0.1:5432/postgres), dropped
//     at the end unless --keep. The app's migrations first, from the production build (`npm run build` first).
//     Seeded (--members, default 1,000,000; 3 purchases a member on average over 3 years) by `--seed sql` (the
//     default: only what the count reads — auth_user, member, purchase, loyalty_account — by INSERT … SELECT
//     from generate_series, minutes at 1 M) or `--seed scale` (scripts/seed-scale.js: the whole ledger, far
//     slower); then 4 % of the purchases refunded (2 % in full, 2 % in half) so that the summary nets refunds out.
//     `--reuse` with `--db-name`: a database already seeded by an earlier run (--keep) is migrated and measured
//     again, not seeded (kept at the end).
//   - The nightly job's function, `rfm_refresh(today)`, timed once; then `vacuum analyze member_rfm`.
//   - EXPLAIN (ANALYZE, BUFFERS) of each filter's count statement, twice, in the same run: the summary alone (what
//     `countSegment` runs for RFM filters with at most tiers, ADR 056 "Later") and the join of the campaigns'
//     audience (member ⋈ loyalty_account with the RFM semi-join, what it ran before): the ratio of their
//     execution times is the figure that does not depend on the machine's load.
//   - The app: `node server.js` (APP_ENV=test for the hook that makes the admin's session). Each filter is asked
//     5 times to warm up, then --samples times (default 40), one request at a time: the p50/p95 of the answer
//     (HTTP, Zod, the count). Goal: p95 ≤ 300 ms at 1 M members.
//
// Prints a table and writes bench/results/segments.json. Exit code 1 only when the bench itself broke.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { ensureBuild } from "../scripts/ensure-build.js";
import { cookieHeader, testHooks } from "./member.js";
import { startBuiltServer } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    members: { type: "string", default: "1000000" },
    samples: { type: "string", default: "40" },
    "db-name": { type: "string", default: `bench_segments_${process.pid}` },
    keep: { type: "boolean", default: false },
    seed: { type: "string", default: "sql" },
    reuse: { type: "boolean", default: false },
  },
});
const MEMBERS = Number(opts.members);
const SAMPLES = Number(opts.samples);
const DB_NAME = opts["db-name"];
if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error("--db-name: lower-case letters, digits and underscores");
if (!Number.isSafeInteger(MEMBERS) || MEMBERS < 1000) throw new Error("--members: at least 1000");
if (!["sql", "scale"].includes(opts.seed)) throw new Error("--seed: sql or scale");
if (opts.reuse && !process.argv.some((a) => a.startsWith("--db-name"))) throw new Error("--reuse needs --db-name");
const KEEP = opts.keep || opts.reuse;
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const HOOKS_SECRET = randomBytes(24).toString("base64url");
const GOAL_MS = 300;
const FILTERS = [
  "rfmGroup=champions",
  "rfmGroup=at-risk",
  "rfmGroup=hibernating",
  "rfmR=5",
  "rfmF=1&rfmM=1",
  "rfmGroup=loyal&tiers=basic,silver",
];

// The groups the filters use, as app/domain/segments/rfm.ts's RFM_GROUP_RULES has them, for the EXPLAIN statements
// only: each statement's count is checked against the endpoint's answer, so a copy gone stale stops the bench.
const RFM_GROUPS = {
  champions: { r: [4, 5], f: [4, 5] },
  "at-risk": { r: [1, 2], f: [3, 4] },
  hibernating: { r: [2, 3], f: [1, 2] },
  loyal: { r: [3, 3], f: [3, 5] },
};

const log = (...args) => console.error("[bench:segments]", ...args);
const dbUrl = (name) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

async function admin(statement) {
  const client = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(statement);
  } finally {
    await client.end();
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** The app's migrations (and the demo catalogue: its stores), from the production build, as seed-scale does. */
async function migrate(databaseUrl) {
  ensureBuild(root);
  const { seedFromEnvironment } = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
  const saved = { DATABASE_URL: process.env.DATABASE_URL, APP_ENV: process.env.APP_ENV };
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_ENV = "test";
  try {
    await seedFromEnvironment();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * `--seed sql`: what the count and the nightly job read, in a few INSERT … SELECT statements (the user triggers of
 * these tables off while loading, as seed-scale does; nothing reads their summaries here). Members joined over 3
 * years; 60 % bought nothing, 25 % 1–3 times, 12 % 5–13, 3 % 17–56 (≈ 3 purchases a member), at any time after
 * joining, NT$100–2,000,000 log-normal around NT$8,000, in 50 stores; a loyalty account for every buyer and a third
 * of the others, its tier from the last 12 months' spend (NT$50,000 silver, NT$200,000 gold: the default rules);
 * 0.5 % of the members disabled.
 */
async function seedSql(sql) {
  const step = async (label, text) => {
    const t0 = performance.now();
    const r = await sql.unsafe(text);
    log(`${label}: ${r.count?.toLocaleString("en-US") ?? ""} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  };
  const tables = ["auth_user", "member", "purchase", "loyalty_account"];
  await sql.unsafe("set synchronous_commit = off; set work_mem = '256MB'; set maintenance_work_mem = '512MB'");
  // Their keys, indexes and foreign keys are dropped while loading and recreated after (seed-scale's way).
  const list = tables.map((t) => `'public.${t}'::regclass`).join(", ");
  const fks = await sql.unsafe(`
    select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
      from pg_constraint where contype = 'f' and (conrelid in (${list}) or confrelid in (${list}))`);
  const keys = await sql.unsafe(`
    select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
      from pg_constraint where contype in ('p', 'u') and conrelid in (${list}) order by contype`);
  const indexes = await sql.unsafe(`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
      from pg_index i where i.indrelid in (${list})
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
  await sql.begin(async (tx) => {
    for (const f of fks) await tx.unsafe(`alter table ${f.tbl} drop constraint "${f.name}"`);
    for (const i of indexes) await tx.unsafe(`drop index ${i.name}`);
    for (const k of keys) await tx.unsafe(`alter table ${k.tbl} drop constraint "${k.name}"`);
  });
  for (const t of tables) await sql.unsafe(`alter table ${t} disable trigger user`);
  try {
    await step(
      "stores",
      `insert into store (id, name, summary, city, district, postal_code, address, phone, email, latitude, longitude,
                          weekly_hours, published, sort_order)
       select 'scale-' || lpad(g::text, 3, '0'), jsonb_build_object('zh-TW', '門市 ' || g, 'en', 'Store ' || g),
              '{"zh-TW":"","en":""}', 'taipei', '{"zh-TW":"信義區","en":"Xinyi District"}', '110',
              jsonb_build_object('zh-TW', '松仁路 ' || g || ' 號', 'en', 'No. ' || g || ', Songren Rd.'),
              '02-2345-' || lpad(g::text, 4, '0'), 'scale-' || g || '@stores.example', 25.03, 121.56,
              '[[],[],[],[],[],[],[]]', false, 100 + g
         from generate_series(1, greatest(0, 50 - (select count(*) from store))) g
       on conflict (id) do nothing;
       create temp table ss as select (row_number() over (order by id))::int as rank, id from store limit 50`,
    );
    await step(
      "members (staging)",
      `create temp table sm as
       select i, gen_random_uuid() as id, gen_random_uuid()::text as user_id,
              now() - interval '3 years' + random() * interval '3 years' as created_at,
              case when u < 0.60 then 0 when u < 0.85 then 1 + (r * 2.99)::int when u < 0.97 then 5 + (r * 8.99)::int
                   else 17 + (r * 39.99)::int end as n,
              random() < 0.005 as disabled
         from (select i, random() as u, random() as r from generate_series(1, ${MEMBERS}) i) g`,
    );
    await step(
      "auth_user",
      `insert into auth_user (id, name, email, phone_number, phone_number_verified, role, created_at, updated_at)
       select user_id, '會員 ' || i, user_id || '@phone.invalid', '+8869' || (20000000 + i)::text, true, 'member',
              created_at, created_at from sm`,
    );
    await step(
      "member",
      `insert into member (id, user_id, member_number, name_zh, phone_number, marketing_sms, marketing_email,
                           marketing_line, signup_method, disabled, created_at, updated_at)
       select id, user_id, 'HB' || lpad(i::text, 8, '0'), '會員 ' || i, '+8869' || (20000000 + i)::text,
              random() < 0.4, random() < 0.3, random() < 0.1, 'phone', disabled, created_at, created_at from sm`,
    );
    await step(
      "purchase",
      `insert into purchase (id, store_id, receipt_number, member_id, net_amount, purchased_at, points_earned, created_at)
       select gen_random_uuid(), ss.id, 'B' || lpad(p.k::text, 10, '0'), p.member_id, p.net_amount, p.at,
              p.net_amount / 100, p.at + interval '1 second'
         from (select row_number() over () as k, m.id as member_id,
                      greatest(100, least(2000000, round(exp(ln(8000) + 1.1 * sqrt(-2 * ln(1 - random()))
                                                              * cos(2 * pi() * random())))))::int as net_amount,
                      m.created_at + random() * (now() - m.created_at) as at,
                      1 + floor(50 * power(random(), 1.6))::int as store_rank
                 from sm m cross join lateral generate_series(1, m.n) g where m.n > 0) p
         join ss on ss.rank = p.store_rank`,
    );
    await step(
      "loyalty_account",
      `insert into loyalty_account (member_id, balance, tier, tier_since, updated_at, last_purchase_at)
       select m.id, coalesce(s.spend, 0)::int / 100,
              case when s.spend >= 200000 then 'gold' when s.spend >= 50000 then 'silver' else 'basic' end,
              m.created_at, now(), s.last_at
         from sm m
         left join (select member_id, sum(net_amount) filter (where purchased_at >= now() - interval '1 year') as spend,
                           max(purchased_at) as last_at
                      from purchase group by member_id) s on s.member_id = m.id
        where s.member_id is not null or m.i % 3 = 0`,
    );
  } finally {
    const t0 = performance.now();
    for (const k of keys) await sql.unsafe(`alter table ${k.tbl} add constraint "${k.name}" ${k.def}`);
    for (const i of indexes) await sql.unsafe(i.def);
    for (const f of fks) await sql.unsafe(`alter table ${f.tbl} add constraint "${f.name}" ${f.def}`);
    log(`keys, indexes and foreign keys recreated (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    for (const t of tables) await sql.unsafe(`alter table ${t} enable trigger user`);
  }
  await step("vacuum analyze", "vacuum (analyze) auth_user, member, purchase, loyalty_account");
}

/** A filter's count statements: the summary alone (as `rfmCount` builds it) and the campaigns' join (before). */
function countStatements(query) {
  const q = new URLSearchParams(query);
  const range = { r: [1, 5], f: [1, 5], m: [1, 5] };
  const group = RFM_GROUPS[q.get("rfmGroup") ?? ""];
  if (group) Object.assign(range, { r: group.r, f: group.f });
  for (const k of ["r", "f", "m"]) {
    const v = Number(q.get(`rfm${k.toUpperCase()}`));
    if (v) range[k] = [Math.max(range[k][0], v), Math.min(range[k][1], v)];
  }
  const values = ([lo, hi]) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).join(", ");
  const tiers = q.get("tiers")?.split(",");
  const tierList = tiers?.map((t) => `'${t.replace(/[^a-z]/g, "")}'`).join(", ");
  const alone = `select count(*)::int from member_rfm x where x.active and ${["r", "f", "m"]
    .map((k) => `x.${k} in (${values(range[k])})`)
    .join(" and ")}${tiers ? ` and x.tier in (${tierList})` : ""}`;
  const between = ["r", "f", "m"]
    .filter((k) => range[k][0] > 1 || range[k][1] < 5)
    .map((k) => `x.${k} between ${range[k][0]} and ${range[k][1]}`);
  const join = `select count(*)::int from member left join loyalty_account la on la.member_id = member.id
   where member.disabled = false and member.deleted_at is null${tiers ? ` and coalesce(la.tier, 'basic') in (${tierList})` : ""}
     and member.id in (select x.member_id from member_rfm x where ${between.join(" and ")})`;
  return { alone, join };
}

async function explain(sql, statement) {
  const rows = await sql.unsafe(`explain (analyze, buffers) ${statement}`);
  const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
  const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]);
  return { plan, ms };
}

async function main() {
  log(
    `${MEMBERS.toLocaleString("en-US")} members · ${os.availableParallelism()} cores · load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  let reused = false;
  if (opts.reuse) {
    const client = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    const [found] = await client`select 1 from pg_database where datname = ${DB_NAME}`;
    await client.end();
    reused = Boolean(found);
  }
  if (!reused) {
    await admin(`drop database if exists ${DB_NAME} with (force)`);
    await admin(`create database ${DB_NAME}`);
  }
  const databaseUrl = dbUrl(DB_NAME);
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  let app;
  try {
    const seeded = Date.now();
    if (reused) {
      const [{ n }] = await sql`select count(*)::int as n from member`;
      if (n !== MEMBERS) throw new Error(`--reuse: ${DB_NAME} has ${n} members, not ${MEMBERS}`);
      await migrate(databaseUrl);
      log(`reusing ${DB_NAME} (${n.toLocaleString("en-US")} members), migrated`);
    } else if (opts.seed === "sql") {
      await migrate(databaseUrl);
      await seedSql(sql);
    } else {
      const seed = spawnSync(
        process.execPath,
        [
          path.join(root, "scripts", "seed-scale.js"),
          "--url",
          databaseUrl,
          "--members",
          String(MEMBERS),
          "--purchases",
          String(MEMBERS * 3),
        ],
        { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
      );
      if (seed.status !== 0) throw new Error(`seed-scale exited with ${seed.status}`);
    }
    const seedMs = Date.now() - seeded;
    if (!reused) {
      const refunded = await sql.unsafe(`
        update purchase set refunded_amount = case when abs(hashtext(id::text)) % 100 < 2 then net_amount
                                                   else net_amount / 2 end
         where abs(hashtext(id::text)) % 100 < 4`);
      await sql.unsafe("vacuum analyze purchase");
      log(`seeded in ${(seedMs / 1000).toFixed(0)} s; ${refunded.count.toLocaleString("en-US")} purchases refunded`);
    }

    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Taipei" }).format(new Date());
    const refreshStarted = Date.now();
    const [{ members: scored }] = await sql`select rfm_refresh(${today}::date) as members`;
    const refreshMs = Date.now() - refreshStarted;
    await sql.unsafe("vacuum analyze member_rfm");
    log(`rfm_refresh: ${scored.toLocaleString("en-US")} members scored in ${(refreshMs / 1000).toFixed(1)} s`);

    // The count statements themselves, warm (each run twice, the second kept), both ways in the same minute.
    const plans = [];
    for (const query of FILTERS) {
      const { alone, join } = countStatements(query);
      await explain(sql, alone);
      const a = await explain(sql, alone);
      await explain(sql, join);
      const j = await explain(sql, join);
      const [{ count: aloneCount }] = await sql.unsafe(alone);
      const [{ count: joinCount }] = await sql.unsafe(join);
      if (aloneCount !== joinCount)
        throw new Error(`${query}: the summary counts ${aloneCount}, the join ${joinCount}`);
      plans.push({ query, count: aloneCount, aloneMs: a.ms, joinMs: j.ms, alonePlan: a.plan, joinPlan: j.plan });
      log(`${query}: alone ${a.ms.toFixed(1)} ms, join ${j.ms.toFixed(1)} ms (load ${os.loadavg()[0].toFixed(1)})`);
    }

    app = await startBuiltServer({
      label: "segments",
      readyMs: 120_000,
      env: {
        APP_ENV: "test",
        TEST_HOOKS_SECRET: HOOKS_SECRET,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "warn",
      },
    });
    const staff = await testHooks(app.url, HOOKS_SECRET)("/staff", { role: "admin", displayName: "量測管理員" });
    const cookie = cookieHeader(staff.setCookie);
    const ask = async (query) => {
      const started = performance.now();
      const res = await fetch(`${app.url}/admin/segments/count?${query}`, { headers: { cookie } });
      const body = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`count ${query} answered ${res.status}: ${body.slice(0, 300)}`);
      const expected = plans.find((p) => p.query === query)?.count;
      const answered = JSON.parse(body).count;
      if (answered !== expected) throw new Error(`count ${query} answered ${answered}, the statements ${expected}`);
      return ms;
    };
    const all = [];
    const rows = [];
    for (const query of FILTERS) {
      for (let i = 0; i < 5; i++) await ask(query);
      const times = [];
      for (let i = 0; i < SAMPLES; i++) times.push(await ask(query));
      times.sort((a, b) => a - b);
      all.push(...times);
      rows.push({ query, p50: percentile(times, 50), p95: percentile(times, 95) });
    }
    all.sort((a, b) => a - b);
    const p95 = percentile(all, 95);
    const results = {
      members: MEMBERS,
      scored,
      seedS: Math.round(seedMs / 1000),
      refreshMs,
      samplesPerFilter: SAMPLES,
      load: os.loadavg().map((l) => Number(l.toFixed(2))),
      byFilter: rows.map(({ query, p50, p95 }) => {
        const p = plans.find((x) => x.query === query);
        return {
          query,
          count: p?.count,
          p50: Math.round(p50),
          p95: Math.round(p95),
          statementMs: { alone: p?.aloneMs, join: p?.joinMs },
        };
      }),
      plans: plans.map(({ query, alonePlan, joinPlan }) => ({ query, alone: alonePlan, join: joinPlan })),
      p95: Math.round(p95),
      goalMs: GOAL_MS,
      pass: p95 <= GOAL_MS,
    };
    console.log(`
| figure | value | goal |
| --- | --- | --- |
| members · scored by rfm_refresh | ${MEMBERS.toLocaleString("en-US")} · ${scored.toLocaleString("en-US")} | — |
| rfm_refresh (the nightly job) | ${(refreshMs / 1000).toFixed(1)} s | — |
${rows.map((r) => `| count \`${r.query}\` p50 / p95 | ${r.p50.toFixed(0)} / ${r.p95.toFixed(0)} ms | — |`).join("\n")}
${plans.map((p) => `| statement \`${p.query}\` (${p.count.toLocaleString("en-US")}): summary alone / join | ${p.aloneMs.toFixed(1)} / ${p.joinMs.toFixed(1)} ms (${(p.joinMs / p.aloneMs).toFixed(1)} ×) | — |`).join("\n")}
| **count p95, all filters** | **${p95.toFixed(0)} ms** | ≤ ${GOAL_MS} ms ${results.pass ? "PASS" : "FAIL"} |
`);
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(path.join(root, "bench", "results", "segments.json"), `${JSON.stringify(results, null, 2)}\n`);
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
    if (!KEEP) await admin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
