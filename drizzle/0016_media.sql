CREATE TABLE "media_image" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hash" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"source_format" text NOT NULL,
	"source_bytes" integer NOT NULL,
	"alt_zh" text NOT NULL,
	"alt_en" text DEFAULT '' NOT NULL,
	"variants" jsonb NOT NULL,
	"storage" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_image_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "media_object" (
	"key" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_image" ADD CONSTRAINT "media_image_created_by_staff_account_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff_account"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_image_created_idx" ON "media_image" USING btree ("created_at","id");