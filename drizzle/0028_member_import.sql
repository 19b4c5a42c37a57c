CREATE TABLE "import_auth_user" (
	"run_id" uuid NOT NULL,
	"local_id" text NOT NULL,
	"raw" jsonb NOT NULL,
	CONSTRAINT "import_auth_user_run_id_local_id_pk" PRIMARY KEY("run_id","local_id")
);
--> statement-breakpoint
CREATE TABLE "import_row" (
	"run_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"external_id" text,
	"raw" jsonb NOT NULL,
	"record" jsonb,
	"plan" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"problems" jsonb,
	"member_id" uuid,
	CONSTRAINT "import_row_run_id_line_pk" PRIMARY KEY("run_id","line")
);
--> statement-breakpoint
CREATE TABLE "import_run" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"status" text DEFAULT 'staged' NOT NULL,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"file_sha256" text NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"report" jsonb,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"merged" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"points_booked" bigint DEFAULT 0 NOT NULL,
	"created_by" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"cancel_requested_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "member_source" (
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"member_id" uuid NOT NULL,
	"run_id" uuid,
	"merged" boolean DEFAULT false NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_source_source_external_id_pk" PRIMARY KEY("source","external_id")
);
--> statement-breakpoint
ALTER TABLE "import_auth_user" ADD CONSTRAINT "import_auth_user_run_id_import_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_row" ADD CONSTRAINT "import_row_run_id_import_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_source" ADD CONSTRAINT "member_source_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_source" ADD CONSTRAINT "member_source_run_id_import_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."import_run"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_row_external_idx" ON "import_row" USING btree ("run_id","external_id");--> statement-breakpoint
CREATE INDEX "import_row_pending_idx" ON "import_row" USING btree ("run_id","line") WHERE "import_row"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "import_run_created_idx" ON "import_run" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "import_run_one_active_uq" ON "import_run" USING btree ("kind") WHERE "import_run"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "member_source_member_idx" ON "member_source" USING btree ("member_id");