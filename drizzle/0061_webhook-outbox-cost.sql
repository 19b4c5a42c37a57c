DROP INDEX "webhook_delivery_pending_idx";--> statement-breakpoint
DROP INDEX "webhook_delivery_sending_idx";--> statement-breakpoint
DROP INDEX "webhook_delivery_endpoint_idx";--> statement-breakpoint
ALTER TABLE "webhook_delivery" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_delivery" ADD COLUMN "last_duration_ms" integer;--> statement-breakpoint
CREATE INDEX "webhook_delivery_queue_idx" ON "webhook_delivery" USING btree ("endpoint_id","seq") WHERE "webhook_delivery"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "webhook_delivery_done_idx" ON "webhook_delivery" USING btree ("endpoint_id","seq") WHERE "webhook_delivery"."status" in ('delivered', 'failed');--> statement-breakpoint
-- hand-written below
-- The webhook outbox's per-event cost (issue 38, "≤ 10 % of a purchase's cost"; ADR 054 "Later (2026-12-07, the
-- outbox's per-event cost)"). Above: an event's row gets three index entries when written (the primary key, the
-- claim's queue and the order check's) instead of four, and three instead of four when claimed: the delivery log's
-- index now holds finished rows only (`done`), the claim's holds open rows (pending and sending, so a dead
-- instance's claim is taken over by the claim itself and the `sending` index is gone). A success is recorded on the
-- row (`last_attempt_at`, `last_duration_ms`) instead of an attempt row per event; failures keep their attempt rows.
-- The rows written before: their latest attempt onto the row, as the log showed it.
UPDATE "webhook_delivery" d SET "last_attempt_at" = a."at", "last_duration_ms" = a."duration_ms"
  FROM (SELECT DISTINCT ON ("delivery_id") "delivery_id", "at", "duration_ms" FROM "webhook_attempt"
         ORDER BY "delivery_id", "id" DESC) a
 WHERE a."delivery_id" = d."id";
