CREATE TABLE "console_idempotency" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "console_idempotency_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "console_idempotency" ADD CONSTRAINT "console_idempotency_user_id_staff_account_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_account"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "console_idempotency_created_idx" ON "console_idempotency" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "coupon_used_store_idx" ON "coupon" USING btree ("used_store_id","used_at");--> statement-breakpoint
CREATE INDEX "purchase_store_created_idx" ON "purchase" USING btree ("store_id","created_at");--> statement-breakpoint
CREATE INDEX "purchase_refund_created_idx" ON "purchase_refund" USING btree ("created_at");