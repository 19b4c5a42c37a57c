CREATE TABLE "member_rfm" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"as_of" date NOT NULL,
	"recency_days" integer NOT NULL,
	"frequency" integer NOT NULL,
	"monetary" integer NOT NULL,
	"r" smallint NOT NULL,
	"f" smallint NOT NULL,
	"m" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "segment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"audience" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "member_rfm" ADD CONSTRAINT "member_rfm_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_rfm_rf_idx" ON "member_rfm" USING btree ("r","f","member_id");--> statement-breakpoint
CREATE INDEX "member_rfm_f_idx" ON "member_rfm" USING btree ("f","member_id");--> statement-breakpoint
CREATE INDEX "member_rfm_m_idx" ON "member_rfm" USING btree ("m","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "segment_name_unique" ON "segment" USING btree ("name_key") WHERE "segment"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "segment_updated_idx" ON "segment" USING btree ("updated_at","id");--> statement-breakpoint
-- The nightly RFM summary (ADR 056): the members with a purchase in the 12 months of Taipei days before p_as_of
-- (from p_as_of − 12 months, up to the end of the day before p_as_of), refunds netted out (a purchase refunded in
-- full does not count), scored 1–5 by quintile: score = 1 + ⌊5·(rank − 1) / n⌋, rank the standard competition
-- rank (ties share the lower one) from the oldest last purchase / fewest purchases / least money, n the members
-- scored. The table is replaced in this one call's transaction; readers see the old rows until it commits.
CREATE OR REPLACE FUNCTION rfm_refresh(p_as_of date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_from timestamptz := (p_as_of - interval '12 months')::timestamp AT TIME ZONE 'Asia/Taipei';
  v_to timestamptz := p_as_of::timestamp AT TIME ZONE 'Asia/Taipei';
  v_rows integer;
BEGIN
  PERFORM pg_advisory_xact_lock(2026120656);
  DELETE FROM member_rfm;
  INSERT INTO member_rfm (member_id, as_of, recency_days, frequency, monetary, r, f, m)
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
  SELECT member_id, p_as_of, recency_days, frequency, monetary,
         (1 + (5 * (r_rank - 1)) / n)::smallint, (1 + (5 * (f_rank - 1)) / n)::smallint,
         (1 + (5 * (m_rank - 1)) / n)::smallint
    FROM scored;
  GET DIAGNOSTICS v_rows = ROW_COUNT;
  RETURN v_rows;
END $$;
