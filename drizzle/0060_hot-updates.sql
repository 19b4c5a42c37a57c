-- Issue 36 / ADR 039 "Later (2026-12-07, HOT and summaries)": what a purchase's updates cost beyond their rows.
--
-- 1. Column lists on the row-level update triggers whose WHEN compares OLD and NEW columns. PostgreSQL reads a
--    trigger's WHEN back from its stored node text (stringToNode) once per statement that updates the table, before
--    it can say the row's change does not concern the trigger: a purchase's updates of the account (twice), the
--    member (its last store) and the purchase (its answer) parsed about 20 kB of WHEN text per purchase, 12 % of
--    its instructions. With `UPDATE OF <the columns the WHEN compares>` an UPDATE whose SET list names none of them
--    skips the trigger before its WHEN is read. Same firings: the WHEN is unchanged, and a column not in the SET
--    list cannot change (none of these tables has a BEFORE UPDATE trigger that could change it; a generated
--    column's base columns are in the lists: member.name_grams is computed from name_zh). Each trigger is
--    recreated from its own current definition, with the columns its WHEN names, so a WHEN changed by another
--    migration keeps its columns (server/update-of-triggers.integration.test.ts holds each list to its WHEN).
DO $$
DECLARE
  t record;
  def text;
  cols text;
BEGIN
  FOR t IN
    SELECT tr.oid, tr.tgname, c.relname
      FROM pg_trigger tr JOIN pg_class c ON c.oid = tr.tgrelid
     WHERE c.relnamespace = current_schema()::regnamespace
       AND (c.relname, tr.tgname) IN (
         ('loyalty_account', 'loyalty_account_cache_update'),
         ('loyalty_account', 'report_loyalty_account_update'),
         ('member', 'member_cache_update'),
         ('member', 'webhook_member_update'),
         ('purchase', 'purchase_cache_update'),
         ('point_entry', 'point_entry_cache_update'),
         ('point_lot', 'point_lot_cache_update'))
  LOOP
    def := pg_get_triggerdef(t.oid);
    CONTINUE WHEN position(' AFTER UPDATE ON ' IN def) = 0;
    SELECT string_agg(DISTINCT quote_ident(m[2]), ', ') INTO cols
      FROM regexp_matches(def, '\mold\.("?)(\w+)\1', 'g') AS m;
    CONTINUE WHEN cols IS NULL;
    EXECUTE format('DROP TRIGGER %I ON %I', t.tgname, t.relname);
    EXECUTE replace(def, ' AFTER UPDATE ON ', ' AFTER UPDATE OF ' || cols || ' ON ');
  END LOOP;
END
$$;--> statement-breakpoint
-- 2. Room for HOT updates. An update that changes no indexed column is HOT (no new index entries) only when the
--    new row version fits on the row's page. The summaries' small tables, the store chains' heads and the per-key
--    counters are updated by every purchase, the account twice, the purchase once right after its insert (its
--    answer): with the pages filled to 100 % the new version often did not fit (bench:pos --same-work, 4 clients:
--    the account's updates 57 % HOT, the day × store summary 70 %). A lower fillfactor leaves room on each page
--    for the next versions until pruning frees the old ones. It applies to pages written from now on (a VACUUM
--    FULL or CLUSTER rewrites the existing ones); the tables are small except loyalty_account (one narrow row per
--    member: 80 % costs a quarter more pages) and purchase (90 %).
ALTER TABLE "loyalty_account" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "purchase" SET (fillfactor = 90);--> statement-breakpoint
ALTER TABLE "audit_store_chain_head" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "api_rate_counter" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "report_day_store" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "report_account" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "report_lot_expiry" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "report_cohort" SET (fillfactor = 50);
--> statement-breakpoint
-- 3. The four summary functions a purchase fires at its commit (ADR 025, as migration 0054 left them), with the same
--    rows and figures in fewer executor runs:
--    - the summaries' lock (2025112501) is taken by an assignment instead of PERFORM: plpgsql evaluates a simple
--      expression without starting the executor (PERFORM runs a whole SELECT through SPI); the same
--      pg_advisory_xact_lock call, before the first summary write, so the promise is unchanged (one commit at a
--      time writes summaries; a commit that writes none takes no lock);
--    - report_on_point_entry writes a purchase's points ('earn-purchase') by an upsert of that one column (the
--      other seven deltas of the general statement are zeros; a new row's other columns default to 0 as before);
--    - report_on_purchase's three statements (day × store; member × store, the store and '*'; member × month with
--      its cohort) are one statement with data-modifying CTEs: PostgreSQL runs each to completion, so every row is
--      written as before, under the same lock.
CREATE OR REPLACE FUNCTION "report_on_purchase"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d date := report_day(NEW.purchased_at);
  mon date := report_month(NEW.purchased_at);
  sh smallint := report_shard(NEW.member_id);
  locked text;
BEGIN
  locked := pg_advisory_xact_lock(2025112501)::text;
  WITH day_store AS (
    INSERT INTO report_day_store AS r (day, store_id, shard, purchases, sales)
      VALUES (d, NEW.store_id, sh, 1, NEW.net_amount)
      ON CONFLICT (day, store_id, shard) DO UPDATE SET purchases = r.purchases + 1, sales = r.sales + excluded.sales
  ), member_store AS (
    -- The member's last purchase day at the store and at any store ('*').
    INSERT INTO report_member_store AS r (member_id, store_id, last_day)
      VALUES (NEW.member_id, NEW.store_id, d), (NEW.member_id, '*', d)
      ON CONFLICT (member_id, store_id) DO UPDATE SET last_day = excluded.last_day WHERE r.last_day < excluded.last_day
  ), added AS (
    -- The member's first purchase of the month at the store and at any store: +1 in its sign-up cohort.
    INSERT INTO report_member_month AS mm (store_id, month, member_id, signup_month)
      SELECT s.store_id, mon, NEW.member_id, report_month(mb.created_at)
        FROM member mb CROSS JOIN (VALUES (NEW.store_id), ('*')) AS s (store_id)
        WHERE mb.id = NEW.member_id
      ON CONFLICT DO NOTHING
      RETURNING mm.store_id, mm.signup_month
  )
  INSERT INTO report_cohort AS r (store_id, signup_month, month, shard, members)
    SELECT added.store_id, added.signup_month, mon, sh, 1 FROM added
    ON CONFLICT (store_id, signup_month, month, shard) DO UPDATE SET members = r.members + 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- The kinds and signs of 0054's function (a kind not listed writes no summary and takes no lock).
CREATE OR REPLACE FUNCTION "report_on_point_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := NEW.kind;
  a bigint := NEW.amount;
  locked text;
BEGIN
  IF k NOT IN ('earn-purchase', 'welcome', 'birthday', 'adjust', 'refund-reversal', 'redeem', 'spend-purchase',
      'coupon-cancel', 'spend-return', 'expire') THEN
    RETURN NULL;
  END IF;
  locked := pg_advisory_xact_lock(2025112501)::text;
  -- A purchase's points (most entries) add to one column: the other seven deltas are zeros.
  IF k = 'earn-purchase' THEN
    INSERT INTO report_day_store AS r (day, store_id, shard, points_earned)
      VALUES (report_day(NEW.created_at), coalesce(NEW.store_id, ''), report_shard(NEW.member_id), a)
      ON CONFLICT (day, store_id, shard) DO UPDATE SET points_earned = r.points_earned + excluded.points_earned;
    RETURN NULL;
  END IF;
  INSERT INTO report_day_store AS r (day, store_id, shard, points_earned, points_bonus, points_adjusted_in,
    points_adjusted_out, points_reversed, points_redeemed, points_returned, points_expired)
  VALUES (report_day(NEW.created_at), coalesce(NEW.store_id, ''), report_shard(NEW.member_id),
    CASE WHEN k = 'earn-purchase' THEN a ELSE 0 END,
    CASE WHEN k IN ('welcome', 'birthday') THEN a ELSE 0 END,
    CASE WHEN k = 'adjust' THEN greatest(a, 0) ELSE 0 END,
    CASE WHEN k = 'adjust' THEN greatest(-a, 0) ELSE 0 END,
    CASE WHEN k = 'refund-reversal' THEN -a ELSE 0 END,
    CASE WHEN k IN ('redeem', 'spend-purchase') THEN -a ELSE 0 END,
    CASE WHEN k IN ('coupon-cancel', 'spend-return') THEN a ELSE 0 END,
    CASE WHEN k = 'expire' THEN -a ELSE 0 END)
  ON CONFLICT (day, store_id, shard) DO UPDATE SET
    points_earned = r.points_earned + excluded.points_earned, points_bonus = r.points_bonus + excluded.points_bonus,
    points_adjusted_in = r.points_adjusted_in + excluded.points_adjusted_in,
    points_adjusted_out = r.points_adjusted_out + excluded.points_adjusted_out,
    points_reversed = r.points_reversed + excluded.points_reversed,
    points_redeemed = r.points_redeemed + excluded.points_redeemed,
    points_returned = r.points_returned + excluded.points_returned,
    points_expired = r.points_expired + excluded.points_expired;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_on_account"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  locked text;
BEGIN
  locked := pg_advisory_xact_lock(2025112501)::text;
  IF TG_OP = 'UPDATE' AND OLD.tier = NEW.tier THEN
    IF OLD.balance <> NEW.balance THEN
      INSERT INTO report_account AS r (tier, shard, members, points)
        VALUES (NEW.tier, report_shard64(NEW.member_id), 0, NEW.balance - OLD.balance)
        ON CONFLICT (tier, shard) DO UPDATE SET points = r.points + excluded.points;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM report_bump_account(OLD.tier, report_shard64(OLD.member_id), -1, -OLD.balance);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM report_bump_account(NEW.tier, report_shard64(NEW.member_id), 1, NEW.balance);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_on_lot"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  locked text;
BEGIN
  locked := pg_advisory_xact_lock(2025112501)::text;
  IF TG_OP = 'UPDATE' AND OLD.expires_at = NEW.expires_at THEN
    IF OLD.remaining <> NEW.remaining THEN
      INSERT INTO report_lot_expiry AS r (day, shard, points)
        VALUES (report_day(NEW.expires_at), report_shard64(NEW.member_id), NEW.remaining - OLD.remaining)
        ON CONFLICT (day, shard) DO UPDATE SET points = r.points + excluded.points;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_lot_expiry AS r (day, shard, points)
      VALUES (report_day(NEW.expires_at), report_shard64(NEW.member_id), NEW.remaining)
      ON CONFLICT (day, shard) DO UPDATE SET points = r.points + excluded.points;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM report_bump_lot(report_day(OLD.expires_at), report_shard64(OLD.member_id), -OLD.remaining);
  END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM report_bump_lot(report_day(NEW.expires_at), report_shard64(NEW.member_id), NEW.remaining);
  END IF;
  RETURN NULL;
END;
$$;
