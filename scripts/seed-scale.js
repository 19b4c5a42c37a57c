// `npm run db:seed:scale -- [--url URL] [--force] [--members N] [--purchases N] [--no-vacuum]`: fills a
// PostgreSQL database with a loyalty history at scale, for measuring (docs/scaling.md, "At 1,000,000 members").
//
// Defaults: 1,000,000 members (with their auth_user rows), 3,000,000 purchases and ≈ 10,000,000 ledger entries
// (point_entry) over the last 3 years, in 50 stores (the demo catalogue's showrooms plus unpublished ones).
// The target is DATABASE_URL or --url; the embedded database is refused, and so is a database that already has
// members unless --force. The app's migrations and the demo catalogue/rewards are applied first, from the
// production build (as `npm run db:seed` does; built when missing or stale).
//
// Everything is generated in SQL (generate_series, INSERT … SELECT into temporary tables, then one INSERT per
// table), never row by row. While loading, the indexes, unique/primary keys and foreign keys of the loaded tables
// (and the foreign keys pointing at them) are dropped; they are recreated, and the foreign keys validated, before
// the script ends — also when a step fails.
//
// The history follows the app's rules (app/domain/loyalty): most members are dormant (welcome and birthday
// points, which expire), a few are very active; points per purchase are 1 per NT$100 times the tier multiplier of
// the member's rolling 12-month spend before it; tiers and tier_change rows follow that spend; every credit makes
// a lot expiring at the end of the next Taipei calendar year; redemptions (with their coupons) take points from
// the previous year's lots (the soonest expiring) in the engine's order; lots still holding points when they
// expired were booked as `expire` entries; loyalty_account.balance is each member's ledger sum and equals the
// points left in their unexpired lots; the store and time of each member's last purchase (member_last_store,
// loyalty_account) follow the purchases. Not seeded: refunds, adjustments, sessions, audit rows.
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { ensureBuild } from "./ensure-build.js";

const { values: opts } = parseArgs({
  options: {
    url: { type: "string" },
    force: { type: "boolean", default: false },
    members: { type: "string", default: "1000000" },
    purchases: { type: "string", default: "3000000" },
    stores: { type: "string", default: "50" },
    vacuum: { type: "boolean", default: true },
    "no-vacuum": { type: "boolean", default: false },
  },
});
const MEMBERS = Number(opts.members);
const PURCHASES = Number(opts.purchases);
const STORES = Number(opts.stores);
const VACUUM = opts.vacuum && !opts["no-vacuum"];
if (![MEMBERS, PURCHASES, STORES].every((n) => Number.isSafeInteger(n) && n > 0) || MEMBERS > 30_000_000) {
  console.error("--members (≤ 30,000,000), --purchases and --stores must be positive integers");
  process.exit(2);
}
const url = opts.url || process.env.DATABASE_URL;
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    "seed-scale needs a PostgreSQL database: --url postgres://… or DATABASE_URL (the embedded database is refused).",
  );
  process.exit(2);
}

const started = performance.now();
const secs = () => ((performance.now() - started) / 1000).toFixed(1);
const log = (msg) => console.log(`[seed-scale ${secs().padStart(6)} s] ${msg}`);

// The tables this script loads: their keys and indexes are dropped while loading and rebuilt at the end.
const LOADED = [
  "auth_user",
  "member",
  "member_last_store",
  "loyalty_account",
  "purchase",
  "point_entry",
  "point_lot",
  "point_lot_use",
  "coupon",
  "tier_change",
];

const sql = postgres(url, {
  max: 1,
  onnotice: () => {},
  idle_timeout: 0,
  connection: { application_name: "seed-scale" },
});

async function step(label, text) {
  const t0 = performance.now();
  const result = await sql.unsafe(text);
  const ms = performance.now() - t0;
  log(
    `${label}${result.count != null && result.command !== "CREATE" ? `: ${result.count.toLocaleString("en")} rows` : ""} (${(ms / 1000).toFixed(1)} s)`,
  );
  return result;
}

