CREATE TABLE "line_id_token_use" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "line_id_token_use_expires_idx" ON "line_id_token_use" USING btree ("expires_at");