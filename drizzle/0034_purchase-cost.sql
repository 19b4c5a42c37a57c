CREATE TABLE "audit_store_chain_head" (
	"store_id" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"anchored_seq" bigint DEFAULT 0 NOT NULL,
	"anchored_hash" text DEFAULT repeat('0', 64) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "pos" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_pkey";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_chain_seq_pk" PRIMARY KEY("chain","seq");--> statement-breakpoint
CREATE INDEX "audit_log_pos_idx" ON "audit_log" USING btree ("pos");--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "answer" jsonb;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_idempotency_key_unique" UNIQUE("api_key_id","idempotency_key");
