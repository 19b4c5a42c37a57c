CREATE TABLE "appointment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"store_id" text NOT NULL,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"local_date" date NOT NULL,
	"member_id" uuid,
	"guest_phone" text,
	"guest_name" text,
	"status" text DEFAULT 'booked' NOT NULL,
	"material_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"address" jsonb,
	"locale" text DEFAULT 'zh-TW' NOT NULL,
	"source" text DEFAULT 'web' NOT NULL,
	"consultant_user_id" text,
	"checked_in_at" timestamp with time zone,
	"checked_in_by" text,
	"no_show_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text,
	"visit_note" text,
	"follow_up_on" date,
	"follow_up_done_at" timestamp with time zone,
	"needs_call_at" timestamp with time zone,
	"confirmation_sent_at" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	"reschedule_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_reference_unique" UNIQUE("reference"),
	CONSTRAINT "appointment_owner_ck" CHECK ("appointment"."member_id" is not null or "appointment"."guest_phone" is not null),
	CONSTRAINT "appointment_address_ck" CHECK (("appointment"."kind" = 'measuring') = ("appointment"."address" is not null))
);
--> statement-breakpoint
CREATE TABLE "appointment_slot" (
	"store_id" text NOT NULL,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"booked" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "appointment_slot_store_id_kind_starts_at_pk" PRIMARY KEY("store_id","kind","starts_at"),
	CONSTRAINT "appointment_slot_booked_ck" CHECK ("appointment_slot"."booked" >= 0)
);
--> statement-breakpoint
CREATE TABLE "store_appointment_kind" (
	"store_id" text NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"duration_minutes" integer NOT NULL,
	"capacity" integer DEFAULT 1 NOT NULL,
	"weekly_slots" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_appointment_kind_store_id_kind_pk" PRIMARY KEY("store_id","kind"),
	CONSTRAINT "store_appointment_kind_duration_ck" CHECK ("store_appointment_kind"."duration_minutes" between 15 and 480),
	CONSTRAINT "store_appointment_kind_capacity_ck" CHECK ("store_appointment_kind"."capacity" between 1 and 50)
);
--> statement-breakpoint
ALTER TABLE "appointment" ADD CONSTRAINT "appointment_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment" ADD CONSTRAINT "appointment_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment" ADD CONSTRAINT "appointment_consultant_user_id_staff_account_user_id_fk" FOREIGN KEY ("consultant_user_id") REFERENCES "public"."staff_account"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_slot" ADD CONSTRAINT "appointment_slot_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_appointment_kind" ADD CONSTRAINT "store_appointment_kind_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_store_day_idx" ON "appointment" USING btree ("store_id","local_date","starts_at");--> statement-breakpoint
CREATE INDEX "appointment_member_idx" ON "appointment" USING btree ("member_id","starts_at");--> statement-breakpoint
CREATE INDEX "appointment_guest_phone_idx" ON "appointment" USING btree ("guest_phone") WHERE "appointment"."guest_phone" is not null;--> statement-breakpoint
CREATE INDEX "appointment_follow_up_idx" ON "appointment" USING btree ("consultant_user_id","follow_up_on") WHERE "appointment"."follow_up_on" is not null and "appointment"."follow_up_done_at" is null;--> statement-breakpoint
CREATE INDEX "appointment_open_idx" ON "appointment" USING btree ("starts_at") WHERE "appointment"."status" = 'booked';