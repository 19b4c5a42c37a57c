// `npm run bench:webhooks`: 100,000 webhook events delivered to a local receiver (issue 38 part 4, ADR 054) on
// PostgreSQL, through the production path.
//
//   - A fresh database on BENCH_PG_URL (an admin URL, default postgres://postgres@127.0.0.1:5432/postgres), dropped
//     at the end. The app: `node server.js` (production build, `npm run build` first) with APP_ENV=test (for the test
//     hooks that make the admin's session), LOG_LEVEL=warn. One instance, its own delivery worker.
//   - A receiver in this process (http://localhost, allowed outside production) answers 204 and checks every
//     delivery's Standard Webhooks signature with the secret the console showed.
//   - An admin registers the endpoint with the console's own form. Then --events outbox rows (default 100,000, for
//     --members members: default 25,000, so each member has four events that must arrive in order) are written in
//     one statement, as the triggers write them, and the worker is woken. Timed until the receiver has every id and
//     the outbox says delivered. Goal: ≤ 60 s, 0 lost, 0 duplicated ids.
//
// Prints a table and writes bench/results/webhooks.json. Exit code 1 only when the bench itself broke.
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
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
    events: { type: "string", default: "100000" },
    members: { type: "string", default: "25000" },
    "db-name": { type: "string", default: `bench_webhooks_${process.pid}` },
  },
});
const EVENTS = Number(opts.events);
const MEMBERS = Math.min(Number(opts.members), EVENTS);
const DB_NAME = opts["db-name"];
if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error("--db-name: lower-case letters, digits and underscores");
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const HOOKS_SECRET = randomBytes(24).toString("base64url");
const GOAL_S = 60;

const log = (...args) => console.error("[bench:webhooks]", ...args);
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

/** The receiver: every id's count, the arrival order per member, and signatures that did not verify. */
function startReceiver() {
  const state = { secret: null, counts: new Map(), total: 0, badSignatures: 0, outOfOrder: 0, lastSeq: new Map() };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"]);
      const key = Buffer.from(String(state.secret).slice("whsec_".length), "base64");
      const expected = createHmac("sha256", key)
        .update(`${id}.${req.headers["webhook-timestamp"]}.${body}`)
        .digest("base64");
      if (!String(req.headers["webhook-signature"]).split(" ").includes(`v1,${expected}`)) state.badSignatures++;
      state.total++;
      state.counts.set(id, (state.counts.get(id) ?? 0) + 1);
      const { data } = JSON.parse(body);
      const last = state.lastSeq.get(data.bench.member) ?? -1;
      if (data.bench.n < last) state.outOfOrder++;
      state.lastSeq.set(data.bench.member, data.bench.n);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, state })));
}

