-- 兌換張數 counts redemptions only (ADR 058, "Later (2026-12-07)"): `report_reward_day.issued` counted every coupon
-- inserted, a referral's points-free coupon (ADR 053) too, which was never redeemed with points. What a redemption is
-- is decided once, by isRedemption (app/domain/loyalty/coupon-state.ts): `referral_id is null`. A referral coupon's
-- later events (used, revoked) are still counted in their columns: they are what happened to coupons of the reward.
CREATE OR REPLACE FUNCTION "report_on_coupon"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s text;
BEGIN
  -- The summaries' lock, taken by each report_* function itself since migration 0054 (purchase-cost).
  PERFORM pg_advisory_xact_lock(2025112501);
  IF TG_OP = 'INSERT' THEN
    -- A referral's coupon is no redemption (isRedemption): nothing to count at its issue.
    IF NEW.referral_id IS NULL THEN
      SELECT coalesce(store_id, '') INTO s FROM point_entry WHERE id = NEW.redeem_entry_id;
      PERFORM report_bump_reward(report_day(NEW.issued_at), NEW.reward_id, coalesce(s, ''), report_shard(NEW.member_id),
        1, 0, 0, 0, NEW.points_cost);
    END IF;
  ELSIF OLD.status <> 'used' AND NEW.status = 'used' THEN
    PERFORM report_bump_reward(report_day(coalesce(NEW.used_at, now())), NEW.reward_id, coalesce(NEW.used_store_id, ''),
      report_shard(NEW.member_id), 0, 1, 0, 0, 0);
  ELSIF OLD.status <> 'cancelled' AND NEW.status = 'cancelled' THEN
    PERFORM report_bump_reward(report_day(coalesce(NEW.cancelled_at, now())), NEW.reward_id, '',
      report_shard(NEW.member_id), 0, 0, 1, 0, 0);
  ELSIF OLD.status <> 'revoked' AND NEW.status = 'revoked' THEN
    PERFORM report_bump_reward(report_day(coalesce(NEW.revoked_at, now())), NEW.reward_id, '',
      report_shard(NEW.member_id), 0, 0, 0, 1, 0);
  END IF;
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
  INSERT INTO report_reward_day (day, reward_id, store_id, shard, issued, used, cancelled, revoked, points)
    SELECT day, reward_id, store_id, shard, sum(issued), sum(used), sum(cancelled), sum(revoked), sum(points) FROM (
      SELECT report_day(c.issued_at) AS day, c.reward_id, coalesce(e.store_id, '') AS store_id,
        report_shard(c.member_id) AS shard, count(*) AS issued, 0 AS used, 0 AS cancelled, 0 AS revoked,
        sum(c.points_cost) AS points
      FROM coupon c LEFT JOIN point_entry e ON e.id = c.redeem_entry_id WHERE c.referral_id IS NULL GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT report_day(used_at), reward_id, coalesce(used_store_id, ''), report_shard(member_id), 0, count(*), 0, 0, 0
      FROM coupon WHERE status = 'used' GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT report_day(cancelled_at), reward_id, '', report_shard(member_id), 0, 0, count(*), 0, 0
      FROM coupon WHERE status = 'cancelled' GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT report_day(revoked_at), reward_id, '', report_shard(member_id), 0, 0, 0, count(*), 0
      FROM coupon WHERE status = 'revoked' GROUP BY 1, 2, 3, 4
    ) AS parts GROUP BY 1, 2, 3, 4;
  PERFORM report_compact(report_day(now()) - 1);
END;
$$;--> statement-breakpoint
-- The reward summaries recomputed with the rule above (report_rebuild's reward part, then folded as the nightly
-- compaction folds them): the referral coupons issued before this migration leave `issued`. Under the summaries'
-- lock, with coupons held still; report_reward_day is rewards × days × stores, a small table.
SELECT pg_advisory_xact_lock(2025112501);--> statement-breakpoint
LOCK TABLE coupon IN SHARE MODE;--> statement-breakpoint
DELETE FROM report_reward_day;--> statement-breakpoint
INSERT INTO report_reward_day (day, reward_id, store_id, shard, issued, used, cancelled, revoked, points)
  SELECT day, reward_id, store_id, shard, sum(issued), sum(used), sum(cancelled), sum(revoked), sum(points) FROM (
    SELECT report_day(c.issued_at) AS day, c.reward_id, coalesce(e.store_id, '') AS store_id,
      report_shard(c.member_id) AS shard, count(*) AS issued, 0 AS used, 0 AS cancelled, 0 AS revoked,
      sum(c.points_cost) AS points
    FROM coupon c LEFT JOIN point_entry e ON e.id = c.redeem_entry_id WHERE c.referral_id IS NULL GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT report_day(used_at), reward_id, coalesce(used_store_id, ''), report_shard(member_id), 0, count(*), 0, 0, 0
    FROM coupon WHERE status = 'used' GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT report_day(cancelled_at), reward_id, '', report_shard(member_id), 0, 0, count(*), 0, 0
    FROM coupon WHERE status = 'cancelled' GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT report_day(revoked_at), reward_id, '', report_shard(member_id), 0, 0, 0, count(*), 0
    FROM coupon WHERE status = 'revoked' GROUP BY 1, 2, 3, 4
  ) AS parts GROUP BY 1, 2, 3, 4;--> statement-breakpoint
SELECT report_compact(report_day(now()) - 1);
