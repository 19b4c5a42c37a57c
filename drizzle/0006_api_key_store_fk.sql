-- A key for a store that does not exist books purchases nobody can find: revoke such keys (they stay
-- listed by `npm run api-key -- list`, marked REVOKED), then let only real stores have keys. NOT VALID:
-- every new or changed key is checked, while the revoked rows of old keys stay as a record.
UPDATE "api_key" SET "revoked_at" = now() WHERE "revoked_at" IS NULL AND "store_id" NOT IN (SELECT "id" FROM "store");--> statement-breakpoint
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE no action ON UPDATE no action NOT VALID;
