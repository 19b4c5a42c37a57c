ALTER TABLE "loyalty_account" ADD COLUMN "last_purchase_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member" ADD COLUMN "last_purchase_store_id" text;--> statement-breakpoint
CREATE INDEX "member_last_store_idx" ON "member" USING btree ("last_purchase_store_id","created_at","id") WHERE "member"."last_purchase_store_id" is not null;--> statement-breakpoint
-- Backfill: each member's latest purchase by purchase time (the receipt booked last on a tie), its time on the
-- account and its store on the member.
UPDATE "loyalty_account" AS a
   SET "last_purchase_at" = p."purchased_at"
  FROM (SELECT "member_id", max("purchased_at") AS "purchased_at" FROM "purchase" GROUP BY "member_id") AS p
 WHERE p."member_id" = a."member_id";--> statement-breakpoint
UPDATE "member" AS m
   SET "last_purchase_store_id" = p."store_id"
  FROM (SELECT DISTINCT ON ("member_id") "member_id", "store_id"
          FROM "purchase"
         ORDER BY "member_id", "purchased_at" DESC, "created_at" DESC) AS p
 WHERE p."member_id" = m."id";
