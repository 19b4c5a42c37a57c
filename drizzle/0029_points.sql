ALTER TABLE "loyalty_rules" ADD COLUMN "max_spend_percent" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "points_spent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "points_spent_value" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "points_returned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase_refund" ADD COLUMN "points_returned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_points_spent" CHECK ("purchase"."points_spent" >= 0 and "purchase"."points_spent_value" between 0 and "purchase"."net_amount" and "purchase"."points_returned" between 0 and "purchase"."points_spent");