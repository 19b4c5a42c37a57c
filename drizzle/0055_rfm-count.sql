ALTER TABLE "member_rfm" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "member_rfm" ADD COLUMN "tier" text DEFAULT 'basic' NOT NULL;--> statement-breakpoint
CREATE INDEX "member_rfm_count_idx" ON "member_rfm" USING btree ("r","f","m","tier") WHERE "member_rfm"."active";--> statement-breakpoint
-- RFM counts from the summary alone (issue 38 "Speed", ADR 056 "Later"): member_rfm carries the member's state,
-- `active` (not disabled, not deleted) and `tier` (loyalty_account.tier, basic without an account), so a count by
-- scores, groups and tiers is an index-only scan of member_rfm_count_idx, with no join into member or
-- loyalty_account. The rows already there take the members' state now.
UPDATE "member_rfm" x SET "active" = (m."disabled" = false AND m."deleted_at" IS NULL),
                          "tier" = coalesce(la."tier", 'basic')
  FROM "member" m LEFT JOIN "loyalty_account" la ON la."member_id" = m."id"
 WHERE m."id" = x."member_id";--> statement-breakpoint
-- The nightly job, as in migration "segments" (same window, netting and quintiles), now in two phases: the scores
-- are computed into a temporary table first; then, under the exclusive advisory lock 2026120657, the table is
-- replaced with each row's `active` and `tier` read after that lock is held. The triggers below take the same lock
-- shared before they touch member_rfm, so a change committed while the job runs is either seen by its INSERT (it
-- committed before the lock was granted) or applied by its trigger to the new rows (it waited for the job's commit;
-- each statement of a PL/pgSQL function sees what committed before it began). Only the replacement holds the lock
-- (seconds at 1 M members); the changes of state it delays are rare (a member disabled, a tier change).
CREATE OR REPLACE FUNCTION rfm_refresh(p_as_of date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_from timestamptz := (p_as_of - interval '12 months')::timestamp AT TIME ZONE 'Asia/Taipei';
  v_to timestamptz := p_as_of::timestamp AT TIME ZONE 'Asia/Taipei';
  v_rows integer;
BEGIN
  PERFORM pg_advisory_xact_lock(2026120656);
  DROP TABLE IF EXISTS pg_temp.rfm_next;
  CREATE TEMP TABLE rfm_next ON COMMIT DROP AS
  WITH kept AS (
    SELECT p.member_id, (p.purchased_at AT TIME ZONE 'Asia/Taipei')::date AS day, p.net_amount - p.refunded_amount AS net
      FROM purchase p
     WHERE p.purchased_at >= v_from AND p.purchased_at < v_to AND p.refunded_amount < p.net_amount
  ), per_member AS (
    SELECT k.member_id, p_as_of - max(k.day) AS recency_days, count(*)::int AS frequency,
           least(sum(k.net), 2147483647)::int AS monetary
      FROM kept k
     GROUP BY k.member_id
  ), scored AS (
    SELECT pm.*, count(*) OVER () AS n,
           rank() OVER (ORDER BY pm.recency_days DESC) AS r_rank,
           rank() OVER (ORDER BY pm.frequency) AS f_rank,
           rank() OVER (ORDER BY pm.monetary) AS m_rank
      FROM per_member pm
  )
  SELECT member_id, recency_days, frequency, monetary,
         (1 + (5 * (r_rank - 1)) / n)::smallint AS r, (1 + (5 * (f_rank - 1)) / n)::smallint AS f,
         (1 + (5 * (m_rank - 1)) / n)::smallint AS m
    FROM scored;
  PERFORM pg_advisory_xact_lock(2026120657);
  DELETE FROM member_rfm;
  INSERT INTO member_rfm (member_id, as_of, recency_days, frequency, monetary, r, f, m, active, tier)
  SELECT s.member_id, p_as_of, s.recency_days, s.frequency, s.monetary, s.r, s.f, s.m,
         mb.disabled = false AND mb.deleted_at IS NULL, coalesce(la.tier, 'basic')
    FROM rfm_next s
    JOIN member mb ON mb.id = s.member_id
    LEFT JOIN loyalty_account la ON la.member_id = s.member_id;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  DROP TABLE pg_temp.rfm_next;
  RETURN v_rows;
END $$;--> statement-breakpoint
-- A member disabled, deleted or restored: its row (if scored) follows at once, in the change's transaction.
CREATE OR REPLACE FUNCTION "rfm_on_member_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(2026120657);
  UPDATE member_rfm SET active = (NEW.disabled = false AND NEW.deleted_at IS NULL)
   WHERE member_id = NEW.id AND active IS DISTINCT FROM (NEW.disabled = false AND NEW.deleted_at IS NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "rfm_on_member_state" AFTER UPDATE OF "disabled", "deleted_at" ON "member" FOR EACH ROW
  WHEN (OLD."disabled" IS DISTINCT FROM NEW."disabled" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at")
  EXECUTE FUNCTION "rfm_on_member_state"();--> statement-breakpoint
-- A tier change (or the first loyalty account, or its removal): the row's tier follows at once.
CREATE OR REPLACE FUNCTION "rfm_on_tier"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(2026120657);
  IF TG_OP = 'DELETE' THEN
    UPDATE member_rfm SET tier = 'basic' WHERE member_id = OLD.member_id AND tier <> 'basic';
  ELSE
    UPDATE member_rfm SET tier = NEW.tier WHERE member_id = NEW.member_id AND tier IS DISTINCT FROM NEW.tier;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "rfm_on_tier_insert" AFTER INSERT ON "loyalty_account" FOR EACH ROW
  WHEN (NEW."tier" <> 'basic') EXECUTE FUNCTION "rfm_on_tier"();--> statement-breakpoint
CREATE TRIGGER "rfm_on_tier_update" AFTER UPDATE OF "tier" ON "loyalty_account" FOR EACH ROW
  WHEN (OLD."tier" IS DISTINCT FROM NEW."tier") EXECUTE FUNCTION "rfm_on_tier"();--> statement-breakpoint
CREATE TRIGGER "rfm_on_tier_delete" AFTER DELETE ON "loyalty_account" FOR EACH ROW
  WHEN (OLD."tier" <> 'basic') EXECUTE FUNCTION "rfm_on_tier"();
