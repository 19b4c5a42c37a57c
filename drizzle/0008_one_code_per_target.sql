-- One code per target and purpose (ADR 018): keep only the newest row of each pair, then make the pair unique.
DELETE FROM "one_time_code" AS older USING "one_time_code" AS newer
WHERE older."target" = newer."target" AND older."purpose" = newer."purpose"
  AND (older."created_at", older."id") < (newer."created_at", newer."id");--> statement-breakpoint
DROP INDEX "one_time_code_target_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "one_time_code_target_purpose_uq" ON "one_time_code" USING btree ("target","purpose");
