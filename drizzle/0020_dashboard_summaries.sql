CREATE TABLE "report_account" (
	"tier" text NOT NULL,
	"shard" smallint NOT NULL,
	"members" bigint DEFAULT 0 NOT NULL,
	"points" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_account_tier_shard_pk" PRIMARY KEY("tier","shard")
);
--> statement-breakpoint
CREATE TABLE "report_cohort" (
	"store_id" text NOT NULL,
	"signup_month" date NOT NULL,
	"month" date NOT NULL,
	"shard" smallint NOT NULL,
	"members" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_cohort_store_id_signup_month_month_shard_pk" PRIMARY KEY("store_id","signup_month","month","shard")
);
--> statement-breakpoint
CREATE TABLE "report_day_store" (
	"day" date NOT NULL,
	"store_id" text NOT NULL,
	"shard" smallint NOT NULL,
	"purchases" bigint DEFAULT 0 NOT NULL,
	"sales" bigint DEFAULT 0 NOT NULL,
	"refunds" bigint DEFAULT 0 NOT NULL,
	"points_earned" bigint DEFAULT 0 NOT NULL,
	"points_bonus" bigint DEFAULT 0 NOT NULL,
	"points_adjusted_in" bigint DEFAULT 0 NOT NULL,
	"points_adjusted_out" bigint DEFAULT 0 NOT NULL,
	"points_reversed" bigint DEFAULT 0 NOT NULL,
	"points_redeemed" bigint DEFAULT 0 NOT NULL,
	"points_returned" bigint DEFAULT 0 NOT NULL,
	"points_expired" bigint DEFAULT 0 NOT NULL,
	"signups_phone" bigint DEFAULT 0 NOT NULL,
	"signups_line" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_day_store_day_store_id_shard_pk" PRIMARY KEY("day","store_id","shard")
);
--> statement-breakpoint
CREATE TABLE "report_lot_expiry" (
	"day" date NOT NULL,
	"shard" smallint NOT NULL,
	"points" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_lot_expiry_day_shard_pk" PRIMARY KEY("day","shard")
);
--> statement-breakpoint
CREATE TABLE "report_member_month" (
	"store_id" text NOT NULL,
	"month" date NOT NULL,
	"member_id" uuid NOT NULL,
	"signup_month" date NOT NULL,
	CONSTRAINT "report_member_month_store_id_month_member_id_pk" PRIMARY KEY("store_id","month","member_id")
);
--> statement-breakpoint
CREATE TABLE "report_member_store" (
	"member_id" uuid NOT NULL,
	"store_id" text NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "report_member_store_member_id_store_id_pk" PRIMARY KEY("member_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "report_reward_day" (
	"day" date NOT NULL,
	"reward_id" uuid NOT NULL,
	"store_id" text NOT NULL,
	"shard" smallint NOT NULL,
	"issued" bigint DEFAULT 0 NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	"cancelled" bigint DEFAULT 0 NOT NULL,
	"points" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_reward_day_day_reward_id_store_id_shard_pk" PRIMARY KEY("day","reward_id","store_id","shard")
);
--> statement-breakpoint
CREATE TABLE "report_tier_move" (
	"day" date NOT NULL,
	"from_tier" text NOT NULL,
	"to_tier" text NOT NULL,
	"shard" smallint NOT NULL,
	"moves" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_tier_move_day_from_tier_to_tier_shard_pk" PRIMARY KEY("day","from_tier","to_tier","shard")
);
--> statement-breakpoint
CREATE INDEX "report_day_store_store_idx" ON "report_day_store" USING btree ("store_id","day");--> statement-breakpoint
CREATE INDEX "report_member_month_cohort_idx" ON "report_member_month" USING btree ("store_id","signup_month","month","member_id");--> statement-breakpoint
CREATE INDEX "report_member_store_last_idx" ON "report_member_store" USING btree ("store_id","last_day","member_id");--> statement-breakpoint
CREATE INDEX "report_reward_day_store_idx" ON "report_reward_day" USING btree ("store_id","day");--> statement-breakpoint
-- Dashboard summaries (ADR 025): kept by deferred triggers, in the transaction that changes the base tables.
CREATE FUNCTION "report_day"(ts timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (ts AT TIME ZONE 'Asia/Taipei')::date
$$;--> statement-breakpoint
CREATE FUNCTION "report_month"(ts timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_trunc('month', ts AT TIME ZONE 'Asia/Taipei')::date
$$;--> statement-breakpoint
CREATE FUNCTION "report_shard"(id uuid) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (abs(hashtext(id::text)) % 8)::smallint
$$;--> statement-breakpoint
-- The two summaries every balance change touches (outstanding points per tier, points per expiry day: all of a
-- year's new lots expire on one day) have 64 shards, so concurrent purchases rarely wait for each other's commit.
CREATE FUNCTION "report_shard64"(id uuid) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (abs(hashtext(id::text)) % 64)::smallint
$$;--> statement-breakpoint
-- The bump functions are plpgsql, not sql: PostgreSQL caches a plpgsql statement's plan for the session, while a
-- non-inlined sql function is planned again at every call (measured: bench:dashboard, the triggers' cost).
CREATE FUNCTION "report_bump_day_store"(
  p_day date, p_store text, p_shard smallint,
  p_purchases bigint DEFAULT 0, p_sales bigint DEFAULT 0, p_refunds bigint DEFAULT 0,
  p_earned bigint DEFAULT 0, p_bonus bigint DEFAULT 0, p_adjusted_in bigint DEFAULT 0, p_adjusted_out bigint DEFAULT 0,
  p_reversed bigint DEFAULT 0, p_redeemed bigint DEFAULT 0, p_returned bigint DEFAULT 0, p_expired bigint DEFAULT 0,
  p_signups_phone bigint DEFAULT 0, p_signups_line bigint DEFAULT 0
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_day_store AS r (day, store_id, shard, purchases, sales, refunds, points_earned, points_bonus,
    points_adjusted_in, points_adjusted_out, points_reversed, points_redeemed, points_returned, points_expired,
    signups_phone, signups_line)
  VALUES (p_day, p_store, p_shard, p_purchases, p_sales, p_refunds, p_earned, p_bonus, p_adjusted_in, p_adjusted_out,
    p_reversed, p_redeemed, p_returned, p_expired, p_signups_phone, p_signups_line)
  ON CONFLICT (day, store_id, shard) DO UPDATE SET
    purchases = r.purchases + excluded.purchases, sales = r.sales + excluded.sales, refunds = r.refunds + excluded.refunds,
    points_earned = r.points_earned + excluded.points_earned, points_bonus = r.points_bonus + excluded.points_bonus,
    points_adjusted_in = r.points_adjusted_in + excluded.points_adjusted_in,
    points_adjusted_out = r.points_adjusted_out + excluded.points_adjusted_out,
    points_reversed = r.points_reversed + excluded.points_reversed,
    points_redeemed = r.points_redeemed + excluded.points_redeemed,
    points_returned = r.points_returned + excluded.points_returned,
    points_expired = r.points_expired + excluded.points_expired,
    signups_phone = r.signups_phone + excluded.signups_phone, signups_line = r.signups_line + excluded.signups_line;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_on_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_bump_day_store(report_day(NEW.created_at), '', report_shard(NEW.id),
    p_signups_phone => (NEW.signup_method <> 'line')::int, p_signups_line => (NEW.signup_method = 'line')::int);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_on_purchase"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d date := report_day(NEW.purchased_at);
  m date := report_month(NEW.purchased_at);
  sh smallint := report_shard(NEW.member_id);
  signup date;
  s text;
  added int;
BEGIN
  PERFORM report_bump_day_store(d, NEW.store_id, sh, p_purchases => 1, p_sales => NEW.net_amount);
  SELECT report_month(created_at) INTO signup FROM member WHERE id = NEW.member_id;
  FOREACH s IN ARRAY ARRAY[NEW.store_id, '*'] LOOP
    INSERT INTO report_member_store AS r (member_id, store_id, last_day) VALUES (NEW.member_id, s, d)
      ON CONFLICT (member_id, store_id) DO UPDATE SET last_day = excluded.last_day
      WHERE r.last_day < excluded.last_day;
    INSERT INTO report_member_month (store_id, month, member_id, signup_month) VALUES (s, m, NEW.member_id, signup)
      ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS added = ROW_COUNT;
    IF added > 0 THEN
      INSERT INTO report_cohort AS r (store_id, signup_month, month, shard, members) VALUES (s, signup, m, sh, 1)
        ON CONFLICT (store_id, signup_month, month, shard) DO UPDATE SET members = r.members + 1;
    END IF;
  END LOOP;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_on_refund"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
BEGIN
  SELECT store_id, member_id INTO p FROM purchase WHERE id = NEW.purchase_id;
  PERFORM report_bump_day_store(report_day(NEW.created_at), p.store_id, report_shard(p.member_id), p_refunds => NEW.amount);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_on_point_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d date := report_day(NEW.created_at);
  s text := coalesce(NEW.store_id, '');
  sh smallint := report_shard(NEW.member_id);
  a bigint := NEW.amount;
BEGIN
  CASE NEW.kind
    WHEN 'earn-purchase' THEN PERFORM report_bump_day_store(d, s, sh, p_earned => a);
    WHEN 'welcome', 'birthday' THEN PERFORM report_bump_day_store(d, s, sh, p_bonus => a);
    WHEN 'adjust' THEN PERFORM report_bump_day_store(d, s, sh, p_adjusted_in => greatest(a, 0), p_adjusted_out => greatest(-a, 0));
    WHEN 'refund-reversal' THEN PERFORM report_bump_day_store(d, s, sh, p_reversed => -a);
    WHEN 'redeem' THEN PERFORM report_bump_day_store(d, s, sh, p_redeemed => -a);
    WHEN 'coupon-cancel' THEN PERFORM report_bump_day_store(d, s, sh, p_returned => a);
    WHEN 'expire' THEN PERFORM report_bump_day_store(d, s, sh, p_expired => -a);
    ELSE NULL;
  END CASE;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_bump_account"(p_tier text, p_shard smallint, p_members bigint, p_points bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_account AS r (tier, shard, members, points) VALUES (p_tier, p_shard, p_members, p_points)
  ON CONFLICT (tier, shard) DO UPDATE SET members = r.members + excluded.members, points = r.points + excluded.points;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_on_account"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.tier = NEW.tier THEN
    IF OLD.balance <> NEW.balance THEN
      PERFORM report_bump_account(NEW.tier, report_shard64(NEW.member_id), 0, NEW.balance - OLD.balance);
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
CREATE FUNCTION "report_bump_lot"(p_day date, p_shard smallint, p_points bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_lot_expiry AS r (day, shard, points) VALUES (p_day, p_shard, p_points)
  ON CONFLICT (day, shard) DO UPDATE SET points = r.points + excluded.points;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_on_lot"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.expires_at = NEW.expires_at THEN
    IF OLD.remaining <> NEW.remaining THEN
      PERFORM report_bump_lot(report_day(NEW.expires_at), report_shard64(NEW.member_id), NEW.remaining - OLD.remaining);
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM report_bump_lot(report_day(OLD.expires_at), report_shard64(OLD.member_id), -OLD.remaining);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM report_bump_lot(report_day(NEW.expires_at), report_shard64(NEW.member_id), NEW.remaining);
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_on_tier_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_tier_move AS r (day, from_tier, to_tier, shard, moves)
    VALUES (report_day(NEW.created_at), NEW.from_tier, NEW.to_tier, report_shard(NEW.member_id), 1)
    ON CONFLICT (day, from_tier, to_tier, shard) DO UPDATE SET moves = r.moves + 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_bump_reward"(p_day date, p_reward uuid, p_store text, p_shard smallint,
  p_issued bigint, p_used bigint, p_cancelled bigint, p_points bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_reward_day AS r (day, reward_id, store_id, shard, issued, used, cancelled, points)
  VALUES (p_day, p_reward, p_store, p_shard, p_issued, p_used, p_cancelled, p_points)
  ON CONFLICT (day, reward_id, store_id, shard) DO UPDATE SET issued = r.issued + excluded.issued,
    used = r.used + excluded.used, cancelled = r.cancelled + excluded.cancelled, points = r.points + excluded.points;
END;
$$;--> statement-breakpoint
CREATE FUNCTION "report_on_coupon"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s text;
BEGIN
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
-- Deferred: the summary rows are locked only while the transaction commits, not for its whole length.
CREATE CONSTRAINT TRIGGER "report_member" AFTER INSERT ON "member" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_member"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_purchase" AFTER INSERT ON "purchase" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_purchase"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_purchase_refund" AFTER INSERT ON "purchase_refund" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_refund"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_point_entry" AFTER INSERT ON "point_entry" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_point_entry"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_loyalty_account" AFTER INSERT OR UPDATE OR DELETE ON "loyalty_account" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_account"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_point_lot" AFTER INSERT OR UPDATE OR DELETE ON "point_lot" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_lot"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_tier_change" AFTER INSERT ON "tier_change" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_tier_change"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_coupon" AFTER INSERT OR UPDATE ON "coupon" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_coupon"();--> statement-breakpoint
-- Shards only matter for the days being written (today's rows): report_compact folds every day before p_before into
-- shard 0, so a year of history is days × stores rows, not 8 times as many. Run nightly (reports.compact job) and by
-- report_rebuild(). A late write to an old day (a till catching up) makes a shard row again; the next run folds it.
-- Concurrent writers are safe: a bump waits for the delete of its row, then inserts it anew (readers sum shards).
CREATE FUNCTION "report_compact"(p_before date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH moved AS (DELETE FROM report_day_store WHERE day < p_before AND shard <> 0 RETURNING *)
  INSERT INTO report_day_store AS r (day, store_id, shard, purchases, sales, refunds, points_earned, points_bonus, points_adjusted_in, points_adjusted_out, points_reversed, points_redeemed, points_returned, points_expired, signups_phone, signups_line)
  SELECT day, store_id, 0, sum(purchases), sum(sales), sum(refunds), sum(points_earned), sum(points_bonus), sum(points_adjusted_in), sum(points_adjusted_out), sum(points_reversed), sum(points_redeemed), sum(points_returned), sum(points_expired), sum(signups_phone), sum(signups_line) FROM moved GROUP BY day, store_id
  ON CONFLICT (day, store_id, shard) DO UPDATE SET
    purchases = r.purchases + excluded.purchases,
    sales = r.sales + excluded.sales,
    refunds = r.refunds + excluded.refunds,
    points_earned = r.points_earned + excluded.points_earned,
    points_bonus = r.points_bonus + excluded.points_bonus,
    points_adjusted_in = r.points_adjusted_in + excluded.points_adjusted_in,
    points_adjusted_out = r.points_adjusted_out + excluded.points_adjusted_out,
    points_reversed = r.points_reversed + excluded.points_reversed,
    points_redeemed = r.points_redeemed + excluded.points_redeemed,
    points_returned = r.points_returned + excluded.points_returned,
    points_expired = r.points_expired + excluded.points_expired,
    signups_phone = r.signups_phone + excluded.signups_phone,
    signups_line = r.signups_line + excluded.signups_line;
  WITH moved AS (DELETE FROM report_reward_day WHERE day < p_before AND shard <> 0 RETURNING *)
  INSERT INTO report_reward_day AS r (day, reward_id, store_id, shard, issued, used, cancelled, points)
  SELECT day, reward_id, store_id, 0, sum(issued), sum(used), sum(cancelled), sum(points) FROM moved
  GROUP BY day, reward_id, store_id
  ON CONFLICT (day, reward_id, store_id, shard) DO UPDATE SET issued = r.issued + excluded.issued,
    used = r.used + excluded.used, cancelled = r.cancelled + excluded.cancelled, points = r.points + excluded.points;
END;
$$;--> statement-breakpoint
-- Recomputes every summary from the base tables (backfill: the scale seed, after a migration, a repair).
-- Writers wait while it runs (share locks on the base tables), so nothing is counted twice or missed.
CREATE FUNCTION "report_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE member, purchase, purchase_refund, point_entry, point_lot, loyalty_account, tier_change, coupon IN SHARE MODE;
  TRUNCATE report_day_store, report_member_store, report_member_month, report_cohort, report_account,
    report_lot_expiry, report_tier_move, report_reward_day;
  INSERT INTO report_day_store (day, store_id, shard, purchases, sales, refunds, points_earned, points_bonus,
    points_adjusted_in, points_adjusted_out, points_reversed, points_redeemed, points_returned, points_expired,
    signups_phone, signups_line)
  SELECT day, store_id, shard, sum(purchases), sum(sales), sum(refunds), coalesce(sum(earned), 0),
    coalesce(sum(bonus), 0), coalesce(sum(adj_in), 0), coalesce(sum(adj_out), 0), coalesce(sum(reversed), 0),
    coalesce(sum(redeemed), 0), coalesce(sum(returned), 0), coalesce(sum(expired), 0), sum(phone), sum(line)
  FROM (
    SELECT report_day(p.purchased_at) AS day, p.store_id, report_shard(p.member_id) AS shard, count(*) AS purchases,
      sum(p.net_amount) AS sales, 0 AS refunds, 0 AS earned, 0 AS bonus, 0 AS adj_in, 0 AS adj_out, 0 AS reversed,
      0 AS redeemed, 0 AS returned, 0 AS expired, 0 AS phone, 0 AS line
    FROM purchase p GROUP BY 1, 2, 3
    UNION ALL
    SELECT report_day(r.created_at), p.store_id, report_shard(p.member_id), 0, 0, sum(r.amount), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    FROM purchase_refund r JOIN purchase p ON p.id = r.purchase_id GROUP BY 1, 2, 3
    UNION ALL
    SELECT report_day(e.created_at), coalesce(e.store_id, ''), report_shard(e.member_id), 0, 0, 0,
      sum(e.amount) FILTER (WHERE e.kind = 'earn-purchase'),
      sum(e.amount) FILTER (WHERE e.kind IN ('welcome', 'birthday')),
      sum(greatest(e.amount, 0)) FILTER (WHERE e.kind = 'adjust'),
      sum(greatest(-e.amount, 0)) FILTER (WHERE e.kind = 'adjust'),
      -sum(e.amount) FILTER (WHERE e.kind = 'refund-reversal'),
      -sum(e.amount) FILTER (WHERE e.kind = 'redeem'),
      sum(e.amount) FILTER (WHERE e.kind = 'coupon-cancel'),
      -sum(e.amount) FILTER (WHERE e.kind = 'expire'), 0, 0
    FROM point_entry e GROUP BY 1, 2, 3
    UNION ALL
    SELECT report_day(m.created_at), '', report_shard(m.id), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      count(*) FILTER (WHERE m.signup_method <> 'line'), count(*) FILTER (WHERE m.signup_method = 'line')
    FROM member m GROUP BY 1, 2, 3
  ) AS parts(day, store_id, shard, purchases, sales, refunds, earned, bonus, adj_in, adj_out, reversed, redeemed,
             returned, expired, phone, line)
  GROUP BY 1, 2, 3;
  INSERT INTO report_member_store (member_id, store_id, last_day)
    SELECT member_id, store_id, max(report_day(purchased_at)) FROM purchase GROUP BY 1, 2
    UNION ALL
    SELECT member_id, '*', max(report_day(purchased_at)) FROM purchase GROUP BY 1;
  INSERT INTO report_member_month (store_id, month, member_id, signup_month)
    SELECT s.store_id, s.month, s.member_id, report_month(m.created_at)
    FROM (SELECT DISTINCT store_id, report_month(purchased_at) AS month, member_id FROM purchase
          UNION
          SELECT DISTINCT '*', report_month(purchased_at), member_id FROM purchase) AS s
    JOIN member m ON m.id = s.member_id;
  INSERT INTO report_cohort (store_id, signup_month, month, shard, members)
    SELECT store_id, signup_month, month, report_shard(member_id), count(*) FROM report_member_month GROUP BY 1, 2, 3, 4;
  INSERT INTO report_account (tier, shard, members, points)
    SELECT tier, report_shard64(member_id), count(*), sum(balance) FROM loyalty_account GROUP BY 1, 2;
  INSERT INTO report_lot_expiry (day, shard, points)
    SELECT report_day(expires_at), report_shard64(member_id), sum(remaining) FROM point_lot GROUP BY 1, 2;
  INSERT INTO report_tier_move (day, from_tier, to_tier, shard, moves)
    SELECT report_day(created_at), from_tier, to_tier, report_shard(member_id), count(*) FROM tier_change GROUP BY 1, 2, 3, 4;
  INSERT INTO report_reward_day (day, reward_id, store_id, shard, issued, used, cancelled, points)
    SELECT day, reward_id, store_id, shard, sum(issued), sum(used), sum(cancelled), sum(points) FROM (
      SELECT report_day(c.issued_at) AS day, c.reward_id, coalesce(e.store_id, '') AS store_id,
        report_shard(c.member_id) AS shard, count(*) AS issued, 0 AS used, 0 AS cancelled, sum(c.points_cost) AS points
      FROM coupon c LEFT JOIN point_entry e ON e.id = c.redeem_entry_id GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT report_day(used_at), reward_id, coalesce(used_store_id, ''), report_shard(member_id), 0, count(*), 0, 0
      FROM coupon WHERE status = 'used' GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT report_day(cancelled_at), reward_id, '', report_shard(member_id), 0, 0, count(*), 0
      FROM coupon WHERE status = 'cancelled' GROUP BY 1, 2, 3, 4
    ) AS parts GROUP BY 1, 2, 3, 4;
  PERFORM report_compact(report_day(now()) - 1);
END;
$$;--> statement-breakpoint
-- Backfill what the database already holds.
SELECT report_rebuild();
