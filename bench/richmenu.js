// `npm run bench:richmenu`: relinking 100,000 LINE users to a new rich menu (issue 38 part 3, ADR 049) on
// PostgreSQL, against the local LINE Messaging fake, through the production path.
//
//   - A fresh database on BENCH_PG_URL (an admin URL, default postgres://postgres@127.0.0.1:5432/postgres), dropped
//     at the end. The app: `node server.js` (production build, `npm run build` first) with APP_ENV=test (for the test
//     hooks that make the admin's session), LOG_LEVEL=warn.
//   - The members are seeded in SQL (--members, default 100,000), each linked to a LINE user: the outbox's triggers
//     queue each of them, and the instance's own worker settles them (no menu yet: nothing to call).
//   - An admin publishes the member menu with the console's own form (a 2500×843 PNG, two areas). Timed from the
//     form's answer until every user's outbox row is `done` on the new menu (the worker is woken by the outbox's
//     notification): goal ≤ 5 min. Checked after: the fake shows the menu linked to a sample of users, and the bulk
//     calls took at most 500 users each.
//
// Prints a table and writes bench/results/richmenu.json. Exit code 1 only when the bench itself broke.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { cookieHeader, testHooks } from "./member.js";
import { adminStatement, databaseUrl, startBuiltServer } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    members: { type: "string", default: "100000" },
    "db-name": { type: "string", default: `bench_richmenu_${process.pid}` },
  },
});
const MEMBERS = Number(opts.members);
const DB_NAME = opts["db-name"];
if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error("--db-name: lower-case letters, digits and underscores");
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const HOOKS_SECRET = randomBytes(24).toString("base64url");
const GOAL_S = 300;

const log = (...args) => console.error("[bench:richmenu]", ...args);
const dbUrl = (name) => databaseUrl(name, ADMIN_URL);

const admin = (statement) => adminStatement(statement, ADMIN_URL);

/** A PNG's signature and IHDR chunk: all that LINE's size checks and ours read. */
function png(width, height) {
  const out = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).copy(out);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  Buffer.from([8, 6, 0, 0, 0]).copy(out, 24);
  return out;
}

async function seed(sql) {
  const started = Date.now();
  await sql.unsafe(`
    with users as (
      insert into auth_user (id, name, email)
      select 'bench-rm-' || i, '會員' || i, 'bench-rm-' || i || '@phone.invalid' from generate_series(1, ${MEMBERS}) i
      returning id),
    members as (
      insert into member (user_id, member_number, name_zh, phone_number)
      select id, 'HB' || lpad(substr(id, 10), 8, '0'), '王小明', '+8869' || lpad(substr(id, 10), 8, '0') from users
      returning user_id)
    insert into auth_account (id, account_id, provider_id, user_id)
    select gen_random_uuid()::text, 'U' || md5(user_id), 'line', user_id from members`);
  return Date.now() - started;
}

async function waitUntil(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

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
    app = await startBuiltServer({
      label: "richmenu",
      readyMs: 120_000,
      env: {
        APP_ENV: "test",
        TEST_HOOKS_SECRET: HOOKS_SECRET,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "warn",
      },
    });
    const seedMs = await seed(sql);
    log(`seeded in ${(seedMs / 1000).toFixed(1)} s; the worker settles the queued users (no menu yet)`);
    const settled = await waitUntil(async () => {
      const [row] = await sql`select count(*)::int as n from rich_menu_link where status <> 'done'`;
      return row.n === 0;
    }, 600_000);
    if (!settled) throw new Error("the outbox did not settle after seeding");

    const staff = await testHooks(app.url, HOOKS_SECRET)("/staff", { role: "admin", displayName: "量測管理員" });
    const form = new FormData();
    for (const [k, v] of Object.entries({
      intent: "publish",
      title: "會員選單",
      chatBarText: "會員專區",
      a0x: "0",
      a0y: "0",
      a0w: "1250",
      a0h: "843",
      a0kind: "card",
      a0value: "",
      a1x: "1250",
      a1y: "0",
      a1w: "1250",
      a1h: "843",
      a1kind: "uri",
      a1value: "https://han-living.example/our-store",
    }))
      form.append(k, v);
    form.append("image", new Blob([png(2500, 843)], { type: "image/png" }), "menu.png");
    const started = Date.now();
    const res = await fetch(`${app.url}/admin/rich-menus/member`, {
      method: "POST",
      body: form,
      headers: { origin: app.url, cookie: cookieHeader(staff.setCookie), "x-test-hooks-secret": HOOKS_SECRET },
      redirect: "manual",
    });
    if (res.status !== 302) throw new Error(`publishing answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    const publishMs = Date.now() - started;
    const [menu] = await sql`select line_rich_menu_id as id from rich_menu where state = 'member'`;
    const done = await waitUntil(
      async () => {
        const [row] =
          await sql`select count(*)::int as n from rich_menu_link where status = 'done' and linked_menu = ${menu.id}`;
        return row.n === MEMBERS;
      },
      GOAL_S * 2 * 1000,
    );
    const relinkMs = Date.now() - started;
    if (!done) throw new Error(`not every user was linked within ${GOAL_S * 2} s`);

    const fake = await (await fetch(`${app.url}/__line/messaging/richmenu`)).json();
    const bulk = fake.calls.filter((c) => c.path === "/v2/bot/richmenu/bulk/link");
    const linkedUsers = bulk.reduce((n, c) => n + c.userIds, 0);
    const sample = await sql`select account_id from auth_account where provider_id = 'line' order by random() limit 20`;
    let sampleOk = 0;
    for (const { account_id } of sample) {
      const shown = await (await fetch(`${app.url}/__line/messaging/richmenu/users/${account_id}`)).json();
      if (shown.linked === menu.id) sampleOk++;
    }
    const results = {
      members: MEMBERS,
      publishMs,
      relinkMs,
      bulkCalls: bulk.length,
      largestCall: Math.max(...bulk.map((c) => c.userIds)),
      linkedUsers,
      sampleLinked: `${sampleOk}/${sample.length}`,
      goalS: GOAL_S,
      pass: relinkMs <= GOAL_S * 1000 && sampleOk === sample.length && linkedUsers === MEMBERS,
    };
    console.log(`
| figure | value | goal |
| --- | --- | --- |
| publish (form → LINE → stored, queued) | ${(publishMs / 1000).toFixed(2)} s | — |
| relinking ${MEMBERS.toLocaleString("en-US")} users, from the form until all are done | ${(relinkMs / 1000).toFixed(1)} s | ≤ ${GOAL_S} s ${results.pass ? "PASS" : "FAIL"} |
| bulk link calls (largest) | ${bulk.length} (${results.largestCall}) | ≤ 500 users each |
| users linked at the fake / sample checked | ${linkedUsers.toLocaleString("en-US")} / ${results.sampleLinked} | each once |
`);
    mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    writeFileSync(path.join(root, "bench", "results", "richmenu.json"), `${JSON.stringify(results, null, 2)}\n`);
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
    await admin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
