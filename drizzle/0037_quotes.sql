CREATE TABLE "quote_line" (
	"quote_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"material_id" text NOT NULL,
	"quantity" numeric(10, 2) NOT NULL,
	"unit" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"unit_price" integer,
	"line_total" integer,
	CONSTRAINT "quote_line_quote_id_position_pk" PRIMARY KEY("quote_id","position"),
	CONSTRAINT "quote_line_quantity_ck" CHECK ("quote_line"."quantity" > 0 and "quote_line"."quantity" <= 100000),
	CONSTRAINT "quote_line_unit_ck" CHECK ("quote_line"."unit" in ('m2', 'piece')),
	CONSTRAINT "quote_line_piece_ck" CHECK ("quote_line"."unit" <> 'piece' or "quote_line"."quantity" = trunc("quote_line"."quantity")),
	CONSTRAINT "quote_line_price_ck" CHECK ("quote_line"."unit_price" is null or "quote_line"."unit_price" >= 0),
	CONSTRAINT "quote_line_total_ck" CHECK ("quote_line"."line_total" is null or "quote_line"."line_total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quote_open_count" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"open" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "quote_open_count_ck" CHECK ("quote_open_count"."open" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quote_request" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"member_id" uuid NOT NULL,
	"store_id" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"answered_by" text,
	"answered_at" timestamp with time zone,
	"valid_until" date,
	"staff_message" text,
	"total" integer,
	"decided_at" timestamp with time zone,
	"locale" text DEFAULT 'zh-TW' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quote_request_reference_unique" UNIQUE("reference"),
	CONSTRAINT "quote_request_status_ck" CHECK ("quote_request"."status" in ('requested', 'answered', 'accepted', 'closed', 'withdrawn')),
	CONSTRAINT "quote_request_total_ck" CHECK ("quote_request"."total" is null or "quote_request"."total" >= 0),
	CONSTRAINT "quote_request_answer_ck" CHECK ("quote_request"."status" = 'requested' or "quote_request"."status" = 'withdrawn' or ("quote_request"."answered_at" is not null and "quote_request"."valid_until" is not null and "quote_request"."total" is not null))
);
--> statement-breakpoint
ALTER TABLE "quote_line" ADD CONSTRAINT "quote_line_quote_id_quote_request_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quote_request"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_line" ADD CONSTRAINT "quote_line_material_id_material_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."material"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_open_count" ADD CONSTRAINT "quote_open_count_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_request" ADD CONSTRAINT "quote_request_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_request" ADD CONSTRAINT "quote_request_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_request" ADD CONSTRAINT "quote_request_answered_by_staff_account_user_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."staff_account"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quote_request_store_idx" ON "quote_request" USING btree ("store_id","status","created_at");--> statement-breakpoint
CREATE INDEX "quote_request_member_idx" ON "quote_request" USING btree ("member_id","created_at");