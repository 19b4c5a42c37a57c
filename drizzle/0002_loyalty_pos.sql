CREATE TABLE "coupon" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"reward_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"status" text DEFAULT 'issued' NOT NULL,
	"points_cost" integer NOT NULL,
	"redeem_entry_id" uuid NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_store_id" text,
	"used_by_staff_user_id" text,
	"used_by_api_key_id" text,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "coupon_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "loyalty_account" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"negative_since" timestamp with time zone,
	"tier" text DEFAULT 'basic' NOT NULL,
	"tier_since" timestamp with time zone DEFAULT now() NOT NULL,
	"last_downgrade_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loyalty_rules" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"amount_per_point" integer DEFAULT 100 NOT NULL,
	"silver_spend" integer DEFAULT 50000 NOT NULL,
	"gold_spend" integer DEFAULT 200000 NOT NULL,
	"basic_multiplier_permille" integer DEFAULT 1000 NOT NULL,
	"silver_multiplier_permille" integer DEFAULT 1200 NOT NULL,
	"gold_multiplier_permille" integer DEFAULT 1500 NOT NULL,
	"welcome_enabled" boolean DEFAULT true NOT NULL,
	"welcome_points" integer DEFAULT 100 NOT NULL,
	"birthday_enabled" boolean DEFAULT true NOT NULL,
	"birthday_points" integer DEFAULT 200 NOT NULL,
	"effective_from" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "point_entry" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"lot_expires_at" timestamp with time zone,
	"store_id" text,
	"receipt_number" text,
	"staff_user_id" text,
	"api_key_id" text,
	"purchase_id" uuid,
	"coupon_id" uuid,
	"reason" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_entry_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "point_lot" (
	"entry_id" uuid PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"remaining" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"expired" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "point_lot_remaining_nonnegative" CHECK ("point_lot"."remaining" >= 0)
);
--> statement-breakpoint
CREATE TABLE "point_lot_use" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"debit_entry_id" uuid NOT NULL,
	"lot_entry_id" uuid NOT NULL,
	"points" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" text NOT NULL,
	"receipt_number" text NOT NULL,
	"member_id" uuid NOT NULL,
	"net_amount" integer NOT NULL,
	"purchased_at" timestamp with time zone NOT NULL,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"points_earned" integer DEFAULT 0 NOT NULL,
	"points_reversed" integer DEFAULT 0 NOT NULL,
	"staff_user_id" text,
	"api_key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_store_receipt_unique" UNIQUE("store_id","receipt_number"),
	CONSTRAINT "purchase_amounts" CHECK ("purchase"."net_amount" > 0 and "purchase"."refunded_amount" between 0 and "purchase"."net_amount")
);
--> statement-breakpoint
CREATE TABLE "purchase_refund" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchase_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"points_reversed" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"staff_user_id" text,
	"api_key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_refund_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "reward" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"amount_off" integer,
	"points_cost" integer NOT NULL,
	"stock" integer,
	"per_member_limit" integer,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"store_ids" text[],
	"coupon_valid_days" integer DEFAULT 90 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tier_change" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"from_tier" text NOT NULL,
	"to_tier" text NOT NULL,
	"reason" text NOT NULL,
	"spend_12_months" integer NOT NULL,
	"rules_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_idempotency" (
	"api_key_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_idempotency_api_key_id_key_pk" PRIMARY KEY("api_key_id","key")
);
--> statement-breakpoint
CREATE TABLE "api_key" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"store_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_key_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
ALTER TABLE "coupon" ADD CONSTRAINT "coupon_reward_id_reward_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."reward"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon" ADD CONSTRAINT "coupon_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_account" ADD CONSTRAINT "loyalty_account_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_entry" ADD CONSTRAINT "point_entry_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_lot" ADD CONSTRAINT "point_lot_entry_id_point_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."point_entry"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_lot" ADD CONSTRAINT "point_lot_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_lot_use" ADD CONSTRAINT "point_lot_use_debit_entry_id_point_entry_id_fk" FOREIGN KEY ("debit_entry_id") REFERENCES "public"."point_entry"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_lot_use" ADD CONSTRAINT "point_lot_use_lot_entry_id_point_lot_entry_id_fk" FOREIGN KEY ("lot_entry_id") REFERENCES "public"."point_lot"("entry_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_refund" ADD CONSTRAINT "purchase_refund_purchase_id_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tier_change" ADD CONSTRAINT "tier_change_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_idempotency" ADD CONSTRAINT "api_idempotency_api_key_id_api_key_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_key"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coupon_member_idx" ON "coupon" USING btree ("member_id","reward_id");--> statement-breakpoint
CREATE INDEX "point_entry_member_idx" ON "point_entry" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "point_lot_member_idx" ON "point_lot" USING btree ("member_id","expires_at");--> statement-breakpoint
CREATE INDEX "point_lot_expiry_idx" ON "point_lot" USING btree ("expires_at") WHERE "point_lot"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "point_lot_use_debit_idx" ON "point_lot_use" USING btree ("debit_entry_id");--> statement-breakpoint
CREATE INDEX "purchase_member_idx" ON "purchase" USING btree ("member_id","purchased_at");--> statement-breakpoint
CREATE INDEX "purchase_refund_purchase_idx" ON "purchase_refund" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "tier_change_member_idx" ON "tier_change" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "api_idempotency_created_idx" ON "api_idempotency" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "api_key_store_idx" ON "api_key" USING btree ("store_id");--> statement-breakpoint
-- The rules in force until an admin changes them: the PRODUCT.md §4 defaults (column defaults).
INSERT INTO "loyalty_rules" ("note") VALUES ('defaults from PRODUCT.md §4');
