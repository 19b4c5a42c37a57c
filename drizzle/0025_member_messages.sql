CREATE TABLE "automatic_message" (
	"kind" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"text_zh" text NOT NULL,
	"text_en" text NOT NULL,
	"channels" text[] NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"audience" jsonb NOT NULL,
	"line_text" text,
	"sms_text" text,
	"email_subject" text,
	"email_body" text,
	"scheduled_at" timestamp with time zone,
	"queued_count" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "member_message" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"occasion" text NOT NULL,
	"kind" text NOT NULL,
	"campaign_id" uuid,
	"purpose" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"channel" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_job" text,
	"claimed_at" timestamp with time zone,
	"retry_key" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member" ADD COLUMN "locale" text DEFAULT 'zh-TW' NOT NULL;--> statement-breakpoint
ALTER TABLE "member_consent" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "message_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "member_message" ADD CONSTRAINT "member_message_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_message" ADD CONSTRAINT "member_message_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_created_idx" ON "campaign" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "member_message_occasion_uq" ON "member_message" USING btree ("member_id","occasion");--> statement-breakpoint
CREATE INDEX "member_message_member_idx" ON "member_message" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "member_message_campaign_idx" ON "member_message" USING btree ("campaign_id","status");--> statement-breakpoint
CREATE INDEX "member_message_due_idx" ON "member_message" USING btree ("due_at") WHERE "member_message"."status" in ('queued', 'held', 'sending');--> statement-breakpoint
CREATE INDEX "coupon_expiry_idx" ON "coupon" USING btree ("expires_at") WHERE "coupon"."status" = 'issued';--> statement-breakpoint
-- Messages due now wake the delivery on every instance (ADR 034): one notification per statement (a campaign
-- queues its whole audience in one insert), on the cache bus's channel, delivered at commit.
CREATE FUNCTION "member_message_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('han_cache', 'msg');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "member_message_notify" AFTER INSERT ON "member_message" FOR EACH STATEMENT EXECUTE FUNCTION "member_message_notify"();
