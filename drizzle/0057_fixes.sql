-- The webhook claim reads an enabled endpoint's pending rows by endpoint (ADR 054): a disabled endpoint's backlog is never scanned.
DROP INDEX "webhook_delivery_pending_idx";--> statement-breakpoint
CREATE INDEX "webhook_delivery_pending_idx" ON "webhook_delivery" USING btree ("endpoint_id","seq") WHERE "webhook_delivery"."status" = 'pending';