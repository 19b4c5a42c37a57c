-- Issue 38 / ADR 053: a member's referral code, 10 characters from an alphabet without look-alikes (no 0/O, 1/I/L),
-- from the 122 random bits of gen_random_uuid (available on PostgreSQL 13+ and PGlite without an extension).
CREATE OR REPLACE FUNCTION "member_referral_code"() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT string_agg(substr('23456789ABCDEFGHJKMNPQRSTUVWXYZ', (get_byte(b, i) % 31) + 1, 1), '' ORDER BY i)
    FROM (SELECT decode(replace(gen_random_uuid()::text, '-', ''), 'hex') AS b) r, generate_series(0, 9) AS i
$$;--> statement-breakpoint
CREATE TABLE "referral" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"referrer_id" uuid NOT NULL,
	"friend_id" uuid NOT NULL,
	"code" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"purchase_id" uuid,
	"points" integer DEFAULT 0 NOT NULL,
	"reversible_until" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"reversed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_friend_id_unique" UNIQUE("friend_id"),
	CONSTRAINT "referral_not_self" CHECK ("referral"."referrer_id" <> "referral"."friend_id")
);
--> statement-breakpoint
CREATE TABLE "referral_month" (
	"referrer_id" uuid NOT NULL,
	"month" text NOT NULL,
	"rewarded" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "referral_month_referrer_id_month_pk" PRIMARY KEY("referrer_id","month")
);
--> statement-breakpoint
ALTER TABLE "loyalty_account" ADD COLUMN "referral_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD COLUMN "referral_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD COLUMN "referral_points" integer DEFAULT 300 NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD COLUMN "referral_min_amount" integer DEFAULT 3000 NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD COLUMN "referral_monthly_cap" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD COLUMN "referral_window_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "member" ADD COLUMN "referral_code" text DEFAULT member_referral_code() NOT NULL;--> statement-breakpoint
ALTER TABLE "referral" ADD CONSTRAINT "referral_referrer_id_member_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral" ADD CONSTRAINT "referral_friend_id_member_id_fk" FOREIGN KEY ("friend_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_month" ADD CONSTRAINT "referral_month_referrer_id_member_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referral_referrer_idx" ON "referral" USING btree ("referrer_id","created_at");--> statement-breakpoint
CREATE INDEX "referral_purchase_idx" ON "referral" USING btree ("purchase_id") WHERE "referral"."purchase_id" is not null;--> statement-breakpoint
ALTER TABLE "member" ADD CONSTRAINT "member_referral_code_unique" UNIQUE("referral_code");