async function migrate() {
  const root = path.resolve(import.meta.dirname, "..");
  ensureBuild(root);
  const { seedFromEnvironment } = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
  // APP_ENV=test: migrations, the demo catalogue and rewards, but no demo member or staff.
  const saved = { DATABASE_URL: process.env.DATABASE_URL, APP_ENV: process.env.APP_ENV };
  process.env.DATABASE_URL = url;
  process.env.APP_ENV = "test";
  try {
    return await seedFromEnvironment();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Drops the keys, indexes and foreign keys of the loaded tables; returns the DDL that recreates them. */
async function dropKeys() {
  const tables = LOADED.map((t) => `'public.${t}'::regclass`).join(", ");
  const fks = await sql.unsafe(`
    select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
      from pg_constraint where contype = 'f' and (conrelid in (${tables}) or confrelid in (${tables}))`);
  const keys = await sql.unsafe(`
    select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
      from pg_constraint where contype in ('p', 'u') and conrelid in (${tables})
      order by contype`);
  const indexes = await sql.unsafe(`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
      from pg_index i where i.indrelid in (${tables})
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
  const ddl = [
    ...keys.map((k) => `alter table ${k.tbl} add constraint "${k.name}" ${k.def}`),
    ...indexes.map((i) => i.def),
    ...fks.map((f) => `alter table ${f.tbl} add constraint "${f.name}" ${f.def}`),
  ];
  await sql.begin(async (tx) => {
    for (const f of fks) await tx.unsafe(`alter table ${f.tbl} drop constraint "${f.name}"`);
    for (const i of indexes) await tx.unsafe(`drop index ${i.name}`);
    for (const k of keys) await tx.unsafe(`alter table ${k.tbl} drop constraint "${k.name}"`);
  });
  log(`dropped ${keys.length} keys, ${indexes.length} indexes and ${fks.length} foreign keys while loading`);
  return ddl;
}

async function restoreKeys(ddl) {
  for (const statement of ddl) {
    const t0 = performance.now();
    await sql.unsafe(statement);
    const s = (performance.now() - t0) / 1000;
    if (s > 2) log(`  ${statement.slice(0, 110)} (${s.toFixed(1)} s)`);
  }
  log(`recreated ${ddl.length} keys, indexes and foreign keys`);
}

// Taipei has no daylight saving: its calendar years start at 16:00 UTC on 31 December.
const TAIPEI_YEAR = (ts) => `extract(year from ${ts} at time zone 'Asia/Taipei')::int`;
const YEAR_START = (year) => `make_timestamptz(${year}, 1, 1, 0, 0, 0, 'Asia/Taipei')`;

async function generate(now) {
  const nowSql = `'${now.toISOString()}'::timestamptz`;
  const fromSql = `(${nowSql} - interval '3 years')`;
  await step(
    "session settings",
    `
    set synchronous_commit = off; set work_mem = '256MB'; set maintenance_work_mem = '1GB';
    set max_parallel_maintenance_workers = 2; set jit = off`,
  );

  // ── Stores: the demo showrooms plus unpublished ones up to STORES; popularity falls with the rank.
  await step(
    "stores",
    `
    insert into store (id, name, summary, city, district, postal_code, address, phone, email, latitude, longitude,
                       weekly_hours, published, sort_order)
    select 'scale-' || lpad(g::text, 3, '0'), jsonb_build_object('zh-TW', '門市 ' || g, 'en', 'Store ' || g),
           '{"zh-TW":"","en":""}', 'taipei', '{"zh-TW":"信義區","en":"Xinyi District"}', '110',
           jsonb_build_object('zh-TW', '松仁路 ' || g || ' 號', 'en', 'No. ' || g || ', Songren Rd.'),
           '02-2345-' || lpad(g::text, 4, '0'), 'scale-' || g || '@stores.example', 25.03, 121.56,
           '[[],[],[],[],[],[],[]]', false, 100 + g
      from generate_series(1, greatest(0, ${STORES} - (select count(*) from store))) g
    on conflict (id) do nothing`,
  );
  await step(
    "store ranks",
    `
    create temp table ss as
      select (row_number() over (order by published desc, sort_order, id))::int as rank, id
        from store order by 1 limit ${STORES};
    create unique index on ss (rank); analyze ss`,
  );

  // ── Members. Classes: 0 dormant (60 %), 1 occasional (25 %), 2 regular (12 %), 3 active (~3 %),
  // 4 very active (0.05 %: what is left of the purchases, at least 20 each when --purchases leaves room), 5 a handful of trade accounts (3,000 purchases each).
  // Founding members (35 %) joined in the program's first month, the others over the 3 years since.
  const [{ base }] = await sql.unsafe(`select nextval('member_number_seq')::bigint as base`);
  await step(
    "members (staging)",
    `
    create temp table sm as
    select i, id, user_id, member_number, phone, created_at, class, birthday, name, gender, line,
           case class when 0 then 0 when 1 then 1 + (r * 2.99)::int when 2 then 5 + (r * 8.99)::int
                      when 3 then 17 + (r * 39.99)::int when 5 then 3000 else 0 end as n
      from (
        select i, gen_random_uuid() as id, gen_random_uuid()::text as user_id,
               'HL' || lpad((${base} + i - 1)::text, 8, '0') as member_number,
               -- E.164 +8869…: a permutation of the member number over +88692…–+88694…, so unique.
               '+8869' || (20000000 + ((${base}::bigint - 10000001 + i - 1) * 7919) % 30000000)::text as phone,
               case when founding then ${fromSql} + random() * interval '30 days'
                    else ${fromSql} + interval '30 days' + random() * (${nowSql} - ${fromSql} - interval '31 days') end
                 as created_at,
               case when i % 100000 = 7 then 5 when u < 0.60 then 0 when u < 0.85 then 1 when u < 0.97 then 2
                    when u < 0.9995 then 3 else 4 end as class,
               random() as r,
               case when random() < 0.93 then date '1955-01-01' + (random() * 365 * 50)::int end as birthday,
               (array['陳','林','黃','張','李','王','吳','劉','蔡','楊','許','鄭','謝','郭','洪','曾','邱','廖','賴','周'])[1 + floor(random() * 20)::int]
                 || (array['雅','怡','家','建','志','淑','美','俊','宗','佳','欣','冠','承','宇','婷','偉'])[1 + floor(random() * 16)::int]
                 || (array['婷','君','豪','宏','華','玲','儀','廷','翰','瑜','芳','傑','萱','銘','慧','恩'])[1 + floor(random() * 16)::int]
                 as name,
               (array['male','female','female','undisclosed'])[1 + floor(random() * 4)::int] as gender,
               random() < 0.2 as line
          from (select i, random() as u, random() < 0.5 as founding from generate_series(1, ${MEMBERS}) i) g
      ) x`,
  );
  // Fewer purchases asked for than the other classes make (a small --purchases): their counts are scaled down, keeping
  // 20 for each very active member where there is room, so the total is --purchases (it was ignored below the
  // classes' total until 2026-12-07).
  await step(
    "purchases per class, scaled to --purchases",
    `
    with t as (select coalesce(sum(n) filter (where class <> 4), 0) as others,
                      greatest(${PURCHASES} - 20 * count(*) filter (where class = 4), 0) as room from sm)
    update sm set n = floor(sm.n::numeric * t.room / t.others)::int
      from t where sm.class <> 4 and t.others > t.room`,
  );
  await step(
    "very active members' purchases",
    `
    with v as (select count(*) filter (where class = 4) as k, ${PURCHASES} - sum(n) as left_over from sm),
         r as (select i, row_number() over (order by i) - 1 as rn from sm where class = 4)
    update sm set n = greatest(0, v.left_over / greatest(v.k, 1) + case when r.rn < v.left_over % greatest(v.k, 1) then 1 else 0 end)
      from v, r where sm.i = r.i`,
  );
  await step("index", "create unique index on sm (id); analyze sm");

  // ── Purchases: amounts log-normal around NT$8,000 (NT$100–2,000,000), any time after the member joined,
  // popular stores more often; points at the tier of the member's 12-month spend before the purchase.
  await sql.unsafe("create temp sequence receipt_seq");
  await step(
    "purchases (staging)",
    `
    create temp table sp as
    select p.id, p.member_id, ss.id as store_id, p.receipt_number, p.net_amount, p.purchased_at
      from (
        select gen_random_uuid() as id, m.id as member_id,
               'R' || lpad(nextval('receipt_seq')::text, 9, '0') as receipt_number,
               greatest(100, least(2000000, round(exp(ln(8000) + 1.1 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())))))::int
                 as net_amount,
               m.created_at + interval '1 hour' + random() * (${nowSql} - m.created_at - interval '2 hours') as purchased_at,
               1 + floor(${STORES} * power(random(), 1.6))::int as store_rank
          from sm m cross join lateral generate_series(1, m.n) g
         where m.n > 0) p
      join ss on ss.rank = p.store_rank`,
  );
  await step(
    "tiers at each purchase",
    `
    create temp table spt as
    select p.id, p.member_id, p.store_id, p.receipt_number, p.net_amount, p.purchased_at,
           case when spend_before >= r.gold_spend then 'gold' when spend_before >= r.silver_spend then 'silver' else 'basic' end as tier_before,
           case when spend_before + net_amount >= r.gold_spend then 'gold'
                when spend_before + net_amount >= r.silver_spend then 'silver' else 'basic' end as tier_after,
           spend_before + net_amount as spend_after,
           floor(floor(net_amount / r.amount_per_point) *
             case when spend_before >= r.gold_spend then r.gold_multiplier_permille
                  when spend_before >= r.silver_spend then r.silver_multiplier_permille
                  else r.basic_multiplier_permille end / 1000)::int as points
      from (select sp.*, sum(net_amount) over (partition by member_id order by purchased_at
                   range between interval '1 year' preceding and current row) - net_amount as spend_before
              from sp) p
      cross join (select * from loyalty_rules order by effective_from desc, id desc limit 1) r;
    drop table sp; analyze spt`,
  );
  await step(
    "final tiers",
    `
    create temp table mt as
    with t as (
      select p.member_id, case when s.spend >= r.gold_spend then 'gold' when s.spend >= r.silver_spend then 'silver'
                               else 'basic' end as tier
        from (select member_id, coalesce(sum(net_amount) filter (where purchased_at > ${nowSql} - interval '1 year'), 0) as spend
                from spt group by member_id) s
        join (select distinct member_id from spt) p on p.member_id = s.member_id
        cross join (select * from loyalty_rules order by effective_from desc, id desc limit 1) r)
    select t.member_id, t.tier, u.since
      from t left join (select p.member_id, max(p.purchased_at) as since from spt p join t on t.member_id = p.member_id
                         where p.tier_after = t.tier and p.tier_before <> t.tier group by p.member_id) u
        on u.member_id = t.member_id;
    create unique index on mt (member_id); analyze mt`,
  );

  // ── Credits (each makes a lot): welcome at sign-up, birthday on the 1st of the birthday month (from the
  // first one at least 30 days after sign-up), and the purchases' points.
  await step(
    "credits (staging)",
    `
    create temp table sl as
    select c.*, ${TAIPEI_YEAR("c.at")} as year, ${YEAR_START(`${TAIPEI_YEAR("c.at")} + 2`)} as expires_at,
           sum(amount) over (partition by member_id, ${TAIPEI_YEAR("c.at")} order by entry_id)::int as hi
      from (
        select gen_random_uuid() as entry_id, m.id as member_id, 'welcome' as kind, 100 as amount,
               m.created_at + interval '2 seconds' as at, 'welcome:' || m.id as key, 'welcome' as reason,
               null::uuid as purchase_id, null::text as store_id, null::text as receipt_number
          from sm m
        union all
        select gen_random_uuid(), m.id, 'birthday', 200, b.at, 'birthday:' || m.id || ':' || b.y, 'birthday ' || b.y,
               null, null, null
          from sm m cross join lateral (
            select y, make_timestamptz(y, extract(month from m.birthday)::int, 1, 0, 30, 0, 'Asia/Taipei') as at
              from generate_series(${TAIPEI_YEAR(fromSql)}, ${TAIPEI_YEAR(nowSql)}) y) b
         where m.birthday is not null and b.at >= m.created_at + interval '30 days' and b.at <= ${nowSql}
        union all
        select gen_random_uuid(), p.member_id, 'earn-purchase', p.points, p.purchased_at + interval '2 seconds',
               'purchase:' || p.id, null, p.id, p.store_id, p.receipt_number
          from spt p where p.points > 0) c;
    create index on sl (member_id, year); analyze sl`,
  );

  // ── Redemptions in year Y take points from the lots earned in Y − 1 (the soonest expiring; Y − 2's lots have
  // expired by then), in the engine's order (expiry, then entry id): a share of those points, as NT$100 coupons
  // (100 points; NT$500 ones cost 450, chosen by 5 %). 60 % of dormant members redeem nearly all of last year's welcome
  // and birthday points (else they expire); the others redeem 60–98 % of them. (Tuned to ≈ 10 M ledger entries.)
  await step(
    "redemptions (staging)",
    `
    create temp table sr as
    select r.*, sum(cost) over (partition by member_id, redeem_year order by at, entry_id)::int as hi
      from (
        select gen_random_uuid() as entry_id, member_id, year + 1 as redeem_year, cost,
               case when cost = 100 then '7d1f5a10-0000-4000-8000-000000000001'::uuid
                    else '7d1f5a10-0000-4000-8000-000000000002'::uuid end as reward_id,
               ${YEAR_START("year + 1")} + interval '1 day'
                 + random() * (least(${YEAR_START("year + 2")}, ${nowSql}) - ${YEAR_START("year + 1")} - interval '1 day 1 minute') as at
          from (
            select member_id, year, cost, floor(points * share / cost)::int as k
              from (
                select member_id, year, points, share,
                       case when points * share >= cost0 then cost0 else 100 end as cost
                  from (
                    select my.member_id, my.year, my.points,
                           case when m.class = 0 then (case when random() < 0.6 then 0.99 else 0 end)
                                else 0.6 + random() * 0.38 end as share,
                           case when random() < 0.05 then 450 else 100 end as cost0
                      from (select member_id, year, sum(amount)::int as points from sl
                             where year < ${TAIPEI_YEAR(nowSql)} group by 1, 2) my
                      join sm m on m.id = my.member_id) a) b) plan
          cross join lateral generate_series(1, plan.k) g
         where plan.k > 0) r;
    analyze sr`,
  );
  await step(
    "lot uses of the redemptions",
    `
    create temp table su as
    select r.entry_id as debit_entry_id, l.entry_id as lot_entry_id,
           least(r.hi, l.hi) - greatest(r.hi - r.cost, l.hi - l.amount) as points
      from sr r join sl l on l.member_id = r.member_id and l.year = r.redeem_year - 1
     where least(r.hi, l.hi) > greatest(r.hi - r.cost, l.hi - l.amount)`,
  );
  await step(
    "lots left and expiries (staging)",
    `
    create temp table slx as
    select l.entry_id, l.member_id, l.amount - coalesce(u.points, 0) as left_over, l.expires_at,
           case when l.expires_at <= ${nowSql} and l.amount > coalesce(u.points, 0) then gen_random_uuid() end as expire_entry_id
      from sl l left join (select lot_entry_id, sum(points)::int as points from su group by 1) u on u.lot_entry_id = l.entry_id;
    analyze slx`,
  );

  // ── The real tables. The dashboard's summary triggers (ADR 025) are off while loading (one row at a time
  // would take hours); report_rebuild() computes the summaries from the loaded rows at the end.
  const ddl = await dropKeys();
  for (const t of LOADED) await sql.unsafe(`alter table ${t} disable trigger user`);
  try {
    await step(
      "auth_user",
      `
      insert into auth_user (id, name, email, phone_number, phone_number_verified, role, created_at, updated_at)
      select user_id, name, user_id || '@phone.invalid', phone, true, 'member', created_at, created_at from sm`,
    );
    await step(
      "member",
      `
      insert into member (id, user_id, member_number, name_zh, gender, birthday, birthday_changed_at, phone_number,
                          marketing_sms, marketing_email, marketing_line, member_level, signup_method, last_login_at,
                          created_at, updated_at)
      select m.id, m.user_id, m.member_number, m.name, m.gender, m.birthday, case when m.birthday is not null then m.created_at end,
             m.phone, random() < 0.4, random() < 0.3, m.line and random() < 0.6, coalesce(t.tier, 'basic'),
             case when m.line then 'line' else 'phone' end,
             case when m.class = 0 then m.created_at else ${nowSql} - random() * (${nowSql} - m.created_at) end,
             m.created_at, m.created_at
        from sm m left join mt t on t.member_id = m.id`,
    );
    // The store of each member's last purchase (the console's store filter; migration 0062).
    await step(
      "member_last_store",
      `
      insert into member_last_store (member_id, store_id, member_created_at)
      select lp.member_id, lp.store_id, m.created_at
        from (select distinct on (member_id) member_id, store_id from spt order by member_id, purchased_at desc) lp
        join sm m on m.id = lp.member_id`,
    );
    await sql.unsafe(`select setval('member_number_seq', ${base} + ${MEMBERS} - 1)`);
    await step(
      "purchase",
      `
      insert into purchase (id, store_id, receipt_number, member_id, net_amount, purchased_at, points_earned, created_at)
      select id, store_id, receipt_number, member_id, net_amount, purchased_at, points, purchased_at + interval '1 second'
        from spt`,
    );
    await step(
      "point_entry",
      `
      insert into point_entry (id, member_id, kind, amount, lot_expires_at, store_id, receipt_number, purchase_id,
                               reason, idempotency_key, created_at)
      select entry_id, member_id, kind, amount, expires_at, store_id, receipt_number, purchase_id, reason, key, at from sl
      union all
      select r.entry_id, r.member_id, 'redeem', -r.cost, null, null, null, null,
             case when r.cost = 100 then 'reward NT$100 折價券' else 'reward NT$500 折價券' end,
             'redeem:' || r.member_id || ':' || gen_random_uuid(), r.at
        from sr r
      union all
      select expire_entry_id, member_id, 'expire', -left_over, null, null, null, null,
             'lot expired ' || to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'expire:' || entry_id || ':' || left_over, expires_at + interval '10 minutes'
        from slx where expire_entry_id is not null`,
    );
    await step(
      "point_lot",
      `
      insert into point_lot (entry_id, member_id, remaining, expires_at, expired)
      select entry_id, member_id, case when expire_entry_id is null then left_over else 0 end, expires_at,
             case when expire_entry_id is null then 0 else left_over end
        from slx`,
    );
    await step(
      "point_lot_use",
      `
      insert into point_lot_use (debit_entry_id, lot_entry_id, points)
      select debit_entry_id, lot_entry_id, points from su
      union all
      select expire_entry_id, entry_id, left_over from slx where expire_entry_id is not null`,
    );
    await step(
      "coupon",
      `
      insert into coupon (code, reward_id, member_id, status, points_cost, redeem_entry_id, issued_at, expires_at,
                          used_at, used_store_id)
      select c.code, c.reward_id, c.member_id, case when c.used then 'used' else 'issued' end, c.cost, c.entry_id,
             c.at, c.expires_at, case when c.used then c.at + c.r * (least(c.expires_at, ${nowSql}) - c.at) end,
             case when c.used then ss.id end
        from (select r.*, translate(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
                                    '0123456789abcdef', 'ABCDEFGHJKLMNPQR')::varchar(26) as code,
                     -- valid to the end of the Taipei day 90 days after it was issued (both rewards: 90 days)
                     ((r.at at time zone 'Asia/Taipei')::date + 91)::timestamp at time zone 'Asia/Taipei' as expires_at,
                     random() < case when r.at < ${nowSql} - interval '90 days' then 0.75 else 0.35 end as used,
                     random() as r, 1 + floor(random() * ${STORES})::int as store_rank
                from sr r) c
        left join ss on ss.rank = c.store_rank`,
    );
    await step(
      "tier_change",
      `
      insert into tier_change (member_id, from_tier, to_tier, reason, spend_12_months, rules_id, created_at)
      select p.member_id, p.tier_before, p.tier_after, 'purchase ' || p.store_id || '/' || p.receipt_number,
             p.spend_after, (select id from loyalty_rules order by effective_from desc, id desc limit 1),
             p.purchased_at + interval '2 seconds'
        from spt p
       where (case p.tier_after when 'gold' then 2 when 'silver' then 1 else 0 end)
           > (case p.tier_before when 'gold' then 2 when 'silver' then 1 else 0 end)`,
    );
    await step(
      "loyalty_account",
      `
      insert into loyalty_account (member_id, balance, tier, tier_since, updated_at, last_purchase_at)
      select m.id, b.balance, coalesce(t.tier, 'basic'),
             coalesce(t.since, m.created_at),
             greatest(m.created_at, b.last_at),
             lp.purchased_at
        from sm m
        join (select member_id, sum(amount)::int as balance, max(at) as last_at from (
                select member_id, amount, at from sl
                union all select member_id, -cost, at from sr
                union all select member_id, -left_over, expires_at from slx where expire_entry_id is not null) e
               group by member_id) b on b.member_id = m.id
        left join mt t on t.member_id = m.id
        left join (select member_id, max(purchased_at) as purchased_at from spt group by member_id) lp
          on lp.member_id = m.id`,
    );
  } finally {
    await restoreKeys(ddl);
    for (const t of LOADED) await sql.unsafe(`alter table ${t} enable trigger user`);
  }
  if (VACUUM) {
    for (const t of LOADED) await step(`vacuum analyze ${t}`, `vacuum (analyze) ${t}`);
  } else {
    await step("analyze", `analyze ${LOADED.join(", ")}`);
  }
  await step("dashboard summaries (report_rebuild)", "select report_rebuild()");
  await step("analyze summaries", "analyze report_day_store, report_member_store, report_member_month, report_cohort");
}

async function main() {
  const [{ exists }] = await sql`select to_regclass('public.member') is not null as exists`;
  if (exists) {
    const [{ n }] = await sql`select count(*)::int as n from member`;
    if (n > 0 && !opts.force) {
      console.error(`The database already has ${n} members: refusing to add a million more (use --force).`);
      process.exit(1);
    }
  }
  log(`migrating and loading the demo catalogue (${url.replace(/\/\/[^@/]*@/, "//…@")})`);
  await migrate();
  const now = new Date();
  log(
    `generating ${MEMBERS.toLocaleString("en")} members, ${PURCHASES.toLocaleString("en")} purchases, ${STORES} stores`,
  );
  await generate(now);
  const rows = {};
  for (const t of [...LOADED, "store"]) {
    const [{ n }] = await sql.unsafe(`select count(*)::bigint as n from ${t}`);
    rows[t] = Number(n);
  }
  const sizes = await sql`
    select relname as table, pg_total_relation_size(relid)::bigint as bytes
      from pg_stat_user_tables where schemaname = 'public' order by pg_total_relation_size(relid) desc limit 8`;
  const [check] = await sql`
    select count(*)::int as mismatches from loyalty_account a
      join (select member_id, sum(amount) as s from point_entry group by member_id) e on e.member_id = a.member_id
     where a.balance <> e.s`;
  const [lots] = await sql`
    select count(*)::int as mismatches from loyalty_account a
      left join (select member_id, sum(remaining) as s from point_lot where expires_at > now() group by member_id) l
        on l.member_id = a.member_id
     where a.balance <> coalesce(l.s, 0)`;
  console.log("\nrows per table:");
  for (const [t, n] of Object.entries(rows)) console.log(`  ${t.padEnd(16)} ${n.toLocaleString("en").padStart(12)}`);
  console.log("largest tables (with indexes):");
  for (const s of sizes)
    console.log(`  ${s.table.padEnd(16)} ${(Number(s.bytes) / 2 ** 20).toFixed(0).padStart(8)} MB`);
  console.log(
    `balances ≠ ledger sum: ${check.mismatches} · balances ≠ unexpired lots: ${lots.mismatches} · elapsed ${secs()} s`,
  );
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
