CREATE TABLE "campaign_click" (
	"message_id" uuid PRIMARY KEY NOT NULL,
	"campaign_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"link_idx" smallint NOT NULL,
	"clicked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_link" (
	"campaign_id" uuid NOT NULL,
	"idx" smallint NOT NULL,
	"url" text NOT NULL,
	CONSTRAINT "campaign_link_campaign_id_idx_pk" PRIMARY KEY("campaign_id","idx")
);
--> statement-breakpoint
ALTER TABLE "campaign" ADD COLUMN "control_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign" ADD COLUMN "attribution_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_click" ADD CONSTRAINT "campaign_click_message_id_member_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."member_message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_click" ADD CONSTRAINT "campaign_click_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_click" ADD CONSTRAINT "campaign_click_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_link" ADD CONSTRAINT "campaign_link_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_click_member_idx" ON "campaign_click" USING btree ("member_id","clicked_at");--> statement-breakpoint
CREATE INDEX "campaign_click_campaign_idx" ON "campaign_click" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "member_message_touch_idx" ON "member_message" USING btree ("member_id","sent_at") WHERE "member_message"."campaign_id" is not null and "member_message"."status" = 'sent';--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_control_percent" CHECK ("campaign"."control_percent" between 0 and 50);--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_attribution_days" CHECK ("campaign"."attribution_days" between 1 and 30);