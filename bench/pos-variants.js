// The parts of the same-work purchase (bench/pos-same-work.js) that bench/pos-cpu.js and bench/pos-instructions.js
// switch off one at a time (`--variants`), and the summary triggers as they were before migration 0054.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ANSWER_UPDATE_BEFORE, INSERT_LINE, INSERT_LINE_BEFORE, SPEND_LINE } from "./pos-same-work.js";

export const migrations = path.join(import.meta.dirname, "..", "drizzle");

/** Parts of the purchase to switch off, one at a time: [name, SQL to switch off, SQL to switch back on]. */
export function variants(script) {
  const toggle = (triggers) => [
    triggers.map(([table, name]) => `alter table ${table} disable trigger ${name}`).join(";"),
    triggers.map(([table, name]) => `alter table ${table} enable trigger ${name}`).join(";"),
  ];
  const withoutLine = (pattern) =>
    script
      .split("\n")
      .filter((line) => !pattern.test(line))
      .join("\n");
  const lastStoreOnMember = script.replace(
    /^(with newest as \(.*?\)) insert into member_last_store .*$/m,
    (_, newest) =>
      `${newest} update member set last_purchase_store_id = :store_id::text where id in (select member_id from newest) and last_purchase_store_id is distinct from :store_id::text;`,
  );
  const summaries = [
    ["purchase", "report_purchase"],
    ["point_entry", "report_point_entry"],
    ["loyalty_account", "report_loyalty_account"],
    ["loyalty_account", "report_loyalty_account_update"],
    ["point_lot", "report_point_lot"],
  ];
  const cache = ["loyalty_account", "point_entry", "point_lot", "purchase", "member"].flatMap((t) =>
    ["insert", "update", "delete"].map((e) => [t, `${t}_cache_${e}`]),
  );
  return [
    ["the cache triggers as before migration 0057 (statement-level, every update)", before0057(), after0057()],
    ["the summary triggers as before migration 0054 (a_report_serialize; nested bumps)", before0054(), after0054()],
    // Migration 0060 (ADR 039 "Later (2026-12-07, HOT and summaries)"): the update triggers' column lists, and the
    // four summary functions a purchase fires (the lock by assignment, the purchase's one statement).
    ["the update triggers without column lists (before migration 0060)", withoutColumnLists0060, columnLists0060()],
    ["the summary functions as before migration 0060", summaries0054(), summaries0060()],
    [
      "webhook_wanted as a SQL function (before migration 0054)",
      `CREATE OR REPLACE FUNCTION "webhook_wanted"(kind text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "webhook_subscription" WHERE "event_type" = kind)
$$;`,
      `CREATE OR REPLACE FUNCTION "webhook_wanted"(kind text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM "webhook_subscription" s WHERE s."event_type" = kind);
END
$$;`,
    ],
    // The webhook outbox (ADR 054 "Later (2026-12-07)", migration 0059): an endpoint taking purchase.created writes
    // one outbox row per purchase; the same with the triggers and foreign key as before 0059; nothing subscribed with
    // the triggers as before 0059.
    ["an endpoint taking purchase.created (the outbox row)", endpointOn, endpointOff],
    [
      "an endpoint taking purchase.created, the outbox as before 0059",
      endpointOn + outboxBefore0059(),
      outboxAfter0059() + endpointOff,
    ],
    ["no endpoint, the outbox triggers as before 0059", outboxBefore0059(), outboxAfter0059()],
    ["trigger report_purchase off", ...toggle([summaries[0]])],
    ["trigger report_point_entry off", ...toggle([summaries[1]])],
    ["triggers report_loyalty_account(_update) off", ...toggle([summaries[2], summaries[3]])],
    ["trigger report_point_lot off", ...toggle([summaries[4]])],
    ["every summary trigger off (report_*)", ...toggle(summaries)],
    ["the cache-invalidation triggers off", ...toggle(cache)],
    ["no receipt message", null, null, withoutLine(/^insert into member_message/)],
    // What PostgreSQL pays for postgres.js's protocol (ADR 039 "Later (2026-12-07, night)"): postgres.js ends every
    // statement with its own Sync, so each is answered and flushed alone, and the key's counter before BEGIN commits
    // alone; pgbench's pipelines send one Sync per pipeline. Without the pipelines pgbench does the same.
    [
      "every statement synced alone (no pipelines), as postgres.js sends them",
      null,
      null,
      withoutLine(/^\\(start|end)pipeline$/),
    ],
    // ADR 039 "Later (2026-12-07, the answer)": what the receipt message's 0.29 M is made of.
    [
      "receipt message: member_message_campaign_idx only for campaign messages",
      `DROP INDEX "member_message_campaign_idx"; CREATE INDEX "member_message_campaign_idx" ON "member_message" USING btree ("campaign_id","status") WHERE "member_message"."campaign_id" IS NOT NULL;`,
      `DROP INDEX "member_message_campaign_idx"; CREATE INDEX "member_message_campaign_idx" ON "member_message" USING btree ("campaign_id","status");`,
    ],
    [
      "receipt message: in the points' statement (a CTE)",
      null,
      null,
      withoutLine(/^insert into member_message/).replace(
        /^(with entry as \(.*), lot as \((.*)\) update loyalty_account (.*)$/m,
        (_, entry, lot, rest) =>
          `${entry}, lot as (${lot}), msg as (insert into member_message (id, member_id, occasion, kind, purpose, data, due_at, created_at, updated_at) values (default, :member_id::uuid, 'receipt:' || :purchase_id::text, 'receipt', 'service', jsonb_build_object('amount', :amount::int, 'points', :points::int, 'storeId', :store_id::text), now(), now(), now()) on conflict (member_id, occasion) do nothing) update loyalty_account ${rest}`,
      ),
    ],
    [
      "receipt message: no foreign key to member",
      `ALTER TABLE "member_message" DROP CONSTRAINT "member_message_member_id_member_id_fk";`,
      `ALTER TABLE "member_message" ADD CONSTRAINT "member_message_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;`,
    ],
    [
      "receipt message: without ON CONFLICT",
      null,
      null,
      script.replace(
        /^(insert into member_message .*) on conflict \(member_id, occasion\) do nothing returning id;$/m,
        "$1 returning id;",
      ),
    ],
    ["receipt message: no member_message_notify trigger", ...toggle([["member_message", "member_message_notify"]])],
    [
      "receipt message: no member_message_member_idx",
      `DROP INDEX "member_message_member_idx";`,
      `CREATE INDEX "member_message_member_idx" ON "member_message" USING btree ("member_id","created_at");`,
    ],
    ["no audit row (nor its chain head)", null, null, withoutLine(/audit_store_chain_head/)],
    // ADR 039 "Later (2026-12-07, the answer)": the script as it was before, the spend read by the insert and the
    // answer written by an update of the row just inserted (a second row version).
    [
      "the answer by an update after the insert, the spend in the insert (before 2026-12-07)",
      null,
      null,
      script
        .replace(`${SPEND_LINE}\n`, "")
        .replace(INSERT_LINE, INSERT_LINE_BEFORE)
        .replace(/^(insert into member_message .*)$/m, (line) => `${line}\n${ANSWER_UPDATE_BEFORE}`),
    ],
    [
      "no answer in the insert",
      null,
      null,
      script
        .replace(/, answer\) values/, ") values")
        .replace(/, \('\{"purchaseId".*?\)::jsonb\) on conflict/, ") on conflict"),
    ],
    ["no last purchase (the account's second update and the member's)", null, null, withoutLine(/^with newest as/)],
    [
      "the last purchase's time in the points' update of the account, its store by itself",
      null,
      null,
      script
        .replace(
          /^(with entry as \(.*) update loyalty_account set balance = balance \+ :points, negative_since = null, updated_at = now\(\) where (.*)$/m,
          (_, head, where) =>
            `${head} update loyalty_account set balance = balance + :points, negative_since = null, updated_at = now(), last_purchase_at = now() where ${where}`,
        )
        .replace(/^with newest as .*$/m, `${lastStoreUpsert("m.id = :member_id::uuid")};`),
    ],
    // ADR 039 "Later (2026-12-07, the member's last store)", migration 0062: the store on the member row as before,
    // indexed for the console's filter (a store change was a non-HOT update of the wide row, an entry in each of
    // its indexes), and the same without the index (the lower bound 0062 was measured against).
    [
      "the member's last store on the member row, indexed (before migration 0062)",
      lastStoreColumn + lastStoreColumnIndex,
      lastStoreColumnDrop,
      lastStoreOnMember,
    ],
    ["the member's last store on the member row, not indexed", lastStoreColumn, lastStoreColumnDrop, lastStoreOnMember],
    [
      "the last purchase in the points' statement (one update of the account, the member's in it)",
      null,
      null,
      withoutLine(/^with newest as/).replace(
        /^(with entry as \(.*), lot as \((.*)\) update loyalty_account set balance = balance \+ :points, negative_since = null, updated_at = now\(\) where member_id = :member_id::uuid and exists \(select 1 from entry\);$/m,
        (_, entry, lot) =>
          `${entry}, lot as (${lot}), store as (${lastStoreUpsert("m.id = :member_id::uuid and exists (select 1 from entry)")}) update loyalty_account set balance = balance + :points, negative_since = null, updated_at = now(), last_purchase_at = now() where member_id = :member_id::uuid and exists (select 1 from entry);`,
      ),
    ],
  ];
}

/** The last store's upsert (bench/pos-same-work.js) for the members `where` picks. */
const lastStoreUpsert = (where) =>
  `insert into member_last_store (member_id, store_id, member_created_at) select m.id, :store_id::text, m.created_at from member m where ${where} on conflict (member_id) do update set store_id = excluded.store_id where member_last_store.store_id is distinct from excluded.store_id`;

/** Before migration 0062: member.last_purchase_store_id (from member_last_store), its index, and its update. */
const lastStoreColumn = `ALTER TABLE "member" ADD COLUMN "last_purchase_store_id" text;
  UPDATE "member" m SET "last_purchase_store_id" = s."store_id" FROM "member_last_store" s WHERE s."member_id" = m."id";`;
const lastStoreColumnIndex = `CREATE INDEX "member_last_store_idx" ON "member" USING btree ("last_purchase_store_id","created_at","id") WHERE "member"."last_purchase_store_id" is not null;`;
const lastStoreColumnDrop = `ALTER TABLE "member" DROP COLUMN "last_purchase_store_id";`;

const endpointId = "00000000-0000-4000-8000-0000000000e1";
const endpointOn = `insert into webhook_endpoint (id, url, events, secret)
  values ('${endpointId}', 'http://localhost:9/hook', '{purchase.created}', 'c2VjcmV0c2VjcmV0c2VjcmV0');
insert into webhook_subscription (event_type, endpoint_id) values ('purchase.created', '${endpointId}');`;
const endpointOff = `;delete from webhook_subscription where endpoint_id = '${endpointId}';
delete from webhook_endpoint where id = '${endpointId}';`;

/** The outbox's functions as 0046 wrote them, and its foreign key (migration 0059 replaced both). */
function outboxBefore0059() {
  const fns = ["webhook_on_purchase", "webhook_on_point_entry", "webhook_enqueue"].map((n) =>
    new RegExp(`CREATE FUNCTION "${n}"\\([\\s\\S]*?\\$\\$;`)
      .exec(migration("0046_webhooks"))[0]
      .replace(/^CREATE FUNCTION/, "CREATE OR REPLACE FUNCTION"),
  );
  return `;${fns.join("\n")}
    ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_endpoint_id_webhook_endpoint_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoint"("id") ON DELETE cascade ON UPDATE no action;`;
}

function outboxAfter0059() {
  const text = migration("0059_outbox-row");
  const fns = text.match(/CREATE OR REPLACE FUNCTION[\s\S]*?\$\$;/g);
  return `ALTER TABLE "webhook_delivery" DROP CONSTRAINT "webhook_delivery_endpoint_id_webhook_endpoint_id_fk";
    ${fns.join("\n")}`;
}

const migration = (name) =>
  readFileSync(path.join(migrations, `${name}.sql`), "utf8").replaceAll("--> statement-breakpoint", "");

/** The cache-invalidation triggers migration 0057 replaced (drizzle/0019's statement-level ones), and 0057's. */
const CACHE_TRIGGERS_0057 = [
  ...["loyalty_account", "purchase", "point_entry", "point_lot", "member"].map((t) => [t, `${t}_cache_update`]),
  ...["purchase", "point_entry", "point_lot"].map((t) => [t, `${t}_cache_insert`]),
];
const dropCacheTriggers0057 = () =>
  CACHE_TRIGGERS_0057.map(([table, name]) => `DROP TRIGGER "${name}" ON "${table}";`).join("\n");

function before0057() {
  const old = migration("0019_cache_invalidation")
    .split("\n")
    .filter((line) => CACHE_TRIGGERS_0057.some(([, name]) => line.startsWith(`CREATE TRIGGER "${name}" `)));
  if (old.length !== CACHE_TRIGGERS_0057.length) throw new Error("drizzle/0019: the cache triggers not all found");
  return `${dropCacheTriggers0057()}\n${old.join("\n")}`;
}

function after0057() {
  const created = migration("0057_cache-row-triggers").match(/^CREATE TRIGGER [\s\S]*?;$/gm) ?? [];
  if (created.length !== CACHE_TRIGGERS_0057.length) throw new Error("drizzle/0057: the cache triggers not all found");
  return `${dropCacheTriggers0057()}\n${created.join("\n")}`;
}

/** 0060's triggers as they were: `AFTER UPDATE OF <columns> ON` back to `AFTER UPDATE ON`. */
const withoutColumnLists0060 = `DO $$
DECLARE t record; def text;
BEGIN
  FOR t IN SELECT tr.oid, tr.tgname, c.relname FROM pg_trigger tr JOIN pg_class c ON c.oid = tr.tgrelid
     WHERE (c.relname, tr.tgname) IN (('loyalty_account', 'loyalty_account_cache_update'),
       ('loyalty_account', 'report_loyalty_account_update'), ('member', 'member_cache_update'),
       ('member', 'webhook_member_update'), ('purchase', 'purchase_cache_update'),
       ('point_entry', 'point_entry_cache_update'), ('point_lot', 'point_lot_cache_update'))
  LOOP
    def := pg_get_triggerdef(t.oid);
    EXECUTE format('DROP TRIGGER %I ON %I', t.tgname, t.relname);
    EXECUTE regexp_replace(def, ' AFTER UPDATE OF .*? ON ', ' AFTER UPDATE ON ');
  END LOOP;
END
$$;`;

/** 0060's first statement: the column lists put back. */
const columnLists0060 = () => migration("0060_hot-updates").match(/^DO \$\$[\s\S]*?^\$\$;/m)[0];

const summaryFunctions0060 = ["report_on_purchase", "report_on_point_entry", "report_on_account", "report_on_lot"];
const functionOf = (file, name) =>
  new RegExp(`CREATE (?:OR REPLACE )?FUNCTION "${name}"\\(\\)[\\s\\S]*?\\$\\$;`)
    .exec(migration(file))[0]
    .replace(/^CREATE (OR REPLACE )?FUNCTION/, "CREATE OR REPLACE FUNCTION");
const summaries0054 = () => summaryFunctions0060.map((n) => functionOf("0054_purchase-cost", n)).join("\n");
const summaries0060 = () => summaryFunctions0060.map((n) => functionOf("0060_hot-updates", n)).join("\n");

/** The statements of drizzle/0054 (what `after0054` puts back) and what they replaced (from 0020, 0024, 0033, 0040). */
function after0054() {
  return migration("0054_purchase-cost");
}

function before0054() {
  const fn = (file, name) =>
    new RegExp(`CREATE (?:OR REPLACE )?FUNCTION "${name}"\\(\\)[\\s\\S]*?\\$\\$;`)
      .exec(migration(file))[0]
      .replace(/^CREATE (OR REPLACE )?FUNCTION/, "CREATE OR REPLACE FUNCTION");
  const functions = [
    ...["report_on_member", "report_on_purchase", "report_on_refund", "report_on_account", "report_on_lot"].map((n) =>
      fn("0020_dashboard_summaries", n),
    ),
    fn("0020_dashboard_summaries", "report_on_tier_change"),
    fn("0020_dashboard_summaries", "report_on_coupon"),
    fn("0033_points", "report_on_point_entry"),
    fn("0024_report_serialize", "report_serialize"),
  ];
  const serialize = (table, events) =>
    `CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER ${events} ON "${table}" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();`;
  return `${functions.join("\n")}
    ${serialize("member", "INSERT")}
    ${serialize("purchase", "INSERT")}
    ${serialize("purchase_refund", "INSERT")}
    ${serialize("point_entry", "INSERT")}
    ${serialize("loyalty_account", "INSERT OR DELETE")}
    ${serialize("point_lot", "INSERT OR UPDATE OR DELETE")}
    ${serialize("tier_change", "INSERT")}
    ${serialize("coupon", "INSERT OR UPDATE")}
    CREATE CONSTRAINT TRIGGER "a_report_serialize_update" AFTER UPDATE ON "loyalty_account" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (OLD.tier IS DISTINCT FROM NEW.tier OR OLD.balance IS DISTINCT FROM NEW.balance OR OLD.member_id IS DISTINCT FROM NEW.member_id)
      EXECUTE FUNCTION "report_serialize"();`;
}
