ALTER TABLE "coupon" ALTER COLUMN "redeem_entry_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "coupon" ADD COLUMN "referral_id" uuid;--> statement-breakpoint
ALTER TABLE "coupon" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "coupon" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD COLUMN "referral_reward_kind" text DEFAULT 'points' NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD COLUMN "referral_reward_id" uuid;--> statement-breakpoint
ALTER TABLE "referral" ADD COLUMN "reward_kind" text DEFAULT 'points' NOT NULL;--> statement-breakpoint
ALTER TABLE "referral" ADD COLUMN "reward_id" uuid;--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD CONSTRAINT "loyalty_rules_referral_reward_id_reward_id_fk" FOREIGN KEY ("referral_reward_id") REFERENCES "public"."reward"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral" ADD CONSTRAINT "referral_reward_id_reward_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."reward"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_referral_member_idx" ON "coupon" USING btree ("referral_id","member_id") WHERE "coupon"."referral_id" is not null;--> statement-breakpoint
ALTER TABLE "coupon" ADD CONSTRAINT "coupon_paid_or_referral" CHECK ("coupon"."redeem_entry_id" is not null or "coupon"."referral_id" is not null);--> statement-breakpoint
ALTER TABLE "loyalty_rules" ADD CONSTRAINT "loyalty_rules_referral_coupon_reward" CHECK ("loyalty_rules"."referral_reward_kind" = 'points' or "loyalty_rules"."referral_reward_id" is not null);