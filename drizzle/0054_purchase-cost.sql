-- Custom SQL migration file, put your code below! ---- hand-written below
-- Issue 36 / ADR 039 "Later (2026-12-07)": the dashboard's summary triggers (ADR 025) do the same work in fewer
-- trigger calls and statements.
-- 1. The summaries' advisory lock (ADR 025's addendum, migration 0024) is taken by each report_* function before
--    its first summary write, instead of by a separate deferred trigger (a_report_serialize) fired before every
--    report_* event: the same promise (one commit at a time updates the summaries, so no lock cycle can form; a
--    commit that writes no summary takes no lock) at half the deferred trigger calls (a purchase: 4 instead of 8).
--    report_compact's caller (compactReports) takes the same lock, unchanged.
-- 2. The hot paths write their summary rows with their own statement instead of a nested call of a report_bump_*
--    function (one plpgsql call and one SELECT fewer per figure), and report_on_purchase writes the member × store
--    rows (the store and '*') in one statement and the member × month rows with their cohort in one more (3
--    statements where there were 7). Same rows, same figures: report_rebuild() still recomputes them
--    (app/domain/reports/purchase-cost.integration.test.ts).
CREATE OR REPLACE FUNCTION "report_on_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(2025112501);
  PERFORM report_bump_day_store(report_day(NEW.created_at), '', report_shard(NEW.id),
    p_signups_phone => (NEW.signup_method <> 'line')::int, p_signups_line => (NEW.signup_method = 'line')::int);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_on_purchase"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d date := report_day(NEW.purchased_at);
  mon date := report_month(NEW.purchased_at);
  sh smallint := report_shard(NEW.member_id);
BEGIN
  PERFORM pg_advisory_xact_lock(2025112501);
  INSERT INTO report_day_store AS r (day, store_id, shard, purchases, sales)
    VALUES (d, NEW.store_id, sh, 1, NEW.net_amount)
    ON CONFLICT (day, store_id, shard) DO UPDATE SET purchases = r.purchases + 1, sales = r.sales + excluded.sales;
  -- The member's last purchase day at the store and at any store ('*').
  INSERT INTO report_member_store AS r (member_id, store_id, last_day)
    VALUES (NEW.member_id, NEW.store_id, d), (NEW.member_id, '*', d)
    ON CONFLICT (member_id, store_id) DO UPDATE SET last_day = excluded.last_day WHERE r.last_day < excluded.last_day;
  -- The member's first purchase of the month at the store and at any store: +1 in its sign-up cohort.
  WITH added AS (
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
CREATE OR REPLACE FUNCTION "report_on_refund"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
BEGIN
  PERFORM pg_advisory_xact_lock(2025112501);
  SELECT store_id, member_id INTO p FROM purchase WHERE id = NEW.purchase_id;
  PERFORM report_bump_day_store(report_day(NEW.created_at), p.store_id, report_shard(p.member_id), p_refunds => NEW.amount);
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- The kinds and signs of 0033's function, in one statement (a kind not listed writes no summary and takes no lock).
CREATE OR REPLACE FUNCTION "report_on_point_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := NEW.kind;
  a bigint := NEW.amount;
BEGIN
  IF k NOT IN ('earn-purchase', 'welcome', 'birthday', 'adjust', 'refund-reversal', 'redeem', 'spend-purchase',
      'coupon-cancel', 'spend-return', 'expire') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(2025112501);
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
BEGIN
  PERFORM pg_advisory_xact_lock(2025112501);
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
BEGIN
  PERFORM pg_advisory_xact_lock(2025112501);
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
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_on_tier_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(2025112501);
  INSERT INTO report_tier_move AS r (day, from_tier, to_tier, shard, moves)
    VALUES (report_day(NEW.created_at), NEW.from_tier, NEW.to_tier, report_shard(NEW.member_id), 1)
    ON CONFLICT (day, from_tier, to_tier, shard) DO UPDATE SET moves = r.moves + 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_on_coupon"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s text;
BEGIN
  PERFORM pg_advisory_xact_lock(2025112501);
  IF TG_OP = 'INSERT' THEN
    SELECT coalesce(store_id, '') INTO s FROM point_entry WHERE id = NEW.redeem_entry_id;
    PERFORM report_bump_reward(report_day(NEW.issued_at), NEW.reward_id, coalesce(s, ''), report_shard(NEW.member_id),
      1, 0, 0, NEW.points_cost);
  ELSIF OLD.status <> 'used' AND NEW.status = 'used' THEN
    PERFORM report_bump_reward(report_day(coalesce(NEW.used_at, now())), NEW.reward_id, coalesce(NEW.used_store_id, ''),
      report_shard(NEW.member_id), 0, 1, 0, 0);
  ELSIF OLD.status <> 'cancelled' AND NEW.status = 'cancelled' THEN
    PERFORM report_bump_reward(report_day(coalesce(NEW.cancelled_at, now())), NEW.reward_id, '',
      report_shard(NEW.member_id), 0, 0, 1, 0);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "member";--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "purchase";--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "purchase_refund";--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "point_entry";--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "loyalty_account";--> statement-breakpoint
DROP TRIGGER "a_report_serialize_update" ON "loyalty_account";--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "point_lot";--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "tier_change";--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "coupon";--> statement-breakpoint
DROP FUNCTION "report_serialize"();
--> statement-breakpoint
-- 3. webhook_wanted (migration 0046), asked by every webhook source trigger (a purchase asks it twice or more), as
--    plpgsql: as a SQL function whose body has a sub-select it is never inlined, so its query was parsed and planned
--    at every call (callgrind: 5–6 % of a purchase's instructions); a plpgsql function keeps its plan per session
--    (migration 0051 did the same for webhook_member). Same query, same answer.
CREATE OR REPLACE FUNCTION "webhook_wanted"(kind text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM "webhook_subscription" s WHERE s."event_type" = kind);
END
$$;
