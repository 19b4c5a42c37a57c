CREATE TABLE "reward_stock_change" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reward_id" uuid NOT NULL,
	"delta" integer,
	"stock_after" integer,
	"reason" text NOT NULL,
	"staff_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reward" ADD COLUMN "image" jsonb;--> statement-breakpoint
ALTER TABLE "reward" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "reward" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "reward_stock_change" ADD CONSTRAINT "reward_stock_change_reward_id_reward_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."reward"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_stock_change_reward_idx" ON "reward_stock_change" USING btree ("reward_id","created_at");--> statement-breakpoint
ALTER TABLE "reward" ADD CONSTRAINT "reward_points_cost_positive" CHECK ("reward"."points_cost" > 0);--> statement-breakpoint
ALTER TABLE "reward" ADD CONSTRAINT "reward_stock_nonnegative" CHECK ("reward"."stock" is null or "reward"."stock" >= 0);--> statement-breakpoint
ALTER TABLE "reward" ADD CONSTRAINT "reward_per_member_limit_positive" CHECK ("reward"."per_member_limit" is null or "reward"."per_member_limit" > 0);