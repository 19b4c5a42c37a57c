ALTER TABLE "reward" ADD COLUMN "image_id" uuid;--> statement-breakpoint
ALTER TABLE "reward" ADD CONSTRAINT "reward_image_id_media_image_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."media_image"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The member center's summary (ADR 026) shows a reward's uploaded image with its alt texts: an alt text
-- edited in the media library drops every summary, like a change to the rewards themselves.
CREATE TRIGGER "media_image_cache" AFTER UPDATE ON "media_image" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');
