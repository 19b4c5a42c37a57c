CREATE TABLE "member_device" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"name" text NOT NULL,
	"secret_encrypted" text NOT NULL,
	"session_id" text,
	"last_step" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "member_device" ADD CONSTRAINT "member_device_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_device_member_idx" ON "member_device" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "member_device_session_idx" ON "member_device" USING btree ("session_id");