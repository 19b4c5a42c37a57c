// The POS bench data shared by bench/pos.js, bench/pos-app-cpu.js and bench/scale.js: members and store keys
// written straight into the app's database (the same rows sign-up and `npm run api-key` write), the body and headers
// of one purchase, and the autocannon load that sends them.
import { createHash, randomBytes } from "node:crypto";
import autocannon from "autocannon";
import postgres from "postgres";

/**
 * The bench's members, each purchase one of them at random. 500 until 2026-12-07: within one run each of them collected
 * 65–140 purchases (a member's 12-month spend, read by every purchase, grew with them), so the SQL's rate fell round
 * by round (672 → 528 tps) and the growth mix's ratio climbed within a run (1.04 → 1.24), where real members buy a
 * few times a year. 20,000 leave them at 2–4 purchases each by a run's end, and TPC-B, the baseline, spreads its
 * updates over 100,000 accounts (ADR 039, "Later (2026-12-07, each phase alone)").
 */
export const POS_MEMBERS = 20_000;
/** Keys rotate among 100 store keys because each key is limited to 600 requests a minute (a real till sends a few). */
export const POS_KEYS = 100;

export async function seedPos(databaseUrl) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    // In two statements (the same rows sign-up writes): member i is HL(30,000,000 + i), phone +8869(10,000,000 + i).
    await sql`insert into auth_user (id, name, email)
      select md5('bench-pos-user-' || i)::uuid, 'bench', md5('bench-pos-user-' || i)::uuid || '@phone.invalid'
        from generate_series(0, ${POS_MEMBERS - 1}::int) i`;
    await sql`insert into member (user_id, member_number, name_zh, phone_number)
      select md5('bench-pos-user-' || i)::uuid, 'HL' || (30000000 + i), '測試會員', '+8869' || (10000000 + i)
        from generate_series(0, ${POS_MEMBERS - 1}::int) i`;
    // Each has the loyalty account a member has after their first purchase (lockAccountOf makes it then, in three
    // more round trips): the benches measure a purchase of a member who has bought before, as nearly all are.
    await sql`insert into loyalty_account (member_id) select id from member where member_number like 'HL3%'
      on conflict (member_id) do nothing`;
    const members = Array.from({ length: POS_MEMBERS }, (_, i) => `HL${String(30_000_000 + i)}`);
    // Keys belong to stores that exist (api_key.store_id references store).
    for (let i = 0; i < 10; i++) {
      const id = `S${String(i).padStart(2, "0")}`;
      const text = sql.json({ "zh-TW": id, en: id });
      await sql`insert into store (id, name, summary, city, district, postal_code, address, phone, email, latitude, longitude, weekly_hours)
        values (${id}, ${text}, ${text}, 'taipei', ${text}, '110', ${text}, '02-2345-0000', ${`${id}@stores.example`}, 25.03, 121.56, ${sql.json([[], [], [], [], [], [], []])})
        on conflict (id) do nothing`;
    }
    const keys = [];
    for (let i = 0; i < POS_KEYS; i++) {
      const secret = `hlpos_${randomBytes(32).toString("base64url")}`;
      const hash = createHash("sha256").update(secret).digest("hex");
      await sql`insert into api_key (store_id, name, prefix, secret_hash)
        values (${`S${String(i % 10).padStart(2, "0")}`}, ${`bench ${i}`}, ${secret.slice(0, 12)}, ${hash})`;
      keys.push(secret);
    }
    return { members, keys };
  } finally {
    await sql.end();
  }
}

/** The n-th purchase of a run: a new receipt and Idempotency-Key, a random member, the keys in turn. */
export function purchaseRequest({ members, keys }, run, n) {
  return {
    body: JSON.stringify({
      memberNumber: members[Math.floor(Math.random() * members.length)],
      receiptNumber: `B${run}-${n}`,
      netAmount: 100 + Math.floor(Math.random() * 20_000),
    }),
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${keys[n % keys.length]}`,
      "idempotency-key": `b${run}-${n}`,
    },
  };
}

/**
 * POST /api/v1/purchases to `url` for `seconds` s over `connections` connections, each request the next
 * purchaseRequest of the run (`run` names its receipts and Idempotency-Keys). `overallRate`: that many requests a
 * second in all (autocannon's overallRate), to read the latency below saturation. The first five answers other
 * than 201 are pushed to `failures` (the caller's error message); the result is autocannon's.
 */
export function sendPurchases(url, data, run, { connections, seconds, overallRate, failures }) {
  let n = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        ...(overallRate ? { overallRate } : {}),
        requests: [
          {
            method: "POST",
            path: "/api/v1/purchases",
            onResponse(status, body) {
              if (status !== 201 && failures.length < 5) failures.push(`${status} ${body}`);
            },
            setupRequest(request) {
              n++;
              return { ...request, ...purchaseRequest(data, run, n) };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/**
 * Waits until the app has delivered every member message that is due (a purchase queues its receipt; the app's
 * dispatcher sends it after the purchase's answer), so that no phase runs beside the leftovers of the one before it:
 * until 2026-12-07 bench:pos delivered the receipts of the app's round during the same-work round after it, and those
 * of the same-work round during the next round's TPC-B (ADR 039, "Later (2026-12-07, each phase alone)"). `queue`: a
 * postgres.js connection to the app's database. Returns the ms it waited.
 */
export async function messagesSettled(queue) {
  const started = Date.now();
  for (;;) {
    const [{ due }] = await queue`select count(*)::int as due from member_message
      where status in ('queued', 'sending') and due_at <= now()`;
    if (due === 0) return Date.now() - started;
    if (Date.now() - started > 120_000) throw new Error(`the app left ${due} member messages undelivered for 2 min`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * VACUUM of the database `sql` is connected to, between two measured phases (not timed). The shared PostgreSQL
 * of these machines runs with autovacuum off (conf.d/90-ci.conf), so without it the dead versions of every
 * update (the hot summary rows, member_last_store, member_message's claims) piled up for a whole run and each phase
 * paid more than the one before: until 2026-12-07 bench:pos's SQL fell round by round (906 → 783 tps) and the growth
 * mix's ratio climbed (1.04 → 1.32) for that reason alone. A production server vacuums as it goes (autovacuum on,
 * docs/operations.md); pgbench's TPC-B runs with -n on the same terms (its tables vacuumed here too).
 */
export async function vacuumed(sql) {
  await sql.unsafe("vacuum");
}
