CREATE TABLE "trade_application" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"tax_id_number" text NOT NULL,
	"company_name" text NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_application_reason" CHECK ("trade_application"."state" <> 'rejected' or "trade_application"."reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "loyalty_account" ADD COLUMN "trade" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD COLUMN "trade_multiplier_permille" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_application" ADD CONSTRAINT "trade_application_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trade_application_open_unique" ON "trade_application" USING btree ("member_id") WHERE "trade_application"."state" in ('pending', 'approved');--> statement-breakpoint
CREATE INDEX "trade_application_member_idx" ON "trade_application" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "trade_application_state_idx" ON "trade_application" USING btree ("state","created_at");--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD CONSTRAINT "loyalty_rules_trade_multiplier" CHECK ("loyalty_rules"."trade_multiplier_permille" between 1000 and 3000);