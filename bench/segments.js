// `npm run bench:segments`: the live count of an RFM segment (issue 38 part 6, ADR 056) at scale, on PostgreSQL,
// through the production path (the console's count endpoint, as the segment builder asks it).
//
//   - A fresh database on BENCH_PG_URL (an admin URL, default postgres://postgres@127.0.0.1:5432/postgres), dropped
//     at the end. Seeded by scripts/seed-scale.js (--members, default 1,000,000; 3 purchases a member on average
//     over 3 years; the app's migrations first, from the production build: `npm run build` first), then some
//     purchases refunded (2 % in full, 2 % in half) so that the summary nets refunds out.
//   - The nightly job's function, `rfm_refresh(today)`, timed once; then `vacuum analyze member_rfm`.
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
import { parseArgs } from "node:util";
import postgres from "postgres";
import { cookieHeader, testHooks } from "./member.js";
import { startBuiltServer } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    members: { type: "string", default: "1000000" },
    samples: { type: "string", default: "40" },
    "db-name": { type: "string", default: `bench_segments_${process.pid}` },
    keep: { type: "boolean", default: false },
  },
});
const MEMBERS = Number(opts.members);
const SAMPLES = Number(opts.samples);
const DB_NAME = opts["db-name"];
if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error("--db-name: lower-case letters, digits and underscores");
if (!Number.isSafeInteger(MEMBERS) || MEMBERS < 1000) throw new Error("--members: at least 1000");
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

async function main() {
  log(
    `${MEMBERS.toLocaleString("en-US")} members · ${os.availableParallelism()} cores · load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await admin(`drop database if exists ${DB_NAME} with (force)`);
  await admin(`create database ${DB_NAME}`);
  const databaseUrl = dbUrl(DB_NAME);
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  let app;
  try {
    const seeded = Date.now();
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
    const seedMs = Date.now() - seeded;
    const refunded = await sql.unsafe(`
      update purchase set refunded_amount = case when abs(hashtext(id::text)) % 100 < 2 then net_amount
                                                 else net_amount / 2 end
       where abs(hashtext(id::text)) % 100 < 4`);
    log(`seeded in ${(seedMs / 1000).toFixed(0)} s; ${refunded.count.toLocaleString("en-US")} purchases refunded`);

    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Taipei" }).format(new Date());
    const refreshStarted = Date.now();
    const [{ members: scored }] = await sql`select rfm_refresh(${today}::date) as members`;
    const refreshMs = Date.now() - refreshStarted;
    await sql.unsafe("vacuum analyze member_rfm");
    log(`rfm_refresh: ${scored.toLocaleString("en-US")} members scored in ${(refreshMs / 1000).toFixed(1)} s`);

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
      byFilter: rows.map(({ query, p50, p95 }) => ({ query, p50: Math.round(p50), p95: Math.round(p95) })),
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
    if (!opts.keep) await admin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
