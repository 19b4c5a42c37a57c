// The purchase's own SQL as pgbench scripts, for `npm run bench:pos -- --same-work`: one purchase of the app
// (server/api/v1/purchases.ts through the idempotency middleware, counted in bench/pos-statements.js) written out
// statement for statement, so pgbench can send exactly that work to the app's database with no app in between.
// The ratio of the app's purchases/s to this script's tps is what the app adds to its SQL.
//
// Statement for statement and, as far as pgbench allows, round trip for round trip (ADR 039): what the app sends
// together goes in one pipeline here too (\startpipeline … \endpipeline): the key's per-minute counter (outside the
// transaction, as the app), BEGIN, the read of the Idempotency-Key's earlier answer and the member by number; the
// account's lock with the member's flag, the member's 12-month spend (behind the lock) and the rules; the purchase
// (with its Idempotency-Key, request hash and answer, ADR 039 "Later (2026-12-07, the answer)"; its id made by the
// app, here from the receipt); then the points (entry, lot and balance in one statement), the last purchase, the
// receipt message, the store chain's head made if missing (on conflict do nothing), the audit row in the store's
// chain with its head, and COMMIT. (bench/pos-variants.js keeps the script as it was before, the answer written by
// an update after the insert and the spend read by the insert.)
// The app's values computed in JavaScript are replaced by SQL that gives the same rows. The app's key cache, its
// validation and its tier changes (rare) are not here. Points are 1 per NT$100 (the demo rules' basic tier).
//
// pgbench refuses \gset inside a pipeline, so the member's id is read once more before the first pipeline (the
// app reads it in its first round trip, with BEGIN), in one statement with the store key's lookup below: one
// statement and one round trip more on pgbench's side (two of each before 2026-12-07, when the two lookups were
// separate statements).
//
// The bench's members get their loyalty account before the run (the app makes it at a member's first purchase), so
// every purchase updates an existing account, as the app's purchases do after their first.
//
// The store key is one of the bench's 100 at random, read from a small table (bench_key) by one primary-key lookup
// per purchase, joined to the member's lookup above: work the app does not do (it keeps its keys in memory), so
// pgbench's side carries a little more work than the app's.
import { writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { POS_MEMBERS } from "./pos-data.js";

/**
 * Writes the script into `dir` and the table it picks store keys from (bench_key: k → the key's id and store) into
 * the app's database; returns pgbench's `-f` arguments.
 */
export async function writeSameWorkScripts(databaseUrl, dir) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`create table bench_key as select (row_number() over (order by id) - 1)::int as k, id, store_id from api_key`;
    await sql`alter table bench_key add primary key (k)`;
    // Every member has its loyalty account, as after its first purchase (lockAccountOf creates it then). Without
    // it the script's account lock found no row, so the points' and the last purchase's updates of the account and
    // the member's update changed nothing, and their triggers never fired: until 2026-12-07 the script left out
    // that part of a purchase (ADR 039, "Later (2026-12-07, HOT and summaries)").
    await sql`insert into loyalty_account (member_id) select id from member on conflict do nothing`;
    const [{ count }] = await sql`select count(*)::int as count from bench_key`;
    const file = path.join(dir, "purchase.sql");
    writeFileSync(file, purchaseScript(count));
    return ["-f", file];
  } finally {
    await sql.end();
  }
}

const key = ":key_id::uuid";
const store = ":store_id::text";

/** The member's 12-month spend, read behind the account's lock (the app's tierSpendSince). */
export const SPEND_LINE =
  "select coalesce(sum(p.net_amount - p.refunded_amount), 0) as spend from purchase p where p.member_id = :member_id::uuid and p.purchased_at >= now() - interval '1 year';";

/** The purchase with its answer (the app sends the answer's JSON text, here built from the same values). */
export const INSERT_LINE = `insert into purchase (id, store_id, receipt_number, member_id, net_amount, purchased_at, refunded_amount, points_earned, points_reversed, staff_user_id, api_key_id, created_at, idempotency_key, request_hash, answer) values (md5(:client_id::text || '-' || :r::text)::uuid, ${store}, 'PGB-' || :client_id::text || '-' || :r::text, :member_id::uuid, :amount, now(), default, :points, default, null, ${key}, now(), 'pgb-' || :client_id::text || '-' || :r::text, md5(:r::text) || md5(:client_id::text), ('{"purchaseId":"' || md5(:client_id::text || '-' || :r::text)::uuid::text || '","receiptNumber":"PGB-' || :client_id::text || '-' || :r::text || '","pointsEarned":' || :points::text || ',"pointsSpent":0,"pointsSpentValue":0,"amountPaid":' || :amount::text || ',"balance":' || :points::text || ',"tier":"basic"}')::jsonb) on conflict (store_id, receipt_number) do nothing returning id as purchase_id \\gset`;

