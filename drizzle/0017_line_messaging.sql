CREATE TABLE "line_friend" (
	"line_user_id" text PRIMARY KEY NOT NULL,
	"following" boolean NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_webhook_event" (
	"webhook_event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "line_webhook_event_received_idx" ON "line_webhook_event" USING btree ("received_at");