async function waitUntil(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  log(
    `${EVENTS.toLocaleString("en-US")} events for ${MEMBERS.toLocaleString("en-US")} members · ${os.availableParallelism()} cores · load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await admin(`drop database if exists ${DB_NAME} with (force)`);
  await admin(`create database ${DB_NAME}`);
  const databaseUrl = dbUrl(DB_NAME);
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const { server, state } = await startReceiver();
  const port = server.address().port;
  let app;
  try {
    app = await startBuiltServer({
      label: "webhooks",
      readyMs: 120_000,
      env: {
        APP_ENV: "test",
        TEST_HOOKS_SECRET: HOOKS_SECRET,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "warn",
      },
    });
    const staff = await testHooks(app.url, HOOKS_SECRET)("/staff", { role: "admin", displayName: "量測管理員" });
    const form = new URLSearchParams({
      url: `http://localhost:${port}/hook`,
      description: "bench",
      events: "tier.changed",
    });
    const res = await fetch(`${app.url}/admin/webhooks`, {
      method: "POST",
      body: form,
      headers: { origin: app.url, cookie: cookieHeader(staff.setCookie), "x-test-hooks-secret": HOOKS_SECRET },
      redirect: "manual",
    });
    const page = await res.text();
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(page)?.[0];
    if (res.status !== 200 || !secret) throw new Error(`registering answered ${res.status}: ${page.slice(0, 300)}`);
    state.secret = secret;
    const [endpoint] = await sql`select id from webhook_endpoint`;

    // The outbox rows as the triggers write them (member i % MEMBERS, its n-th event), in one statement.
    const started = Date.now();
    await sql.begin(async (tx) => {
      await tx.unsafe(`
        insert into webhook_delivery (endpoint_id, event_type, member_id, data)
        select '${endpoint.id}'::uuid, 'tier.changed', m.id,
               jsonb_build_object('bench', jsonb_build_object('member', m.k, 'n', i / ${MEMBERS}),
                                  'member', jsonb_build_object('id', m.id))
          from generate_series(0, ${EVENTS - 1}) i
          cross join lateral (select (i % ${MEMBERS}) as k,
                                     ('00000000-0000-4000-8000-' || lpad(to_hex(i % ${MEMBERS}), 12, '0'))::uuid as id) m
         order by i`);
      await tx.unsafe(`select pg_notify('han_cache', 'webhook')`);
    });
    const writtenMs = Date.now() - started;
    log(`outbox written in ${(writtenMs / 1000).toFixed(1)} s`);
    const done = await waitUntil(
      async () => {
        if (state.counts.size < EVENTS) return false;
        const [row] = await sql`select count(*)::int as n from webhook_delivery where status <> 'delivered'`;
        return row.n === 0;
      },
      GOAL_S * 5 * 1000,
    );
    const deliveredMs = Date.now() - started;
    // A moment more: a duplicate would arrive after the last first copy.
    await new Promise((r) => setTimeout(r, 2000));
    const ids = await sql`select id from webhook_delivery`;
    let lost = 0;
    for (const { id } of ids) if (!state.counts.has(`msg_${id.replaceAll("-", "")}`)) lost++;
    const duplicated = [...state.counts.values()].filter((n) => n > 1).length;
    // What the outbox left on disk (load-proof): its heap, its indexes, and the delivery log's attempt rows (a success
    // writes none since migration 0061).
    const [disk] = await sql`select pg_relation_size('webhook_delivery')::bigint as heap,
        pg_indexes_size('webhook_delivery')::bigint as indexes,
        pg_total_relation_size('webhook_attempt')::bigint as attempt_bytes,
        (select count(*) from webhook_attempt)::int as attempts`;
    // The outbox's updates and how many were HOT (no new index entries): the claim is one since migration 0063, the
    // record of a delivered row never (its status changes). The app's backends report their counts within seconds.
    let updates = { upd: 0, hot: 0 };
    for (let i = 0; i < 30 && updates.upd < 2 * EVENTS; i++) {
      await new Promise((r) => setTimeout(r, 500));
      [updates] = await sql`select pg_stat_clear_snapshot(), n_tup_upd::int as upd, n_tup_hot_upd::int as hot
        from pg_stat_user_tables where relname = 'webhook_delivery'`;
    }
    log(`outbox updates: ${updates.upd}, of them HOT ${updates.hot}`);
    const storage = {
      outboxUpdates: updates.upd,
      outboxHotUpdates: updates.hot,
      outboxHeapBytes: Number(disk.heap),
      outboxIndexBytes: Number(disk.indexes),
      attemptBytes: Number(disk.attempt_bytes),
      attemptRows: disk.attempts,
    };
    log(
      `on disk: outbox heap ${(storage.outboxHeapBytes / 2 ** 20).toFixed(1)} MiB, its indexes ${(storage.outboxIndexBytes / 2 ** 20).toFixed(1)} MiB; ` +
        `${storage.attemptRows} attempt rows (${(storage.attemptBytes / 2 ** 20).toFixed(1)} MiB)`,
    );
    const results = {
      events: EVENTS,
      members: MEMBERS,
      writtenMs,
      deliveredMs,
      finished: done,
      received: state.total,
      lost,
      duplicated,
      badSignatures: state.badSignatures,
      outOfOrder: state.outOfOrder,
      ...storage,
      goalS: GOAL_S,
      pass: done && deliveredMs <= GOAL_S * 1000 && lost === 0 && duplicated === 0,
    };
    console.log(`
| figure | value | goal |
| --- | --- | --- |
| ${EVENTS.toLocaleString("en-US")} events delivered (from the outbox's commit) | ${(deliveredMs / 1000).toFixed(1)} s | ≤ ${GOAL_S} s ${results.pass ? "PASS" : "FAIL"} |
| lost ids / duplicated ids | ${lost} / ${duplicated} | 0 / 0 |
| signatures that did not verify / a member's events out of order | ${state.badSignatures} / ${state.outOfOrder} | 0 / 0 |
`);
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(path.join(root, "bench", "results", "webhooks.json"), `${JSON.stringify(results, null, 2)}\n`);
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
    server.closeAllConnections();
    server.close();
    await admin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
