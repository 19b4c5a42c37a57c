CREATE TABLE "showroom_settings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"booking_horizon_days" integer NOT NULL,
	"change_cutoff_minutes" integer NOT NULL,
	"reminder_hour" integer NOT NULL,
	"no_show_grace_minutes" integer NOT NULL,
	"sample_limit" integer NOT NULL,
	"sample_loan_days" integer NOT NULL,
	"sample_reminder_days" integer NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "showroom_settings_bounds_ck" CHECK ("showroom_settings"."booking_horizon_days" between 1 and 365 and "showroom_settings"."change_cutoff_minutes" between 0 and 4320
        and "showroom_settings"."reminder_hour" between 9 and 20 and "showroom_settings"."no_show_grace_minutes" between 1 and 1440
        and "showroom_settings"."sample_limit" between 1 and 50 and "showroom_settings"."sample_loan_days" between 1 and 90
        and "showroom_settings"."sample_reminder_days" between 1 and 30 and "showroom_settings"."sample_reminder_days" < "showroom_settings"."sample_loan_days")
);
