CREATE TABLE "rich_menu_retired" (
	"line_rich_menu_id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"retired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE INDEX "rich_menu_retired_due_idx" ON "rich_menu_retired" USING btree ("due_at") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "rich_menu_link_menu_idx" ON "rich_menu_link" USING btree ("linked_menu");