CREATE TABLE "store_photo" (
	"store_id" text NOT NULL,
	"image_id" uuid NOT NULL,
	CONSTRAINT "store_photo_store_id_image_id_pk" PRIMARY KEY("store_id","image_id")
);
--> statement-breakpoint
ALTER TABLE "store_photo" ADD CONSTRAINT "store_photo_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_photo" ADD CONSTRAINT "store_photo_image_id_media_image_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."media_image"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_photo_image_idx" ON "store_photo" USING btree ("image_id");