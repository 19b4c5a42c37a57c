// `npm run bench:appointments -- [--database-url URL] [--stores 200] [--days 60] [--runs 400] [--warmup 40]`:
// the free times of a store, kind and Taipei day (ADR 044: `freeTimes`, the function behind the booking page's day
// step) on PostgreSQL with --stores (200) showrooms × --days (60) days of bookings; goal p95 ≤ 50 ms.
//
//   - A scratch database `bench_appointments` beside --database-url (default postgres://postgres@127.0.0.1:5432/
//     postgres), dropped first, migrated by the app's own migrations (platform/db/client.ts, loaded with tsx).
//   - Seeded in SQL: the stores, each with the three kinds (10 start times every day, capacity 3), and for every
//     store, kind, start time and day of the next --days days a slot counter (1–3 booked) and its bookings: with the
//     defaults 360,000 counters and ~720,000 bookings.
//   - Timed here, one call at a time on a pool like the app's: `freeTimes` for a random store, kind and day
//     (--warmup, then --runs), and as the same run's baseline a primary-key read of one store row through the same
//     pool (the cheapest query a page makes): p50 / p95 / max of each and the ratio of the p95s.
//
// Prints a table and writes bench/results/appointments.json. Exit 1 only when the bench itself broke.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({
  options: {
    "database-url": { type: "string" },
    stores: { type: "string", default: "200" },
    days: { type: "string", default: "60" },
    runs: { type: "string", default: "400" },
    warmup: { type: "string", default: "40" },
  },
});
const BASE_URL =
  opts["database-url"] || process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const STORES = Number(opts.stores);
const DAYS = Number(opts.days);
const RUNS = Number(opts.runs);
const WARMUP = Number(opts.warmup);
const GOAL_MS = 50;
const DB_NAME = "bench_appointments";
const src = (p) => tsImport(path.join(root, p), import.meta.url);
const log = (...args) => console.log(...args);

