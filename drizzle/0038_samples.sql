CREATE TABLE "material_sample_store" (
	"material_id" text NOT NULL,
	"store_id" text NOT NULL,
	CONSTRAINT "material_sample_store_material_id_store_id_pk" PRIMARY KEY("material_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "sample_open_count" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"open" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sample_open_count_ck" CHECK ("sample_open_count"."open" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sample_request" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"store_id" text NOT NULL,
	"material_id" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	"ready_by" text,
	"handed_out_at" timestamp with time zone,
	"handed_out_by" text,
	"due_back_on" date,
	"returned_at" timestamp with time zone,
	"returned_by" text,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text,
	"reminder_sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sample_request_due_ck" CHECK (("sample_request"."status" in ('handed_out', 'returned')) = ("sample_request"."due_back_on" is not null))
);
--> statement-breakpoint
ALTER TABLE "material_sample_store" ADD CONSTRAINT "material_sample_store_material_id_material_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."material"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_sample_store" ADD CONSTRAINT "material_sample_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_open_count" ADD CONSTRAINT "sample_open_count_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_request" ADD CONSTRAINT "sample_request_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_request" ADD CONSTRAINT "sample_request_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_request" ADD CONSTRAINT "sample_request_material_id_material_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."material"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "material_sample_store_store_idx" ON "material_sample_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "sample_request_member_idx" ON "sample_request" USING btree ("member_id","requested_at");--> statement-breakpoint
CREATE INDEX "sample_request_store_idx" ON "sample_request" USING btree ("store_id","status","requested_at");--> statement-breakpoint
CREATE INDEX "sample_request_out_idx" ON "sample_request" USING btree ("due_back_on") WHERE "sample_request"."status" = 'handed_out';--> statement-breakpoint
CREATE UNIQUE INDEX "sample_request_open_uq" ON "sample_request" USING btree ("member_id","material_id") WHERE "sample_request"."status" in ('requested', 'ready', 'handed_out');