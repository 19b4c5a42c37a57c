CREATE TABLE "api_rate_counter" (
	"api_key_id" uuid NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "api_rate_counter_api_key_id_window_start_pk" PRIMARY KEY("api_key_id","window_start")
);
--> statement-breakpoint
-- ADR 030: the per-key counter writes no WAL (its commit waits for no disk flush); emptied by a crash.
ALTER TABLE "api_rate_counter" SET UNLOGGED;