function dbUrl(name) {
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

async function seed(sql) {
  const started = performance.now();
  await sql`
    insert into store (id, name, summary, city, district, postal_code, address, phone, email, latitude, longitude,
                       weekly_hours, published)
    select 'bench-' || n, jsonb_build_object('zh-TW', '量測門市 ' || n, 'en', 'Bench ' || n),
           '{"zh-TW":"x","en":"x"}', 'taipei', '{"zh-TW":"信義區","en":"Xinyi"}', '110', '{"zh-TW":"x","en":"x"}',
           '02-0000-0000', 'bench' || n || '@example.test', 25.03, 121.56,
           '[[{"open":"10:00","close":"21:00"}],[{"open":"10:00","close":"21:00"}],[{"open":"10:00","close":"21:00"}],[{"open":"10:00","close":"21:00"}],[{"open":"10:00","close":"21:00"}],[{"open":"10:00","close":"21:00"}],[{"open":"10:00","close":"21:00"}]]',
           true
    from generate_series(1, ${STORES}) n`;
  const times = ["10:00", "11:00", "12:00", "13:00", "14:00", "15:00", "16:00", "17:00", "18:00", "19:00"];
  const week = JSON.stringify(Array.from({ length: 7 }, () => times));
  await sql`
    insert into store_appointment_kind (store_id, kind, enabled, duration_minutes, capacity, weekly_slots)
    select s.id, k.kind, true, k.minutes, 3, ${week}::jsonb
    from store s cross join (values ('visit', 30), ('consultation', 60), ('measuring', 90)) k(kind, minutes)
    where s.id like 'bench-%'`;
  // Counters and bookings for every store, kind, start time and day from tomorrow (Taipei).
  await sql`
    insert into appointment_slot (store_id, kind, starts_at, booked)
    select s.id, k.kind,
           ((current_date at time zone 'Asia/Taipei')::date + d + t)::timestamp at time zone 'Asia/Taipei',
           1 + (abs(hashtext(s.id || k.kind || d || t)) % 3)
    from store s
    cross join (values ('visit'), ('consultation'), ('measuring')) k(kind)
    cross join generate_series(1, ${DAYS}) d
    cross join unnest(${times}::time[]) t
    where s.id like 'bench-%'`;
  await sql`
    insert into appointment (reference, store_id, kind, starts_at, ends_at, local_date, guest_phone, address)
    select upper(substr(md5(random()::text || g.n || sl.starts_at), 1, 10)), sl.store_id, sl.kind, sl.starts_at,
           sl.starts_at + interval '1 hour', (sl.starts_at at time zone 'Asia/Taipei')::date,
           '+8869' || lpad((abs(hashtext(sl.store_id || g.n)) % 100000000)::text, 8, '0'),
           case when sl.kind = 'measuring' then '{"city":"taipei","district":"x","street":"y"}'::jsonb end
    from appointment_slot sl cross join lateral generate_series(1, sl.booked) g(n)`;
  await sql`analyze`;
  const [counts] = await sql`
    select (select count(*) from appointment_slot)::int as slots, (select count(*) from appointment)::int as bookings`;
  return { ms: performance.now() - started, ...counts };
}

async function main() {
  log(
    `${STORES} stores × ${DAYS} days · ${os.availableParallelism()} cores · load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const admin = postgres(BASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
  await admin.unsafe(`create database ${DB_NAME}`);
  const { openDatabase } = await src("platform/db/client.ts");
  const handle = await openDatabase({ kind: "postgres", url: dbUrl(DB_NAME), poolMax: 4 });
  const sql = postgres(dbUrl(DB_NAME), { max: 2, onnotice: () => {} });
  try {
    await handle.migrate();
    const seeded = await seed(sql);
    log(
      `seeded ${seeded.slots.toLocaleString("en-US")} slot counters and ${seeded.bookings.toLocaleString("en-US")} bookings in ${(seeded.ms / 1000).toFixed(1)} s`,
    );

    const { freeTimes } = await src("app/domain/appointments/appointments.server.ts");
    const { store } = await src("platform/db/schema/index.ts");
    const { eq } = await import("drizzle-orm");
    const { addDays, taipeiDate } = await src("app/lib/time.ts");
    const now = new Date();
    const today = taipeiDate(now);
    const kinds = ["visit", "consultation", "measuring"];
    const pick = (n) => Math.floor(Math.random() * n);
    const randomCase = () => ({
      storeId: `bench-${1 + pick(STORES)}`,
      kind: kinds[pick(3)],
      day: addDays(today, 1 + pick(DAYS)),
    });

    const timed = async (fn) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    const free = [];
    const baseline = [];
    let slotsSeen = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const c = randomCase();
      // Interleaved, so both see the same machine.
      const b = await timed(() => handle.db.select().from(store).where(eq(store.id, c.storeId)).limit(1));
      const f = await timed(async () => {
        slotsSeen += (await freeTimes(handle.db, c.storeId, c.kind, c.day, now)).length;
      });
      if (i >= WARMUP) {
        baseline.push(b);
        free.push(f);
      }
    }
    const f = stats(free);
    const b = stats(baseline);
    const fmt = (x) => x.toFixed(2).padStart(8);
    log("");
    log("                              p50 ms   p95 ms   max ms");
    log(`freeTimes (store, kind, day) ${fmt(f.p50)} ${fmt(f.p95)} ${fmt(f.max)}`);
    log(`baseline: one store by id    ${fmt(b.p50)} ${fmt(b.p95)} ${fmt(b.max)}`);
    log(
      `p95 ÷ baseline p95: ${(f.p95 / b.p95).toFixed(2)} · free times returned on average ${(slotsSeen / (WARMUP + RUNS)).toFixed(1)}`,
    );
    log(`goal p95 ≤ ${GOAL_MS} ms: ${f.p95 <= GOAL_MS ? "met" : "NOT met"}`);
    const out = path.join(root, "bench/results");
    mkdirSync(out, { recursive: true });
    writeFileSync(
      path.join(out, "appointments.json"),
      JSON.stringify(
        { stores: STORES, days: DAYS, runs: RUNS, seeded, freeTimes: f, baseline: b, goalMs: GOAL_MS },
        null,
        2,
      ),
    );
  } finally {
    await sql.end();
    await handle.close();
    await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
