ALTER TABLE "loyalty_rules" ADD COLUMN "max_spend_percent" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "points_spent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "points_spent_value" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "points_returned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase_refund" ADD COLUMN "points_returned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_points_spent" CHECK ("purchase"."points_spent" >= 0 and "purchase"."points_spent_value" between 0 and "purchase"."net_amount" and "purchase"."points_returned" between 0 and "purchase"."points_spent");--> statement-breakpoint
-- hand-written (points)
-- Points spent at a purchase count as redeemed in the dashboard's summaries, and spent points given back by a refund
-- as returned (ADR 040), in the live trigger and in the rebuild alike: the flows keep adding up to the balances.
CREATE OR REPLACE FUNCTION "report_on_point_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    WHEN 'redeem', 'spend-purchase' THEN PERFORM report_bump_day_store(d, s, sh, p_redeemed => -a);
    WHEN 'coupon-cancel', 'spend-return' THEN PERFORM report_bump_day_store(d, s, sh, p_returned => a);
    WHEN 'expire' THEN PERFORM report_bump_day_store(d, s, sh, p_expired => -a);
    ELSE NULL;
  END CASE;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "report_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
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
      -sum(e.amount) FILTER (WHERE e.kind IN ('redeem', 'spend-purchase')),
      sum(e.amount) FILTER (WHERE e.kind IN ('coupon-cancel', 'spend-return')),
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
$$;
