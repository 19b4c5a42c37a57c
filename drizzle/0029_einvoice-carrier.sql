ALTER TABLE "member" ADD COLUMN "einvoice_sharing" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "api_key" ADD COLUMN "scopes" text[] DEFAULT '{}'::text[] NOT NULL;