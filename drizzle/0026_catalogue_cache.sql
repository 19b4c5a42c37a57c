-- The catalogue's cache (ADR 031, "Catalogue data"): each instance keeps the showrooms, materials and
-- categories the public pages read, and empties them when it hears `c` or `m:*` on the cache bus
-- (ADR 026). `store`, `material` and edits of `media_image` already send `m:*` (0019, 0023); these
-- are the other tables a catalogue read joins.
CREATE TRIGGER "store_hours_exception_catalogue_cache" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "store_hours_exception" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('c');--> statement-breakpoint
CREATE TRIGGER "material_category_catalogue_cache" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "material_category" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('c');--> statement-breakpoint
CREATE TRIGGER "material_store_catalogue_cache" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "material_store" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('c');--> statement-breakpoint
CREATE TRIGGER "media_image_catalogue_cache" AFTER INSERT OR DELETE OR TRUNCATE ON "media_image" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('c');
