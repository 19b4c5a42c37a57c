CREATE TABLE "spend_code" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"store_id" text NOT NULL,
	"requester" text NOT NULL,
	"points" integer NOT NULL,
	"net_amount" integer NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "spend_code_amounts" CHECK ("spend_code"."points" > 0 and "spend_code"."net_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "spend_code" ADD CONSTRAINT "spend_code_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "spend_code_member_idx" ON "spend_code" USING btree ("member_id","created_at");