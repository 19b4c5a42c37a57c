ALTER TABLE "member" ADD COLUMN "einvoice_sharing" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "api_key" ADD COLUMN "scopes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- hand-written (einvoice-carrier)
-- A change of a key's scopes empties the per-instance key cache too (ADR 026, ADR 041): the next request sees them.
DROP TRIGGER IF EXISTS "api_key_cache" ON "api_key";--> statement-breakpoint
CREATE TRIGGER "api_key_cache" AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "store_id", "name", "prefix", "secret_hash", "revoked_at", "scopes" ON "api_key" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('k');
