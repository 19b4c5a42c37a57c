CREATE TABLE "material" (
	"id" text PRIMARY KEY NOT NULL,
	"category_id" text NOT NULL,
	"name" jsonb NOT NULL,
	"series" jsonb NOT NULL,
	"summary" jsonb NOT NULL,
	"sizes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"finish" jsonb NOT NULL,
	"colour" jsonb NOT NULL,
	"swatch" text NOT NULL,
	"origin" jsonb NOT NULL,
	"specs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"care" jsonb NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "material_category" (
	"id" text PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"summary" jsonb NOT NULL,
	"image" jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "material_favourite" (
	"member_id" text NOT NULL,
	"material_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "material_favourite_member_id_material_id_pk" PRIMARY KEY("member_id","material_id")
);
--> statement-breakpoint
CREATE TABLE "material_store" (
	"material_id" text NOT NULL,
	"store_id" text NOT NULL,
	CONSTRAINT "material_store_material_id_store_id_pk" PRIMARY KEY("material_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "store" (
	"id" text PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"summary" jsonb NOT NULL,
	"city" text NOT NULL,
	"district" jsonb NOT NULL,
	"postal_code" text NOT NULL,
	"address" jsonb NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"weekly_hours" jsonb NOT NULL,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"services" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_hours_exception" (
	"store_id" text NOT NULL,
	"date" date NOT NULL,
	"intervals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" jsonb,
	CONSTRAINT "store_hours_exception_store_id_date_pk" PRIMARY KEY("store_id","date")
);
--> statement-breakpoint
ALTER TABLE "material" ADD CONSTRAINT "material_category_id_material_category_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."material_category"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_favourite" ADD CONSTRAINT "material_favourite_material_id_material_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."material"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_store" ADD CONSTRAINT "material_store_material_id_material_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."material"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_store" ADD CONSTRAINT "material_store_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_hours_exception" ADD CONSTRAINT "store_hours_exception_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "material_category_idx" ON "material" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "material_store_store_idx" ON "material_store" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "store_city_idx" ON "store" USING btree ("city");