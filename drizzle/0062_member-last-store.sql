-- ADR 039 "Later (2026-12-07, the member's last store)": the store of the member's last purchase moves from
-- member.last_purchase_store_id (indexed by member_last_store_idx, so every store change was a non-HOT update of the
-- wide member row with an entry in each of its indexes) to a narrow row of its own, written by an upsert.
-- The backfill (hand-written) stands between drizzle-kit's CREATE TABLE and its DROP COLUMN, not below the generated
-- part: it reads the column the generated part drops. It runs before the table's foreign key and index are made
-- (its store index is built once over the loaded rows, not entry by entry; the key is checked in one pass).
CREATE TABLE "member_last_store" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	"member_created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Hand-written: every member's last store as the column holds it; member_created_at is the member's created_at
-- (never changed), so the filter's index gives the console's list order (newest members first) by itself.
INSERT INTO "member_last_store" ("member_id", "store_id", "member_created_at")
SELECT "id", "last_purchase_store_id", "created_at" FROM "member" WHERE "last_purchase_store_id" IS NOT NULL;
--> statement-breakpoint
DROP INDEX "member_last_store_idx";--> statement-breakpoint
ALTER TABLE "member_last_store" ADD CONSTRAINT "member_last_store_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_last_store_store_idx" ON "member_last_store" USING btree ("store_id","member_created_at","member_id");--> statement-breakpoint
ALTER TABLE "member" DROP COLUMN "last_purchase_store_id";