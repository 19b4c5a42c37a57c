-- The single characters and character pairs of a name, lowercased, for the console's search by part of a
-- Chinese name through a GIN index (platform/db/schema/members.ts, member.name_grams).
CREATE FUNCTION "member_name_grams"(name text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}'::text[]) FROM (
    SELECT substr(lower(name), i, 1) AS g FROM generate_series(1, char_length(name)) AS i
    UNION ALL
    SELECT substr(lower(name), i, 2) FROM generate_series(1, char_length(name) - 1) AS i
  ) AS grams WHERE btrim(g) <> ''
$$;--> statement-breakpoint
CREATE TABLE "member_note" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"author_user_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member" ADD COLUMN "name_grams" text[] GENERATED ALWAYS AS (member_name_grams(name_zh)) STORED;--> statement-breakpoint
ALTER TABLE "member_note" ADD CONSTRAINT "member_note_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_note_member_idx" ON "member_note" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "coupon_member_issued_idx" ON "coupon" USING btree ("member_id","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "member_name_grams_idx" ON "member" USING gin ("name_grams");