/** The same two statements before 2026-12-07: the insert read the spend, an update in the last batch wrote the answer. */
export const INSERT_LINE_BEFORE = `insert into purchase (id, store_id, receipt_number, member_id, net_amount, purchased_at, refunded_amount, points_earned, points_reversed, staff_user_id, api_key_id, created_at, idempotency_key, request_hash) values (default, ${store}, 'PGB-' || :client_id::text || '-' || :r::text, :member_id::uuid, :amount, now(), default, :points, default, null, ${key}, now(), 'pgb-' || :client_id::text || '-' || :r::text, md5(:r::text) || md5(:client_id::text)) on conflict (store_id, receipt_number) do nothing returning id as purchase_id, (select coalesce(sum(p.net_amount - p.refunded_amount), 0) from purchase p where p.member_id = :member_id::uuid and p.purchased_at >= now() - interval '1 year' and p.purchased_at <= now()) as spend \\gset`;
export const ANSWER_UPDATE_BEFORE =
  "update purchase set answer = jsonb_build_object('purchaseId', :purchase_id::text, 'pointsEarned', :points::int, 'receiptNumber', 'PGB-' || :client_id::text || '-' || :r::text) where id = :purchase_id::uuid;";

export function purchaseScript(keyCount) {
  // pgbench substitutes :name only outside quotes; every statement is one line (a script line ends a statement
  // unless it ends in a backslash) and prepared (-M prepared), as the app's.
  return `\\set k random(0, ${keyCount - 1})
\\set m random(0, ${POS_MEMBERS - 1})
\\set amount random(100, 20099)
\\set r random(1, 1000000000000)
\\set points :amount / 100
select bk.id as key_id, bk.store_id, m.id as member_id from bench_key bk, member m where bk.k = :k and m.member_number = 'HL' || (30000000 + :m)::text \\gset
\\startpipeline
insert into api_rate_counter (api_key_id, window_start, count) values (${key}, date_trunc('minute', now()), 1) on conflict (api_key_id, window_start) do update set count = api_rate_counter.count + 1 returning count;
begin;
select key from api_idempotency where api_key_id = ${key} and key = 'pgb-' || :client_id::text || '-' || :r::text;
select id, disabled from member where member_number = 'HL' || (30000000 + :m)::text;
\\endpipeline
\\startpipeline
select la.member_id, la.balance, la.negative_since, la.tier, la.tier_since, la.last_downgrade_at, la.last_purchase_at, la.updated_at, m.disabled from loyalty_account la join member m on m.id = la.member_id where la.member_id = :member_id::uuid for update of la;
${SPEND_LINE}
select * from loyalty_rules where effective_from <= now() order by effective_from desc, id desc limit 1;
\\endpipeline
${INSERT_LINE}
\\startpipeline
with entry as (insert into point_entry (id, member_id, kind, amount, lot_expires_at, store_id, receipt_number, staff_user_id, api_key_id, purchase_id, coupon_id, reason, idempotency_key, created_at) values (gen_random_uuid(), :member_id::uuid, 'earn-purchase', :points, date_trunc('year', now()) + interval '2 years' - interval '8 hours', ${store}, 'PGB-' || :client_id::text || '-' || :r::text, null, ${key}, :purchase_id::uuid, null, null, 'purchase:' || :purchase_id::text, now()) returning id), lot as (insert into point_lot (entry_id, member_id, remaining, expires_at) select id, :member_id::uuid, :points, date_trunc('year', now()) + interval '2 years' - interval '8 hours' from entry) update loyalty_account set balance = balance + :points, negative_since = null, updated_at = now() where member_id = :member_id::uuid and exists (select 1 from entry);
with newest as (update loyalty_account set last_purchase_at = now() where member_id = :member_id::uuid and (last_purchase_at is null or last_purchase_at <= now()) returning member_id) insert into member_last_store (member_id, store_id, member_created_at) select m.id, ${store}, m.created_at from member m where m.id in (select member_id from newest) on conflict (member_id) do update set store_id = excluded.store_id where member_last_store.store_id is distinct from excluded.store_id;
insert into member_message (id, member_id, occasion, kind, purpose, data, due_at, created_at, updated_at) values (default, :member_id::uuid, 'receipt:' || :purchase_id::text, 'receipt', 'service', jsonb_build_object('amount', :amount::int, 'points', :points::int, 'storeId', ${store}::text), now(), now(), now()) on conflict (member_id, occasion) do nothing returning id;
insert into audit_store_chain_head (store_id, seq, hash) values (${store}, 0, repeat('0', 64)) on conflict do nothing;
with head as (select seq + 1 as seq, hash as prev_hash from audit_store_chain_head where store_id = ${store} for update), hashed as (select seq, prev_hash, encode(sha256(convert_to('{"action":"purchase.recorded","chain":"' || ${store} || '","prevHash":"' || prev_hash || '","seq":' || seq::text || ',"targetId":"' || :purchase_id::text || '"}', 'UTF8')), 'hex') as hash from head), appended as (insert into audit_log (chain, seq, id, occurred_at, actor_type, actor_user_id, actor_role, api_key_id, store_id, action, target_type, target_id, changes, ip, user_agent, request_id, prev_hash, hash) select ${store}, seq, gen_random_uuid(), now(), 'api_key', null, null, ${key}, ${store}, 'purchase.recorded', 'purchase', :purchase_id::text, jsonb_build_object('netAmount', jsonb_build_object('after', :amount::int, 'before', null::int), 'pointsEarned', jsonb_build_object('after', :points::int, 'before', null::int)), '127.0.0.1', 'pgbench', gen_random_uuid()::text, prev_hash, hash from hashed returning seq, prev_hash, hash, pos) update audit_store_chain_head set seq = appended.seq, hash = appended.hash from appended where audit_store_chain_head.store_id = ${store} returning appended.seq, appended.prev_hash, appended.hash, appended.pos;
commit;
\\endpipeline
`;
}
