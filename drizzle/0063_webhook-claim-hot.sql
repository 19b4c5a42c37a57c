DROP INDEX "webhook_delivery_queue_idx";--> statement-breakpoint
DROP INDEX "webhook_delivery_open_idx";--> statement-breakpoint
CREATE INDEX "webhook_delivery_queue_idx" ON "webhook_delivery" USING btree ("endpoint_id","seq") WHERE "webhook_delivery"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_delivery_open_idx" ON "webhook_delivery" USING btree ("endpoint_id","member_id","seq") WHERE "webhook_delivery"."status" = 'pending';--> statement-breakpoint
-- hand-written below
-- The claim without a status change (issue 38, ADR 054 "Later (2026-12-07, the claim without a status change)").
-- Above: the claim's and the order check's indexes hold `pending` rows; a row being sent is a pending one with a fresh
-- claim (`claim_job`, `claimed_at`), so the claim writes no indexed column and no predicate's column and can be a HOT
-- update (no new entry in the primary key, the queue and the order index).
-- Rows claimed before this migration: pending with their claim kept, so a live claim is still "being sent" and a
-- 5-min-old one is taken over, as before.
UPDATE "webhook_delivery" SET "status" = 'pending' WHERE "status" = 'sending';--> statement-breakpoint
-- An instance of the previous build (a rolling update) claims by setting `sending`: refused here, so its pass fails
-- and sends nothing, instead of taking rows a new instance is sending (it reads a pending row as free) or leaving rows
-- in a status the new claim never reads.
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_status_ck"
  CHECK ("status" in ('pending', 'delivered', 'failed'));--> statement-breakpoint
-- Room on each page for the claim's version of its rows: a HOT update needs it on the row's own page. A pass claims
-- runs of consecutive rows (a gathered notification, or a batch of 1,000), i.e. whole pages in one statement, so the
-- claim needs about as much room as the rows take: with fillfactor F about (100 - F) / F of the claims were HOT
-- (measured: 100 → 0 %, 90 → 11-15 %, 80 → 21-27 %, 70 → 38-43 %, 60 → 61-73 %, 50 → 87-100 %; ADR 054). The table
-- grows less than that suggests (the dead versions of a HOT chain are pruned on the page and their room reused; a
-- non-HOT version lands on another page until vacuum): 1.0-1.4× the pages of fillfactor 100 in the same runs.
ALTER TABLE "webhook_delivery" SET (fillfactor = 50);
