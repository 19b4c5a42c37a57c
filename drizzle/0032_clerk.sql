ALTER TABLE "member" ADD COLUMN "consultant_user_id" text;--> statement-breakpoint
ALTER TABLE "staff_account" ADD COLUMN "staff_code" text;--> statement-breakpoint
CREATE INDEX "purchase_clerk_sales_idx" ON "purchase" USING btree ("store_id","purchased_at") WHERE "purchase"."staff_user_id" is not null;--> statement-breakpoint
CREATE INDEX "member_consultant_idx" ON "member" USING btree ("consultant_user_id","created_at") WHERE "member"."consultant_user_id" is not null;--> statement-breakpoint
ALTER TABLE "staff_account" ADD CONSTRAINT "staff_account_staff_code_unique" UNIQUE("staff_code");