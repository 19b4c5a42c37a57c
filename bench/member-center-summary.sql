-- The member center's summary statement (app/domain/loyalty/member-center.server.ts, memberCenterSummary) with
-- EXPLAIN (ANALYZE, BUFFERS), for one member. Keep it in step with that file. docs/scaling.md shows its output at
-- 1,000,000 members:
--
--   psql "$URL" -v member="'HL10000007'" -f bench/member-center-summary.sql
--
-- Without -v member, the member with the most ledger entries is used (a scan of point_entry: seconds at 10 M rows).
\if :{?member}
\else
select m.member_number as member from member m
  where m.id = (select member_id from point_entry group by member_id order by count(*) desc limit 1) \gset
\set member '''' :member ''''
\endif
select id as member_id, now() as at,
       ((date_trunc('day', now() at time zone 'Asia/Taipei') - interval '1 year' + interval '1 day')
         at time zone 'Asia/Taipei') as window_start
  from member where member_number = :member \gset
select :'member_id' as member_id,
       (select count(*) from point_entry where member_id = :'member_id') as ledger_entries,
       (select count(*) from purchase where member_id = :'member_id') as purchases,
       (select count(*) from point_lot where member_id = :'member_id') as lots,
       (select count(*) from coupon where member_id = :'member_id') as coupons;

explain (analyze, buffers, costs off)
select
  (select json_build_object('silverSpend', r.silver_spend, 'goldSpend', r.gold_spend)
     from loyalty_rules r where r.effective_from <= :'at'::timestamptz
     order by r.effective_from desc, r.id desc limit 1) as rules,
  (select json_build_object('balance', a.balance, 'tier', a.tier)
     from loyalty_account a where a.member_id = :'member_id') as account,
  (select json_build_object('expiresAt', l.expires_at, 'points', sum(l.remaining))
     from point_lot l
     where l.member_id = :'member_id' and l.remaining > 0 and l.expires_at > :'at'::timestamptz
     group by l.expires_at order by l.expires_at limit 1) as expiring,
  (select json_build_object('spend', coalesce(sum(p.net_amount - p.refunded_amount), 0), 'oldest', min(p.purchased_at))
     from purchase p
     where p.member_id = :'member_id' and p.purchased_at >= :'window_start'::timestamptz
       and p.purchased_at <= :'at'::timestamptz) as spend,
  (select coalesce(json_agg(c), '[]'::json) from (
     select c.id, c.code, c.status, c.reward_id as "rewardId", c.points_cost as "pointsCost",
            c.issued_at as "issuedAt", c.expires_at as "expiresAt", c.used_at as "usedAt",
            rw.name as "rewardName", rw.kind, rw.amount_off as "amountOff"
       from coupon c join reward rw on rw.id = c.reward_id
      where c.member_id = :'member_id'
      order by c.issued_at desc limit 60) c) as coupons,
  (select coalesce(json_agg(r), '[]'::json) from (
     select rw.id, rw.name, rw.kind, rw.amount_off as "amountOff", rw.points_cost as "pointsCost",
            rw.coupon_valid_days as "couponValidDays", rw.stock, rw.per_member_limit as "perMemberLimit"
       from reward rw
      where rw.active and (rw.valid_from is null or rw.valid_from <= :'at'::timestamptz)
        and (rw.valid_until is null or rw.valid_until > :'at'::timestamptz)
      order by rw.points_cost, rw.name) r) as rewards,
  (select coalesce(json_agg(e), '[]'::json) from (
     select e.id, e.kind, e.amount, e.created_at as "at", e.reason, p.net_amount as "netAmount",
            p.receipt_number as "receiptNumber", s.name as "storeName"
       from point_entry e
       left join purchase p on p.id = e.purchase_id
       left join store s on s.id = p.store_id
      where e.member_id = :'member_id'
      order by e.created_at desc, e.id desc limit 8) e) as activity,
  (select coalesce(json_agg(f), '[]'::json) from (
     select m.id, m.name, m.images
       from material_favourite mf join material m on m.id = mf.material_id
      where mf.member_id = :'member_id' and m.published
      order by mf.created_at desc limit 6) f) as favourites;
