CREATE TABLE "rich_menu" (
	"state" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"chat_bar_text" text NOT NULL,
	"selected" integer DEFAULT 0 NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"areas" jsonb NOT NULL,
	"image_type" text NOT NULL,
	"image" "bytea" NOT NULL,
	"line_rich_menu_id" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"published_by" text,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rich_menu_link" (
	"line_user_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_job" uuid,
	"claimed_at" timestamp with time zone,
	"linked_menu" text,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rich_menu_link_due_idx" ON "rich_menu_link" USING btree ("due_at");--> statement-breakpoint
-- hand-written below
-- The rich-menu outbox (ADR 049): every change that can change a LINE user's menu queues that user in the
-- change's own transaction, whichever code made it (LINE login and unlinking, sign-up, account deletion, an
-- import, a purchase's or the nightly job's tier change, a follow). The worker decides the menu when it sends.
CREATE INDEX "rich_menu_link_waiting_idx" ON "rich_menu_link" USING btree ("due_at") WHERE "status" in ('pending', 'sending');--> statement-breakpoint
CREATE FUNCTION "rich_menu_enqueue"(uid text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "rich_menu_link" ("line_user_id", "status", "generation", "attempts", "due_at", "updated_at")
  VALUES (uid, 'pending', 1, 0, now(), now())
  ON CONFLICT ("line_user_id") DO UPDATE
    -- A row being sent stays claimed (one sender at a time); its new generation sends it again afterwards.
    SET "status" = CASE WHEN "rich_menu_link"."status" = 'sending' THEN 'sending' ELSE 'pending' END,
        "generation" = "rich_menu_link"."generation" + 1,
        "attempts" = CASE WHEN "rich_menu_link"."status" = 'sending' THEN "rich_menu_link"."attempts" ELSE 0 END,
        "due_at" = now(),
        "error" = NULL,
        "updated_at" = now();
  PERFORM pg_notify('han_cache', 'richmenu');
END
$$;--> statement-breakpoint
-- Many users at once (an import, a seed, a statement's rows): one set-based upsert, each user once.
CREATE FUNCTION "rich_menu_enqueue_all"(uids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(array_length(uids, 1), 0) = 0 THEN RETURN; END IF;
  INSERT INTO "rich_menu_link" ("line_user_id", "status", "generation", "attempts", "due_at", "updated_at")
  SELECT DISTINCT u, 'pending', 1, 0, now(), now() FROM unnest(uids) AS u WHERE u IS NOT NULL
  ON CONFLICT ("line_user_id") DO UPDATE
    SET "status" = CASE WHEN "rich_menu_link"."status" = 'sending' THEN 'sending' ELSE 'pending' END,
        "generation" = "rich_menu_link"."generation" + 1,
        "attempts" = CASE WHEN "rich_menu_link"."status" = 'sending' THEN "rich_menu_link"."attempts" ELSE 0 END,
        "due_at" = now(),
        "error" = NULL,
        "updated_at" = now();
  PERFORM pg_notify('han_cache', 'richmenu');
END
$$;--> statement-breakpoint
-- Statement-level triggers with transition tables: a statement that writes 100,000 rows queues its users in one
-- upsert, not 100,000.
CREATE FUNCTION "rich_menu_on_line_account_new"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "rich_menu_enqueue_all"(ARRAY(SELECT "account_id" FROM new_rows WHERE "provider_id" = 'line'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "rich_menu_on_line_account_old"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "rich_menu_enqueue_all"(ARRAY(SELECT "account_id" FROM old_rows WHERE "provider_id" = 'line'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "rich_menu_on_line_account_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only rows whose LINE identity or owner changed (a login's token refresh changes neither).
  PERFORM "rich_menu_enqueue_all"(ARRAY(
    SELECT u FROM new_rows n JOIN old_rows o ON o."id" = n."id",
      LATERAL (VALUES (CASE WHEN o."provider_id" = 'line' THEN o."account_id" END),
                      (CASE WHEN n."provider_id" = 'line' THEN n."account_id" END)) AS v(u)
     WHERE (o."account_id", o."provider_id", o."user_id") IS DISTINCT FROM (n."account_id", n."provider_id", n."user_id")));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rich_menu_on_line_account_insert" AFTER INSERT ON "auth_account" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "rich_menu_on_line_account_new"();--> statement-breakpoint
CREATE TRIGGER "rich_menu_on_line_account_delete" AFTER DELETE ON "auth_account" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "rich_menu_on_line_account_old"();--> statement-breakpoint
CREATE TRIGGER "rich_menu_on_line_account_update" AFTER UPDATE ON "auth_account" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "rich_menu_on_line_account_change"();--> statement-breakpoint
-- A member row written after its LINE account (sign-up with LINE).
CREATE FUNCTION "rich_menu_on_member_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "rich_menu_enqueue_all"(ARRAY(
    SELECT a."account_id" FROM new_rows m JOIN "auth_account" a ON a."user_id" = m."user_id" AND a."provider_id" = 'line'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rich_menu_on_member_insert" AFTER INSERT ON "member" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "rich_menu_on_member_insert"();--> statement-breakpoint
-- A member disabled, enabled or deleted.
CREATE FUNCTION "rich_menu_on_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "rich_menu_enqueue_all"(ARRAY(
    SELECT a."account_id" FROM "auth_account" a WHERE a."user_id" = NEW."user_id" AND a."provider_id" = 'line'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rich_menu_on_member_state" AFTER UPDATE OF "disabled", "deleted_at" ON "member" FOR EACH ROW WHEN (OLD."disabled" IS DISTINCT FROM NEW."disabled" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at") EXECUTE FUNCTION "rich_menu_on_member"();--> statement-breakpoint
-- A tier change (a purchase, a refund, the nightly evaluation: many in one statement).
CREATE FUNCTION "rich_menu_on_tier_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "rich_menu_enqueue_all"(ARRAY(
    SELECT a."account_id" FROM new_rows t
      JOIN "member" m ON m."id" = t."member_id"
      JOIN "auth_account" a ON a."user_id" = m."user_id" AND a."provider_id" = 'line'));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rich_menu_on_tier_change" AFTER INSERT ON "tier_change" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "rich_menu_on_tier_change"();--> statement-breakpoint
CREATE FUNCTION "rich_menu_on_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "rich_menu_enqueue"(NEW."line_user_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rich_menu_on_follow" AFTER INSERT OR UPDATE OF "following" ON "line_friend" FOR EACH ROW WHEN (NEW."following") EXECUTE FUNCTION "rich_menu_on_follow"();
