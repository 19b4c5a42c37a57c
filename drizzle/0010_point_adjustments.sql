CREATE TABLE "console_setting" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "point_adjustment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_key" text NOT NULL,
	"member_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_role" text NOT NULL,
	"store_id" text,
	"requested_at" timestamp with time zone NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"entry_id" uuid,
	CONSTRAINT "point_adjustment_request_key_unique" UNIQUE("request_key"),
	CONSTRAINT "point_adjustment_amount_ck" CHECK ("point_adjustment"."amount" <> 0),
	CONSTRAINT "point_adjustment_four_eyes_ck" CHECK ("point_adjustment"."status" <> 'booked' or "point_adjustment"."decided_by" is null or "point_adjustment"."decided_by" <> "point_adjustment"."requested_by")
);
--> statement-breakpoint
ALTER TABLE "console_setting" ADD CONSTRAINT "console_setting_updated_by_auth_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_adjustment" ADD CONSTRAINT "point_adjustment_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "point_adjustment_pending_idx" ON "point_adjustment" USING btree ("requested_at") WHERE "point_adjustment"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "point_adjustment_member_idx" ON "point_adjustment" USING btree ("member_id","requested_at");