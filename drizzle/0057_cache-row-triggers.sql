-- Custom SQL migration file, put your code below! --
-- hand-written below
-- Issue 36 / ADR 039 "Later (2026-12-07, statements)": the cache-invalidation triggers of the purchase's tables fire
-- per row, and on an update only when a column a per-instance cache reads changed. Before, a purchase made seven
-- statement-level firings (each with a transition table and a query over it), all sending the same m:<member>.
-- - Updates of loyalty_account, purchase, point_entry, point_lot and member: FOR EACH ROW WHEN one of the cached
--   columns changed (app/domain/cache-columns.ts names every column of these tables as cached or not; its test holds
--   these WHEN clauses to that list). The purchase's answer, its last purchase (the account's last_purchase_at, the
--   member's last_purchase_store_id) and updated_at fire nothing.
-- - Inserts into purchase, point_entry and point_lot: FOR EACH ROW.
-- - The row functions send m:<member> (u:<user> for member) once for a run of rows of the same id, and from the
--   101st distinct id in one transaction one m:* (u:*) instead of more ids: the bulk case, as the statement triggers
--   did per statement. A row moved to another member (user) notifies both.
-- Deletes, truncates, the other tables and the inserts of loyalty_account and member keep their statement triggers.
CREATE FUNCTION "han_cache_notify_member_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  id text;
  n int;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.member_id IS DISTINCT FROM NEW.member_id AND OLD.member_id IS NOT NULL THEN
    ids := ARRAY[OLD.member_id::text, NEW.member_id::text];
  ELSIF NEW.member_id IS NULL OR NEW.member_id::text = current_setting('han.cache_m_last', true) THEN
    RETURN NULL;
  ELSE
    ids := ARRAY[NEW.member_id::text];
  END IF;
  FOREACH id IN ARRAY ids LOOP
    CONTINUE WHEN id IS NULL;
    n := coalesce(nullif(current_setting('han.cache_m_rows', true), ''), '0')::int + 1;
    PERFORM set_config('han.cache_m_rows', n::text, true);
    IF n <= 100 THEN
      PERFORM pg_notify('han_cache', 'm:' || id);
    ELSIF n = 101 THEN
      PERFORM pg_notify('han_cache', 'm:*');
    END IF;
  END LOOP;
  PERFORM set_config('han.cache_m_last', NEW.member_id::text, true);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "han_cache_notify_user_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  id text;
  n int;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id AND OLD.user_id IS NOT NULL THEN
    ids := ARRAY[OLD.user_id::text, NEW.user_id::text];
  ELSIF NEW.user_id IS NULL OR NEW.user_id::text = current_setting('han.cache_u_last', true) THEN
    RETURN NULL;
  ELSE
    ids := ARRAY[NEW.user_id::text];
  END IF;
  FOREACH id IN ARRAY ids LOOP
    CONTINUE WHEN id IS NULL;
    n := coalesce(nullif(current_setting('han.cache_u_rows', true), ''), '0')::int + 1;
    PERFORM set_config('han.cache_u_rows', n::text, true);
    IF n <= 100 THEN
      PERFORM pg_notify('han_cache', 'u:' || id);
    ELSIF n = 101 THEN
      PERFORM pg_notify('han_cache', 'u:*');
    END IF;
  END LOOP;
  PERFORM set_config('han.cache_u_last', NEW.user_id::text, true);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "loyalty_account_cache_update" ON "loyalty_account";--> statement-breakpoint
CREATE TRIGGER "loyalty_account_cache_update" AFTER UPDATE ON "loyalty_account" FOR EACH ROW
  WHEN (OLD."member_id" IS DISTINCT FROM NEW."member_id" OR OLD."balance" IS DISTINCT FROM NEW."balance" OR OLD."tier" IS DISTINCT FROM NEW."tier")
  EXECUTE FUNCTION "han_cache_notify_member_row"();--> statement-breakpoint
DROP TRIGGER "purchase_cache_update" ON "purchase";--> statement-breakpoint
CREATE TRIGGER "purchase_cache_update" AFTER UPDATE ON "purchase" FOR EACH ROW
  WHEN (OLD."id" IS DISTINCT FROM NEW."id" OR OLD."member_id" IS DISTINCT FROM NEW."member_id" OR OLD."store_id" IS DISTINCT FROM NEW."store_id" OR OLD."receipt_number" IS DISTINCT FROM NEW."receipt_number" OR OLD."net_amount" IS DISTINCT FROM NEW."net_amount" OR OLD."purchased_at" IS DISTINCT FROM NEW."purchased_at" OR OLD."refunded_amount" IS DISTINCT FROM NEW."refunded_amount" OR OLD."points_spent_value" IS DISTINCT FROM NEW."points_spent_value")
  EXECUTE FUNCTION "han_cache_notify_member_row"();--> statement-breakpoint
DROP TRIGGER "point_entry_cache_update" ON "point_entry";--> statement-breakpoint
CREATE TRIGGER "point_entry_cache_update" AFTER UPDATE ON "point_entry" FOR EACH ROW
  WHEN (OLD."id" IS DISTINCT FROM NEW."id" OR OLD."member_id" IS DISTINCT FROM NEW."member_id" OR OLD."kind" IS DISTINCT FROM NEW."kind" OR OLD."amount" IS DISTINCT FROM NEW."amount" OR OLD."reason" IS DISTINCT FROM NEW."reason" OR OLD."purchase_id" IS DISTINCT FROM NEW."purchase_id" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "han_cache_notify_member_row"();--> statement-breakpoint
DROP TRIGGER "point_lot_cache_update" ON "point_lot";--> statement-breakpoint
CREATE TRIGGER "point_lot_cache_update" AFTER UPDATE ON "point_lot" FOR EACH ROW
  WHEN (OLD."member_id" IS DISTINCT FROM NEW."member_id" OR OLD."remaining" IS DISTINCT FROM NEW."remaining" OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at")
  EXECUTE FUNCTION "han_cache_notify_member_row"();--> statement-breakpoint
DROP TRIGGER "purchase_cache_insert" ON "purchase";--> statement-breakpoint
CREATE TRIGGER "purchase_cache_insert" AFTER INSERT ON "purchase" FOR EACH ROW EXECUTE FUNCTION "han_cache_notify_member_row"();--> statement-breakpoint
DROP TRIGGER "point_entry_cache_insert" ON "point_entry";--> statement-breakpoint
CREATE TRIGGER "point_entry_cache_insert" AFTER INSERT ON "point_entry" FOR EACH ROW EXECUTE FUNCTION "han_cache_notify_member_row"();--> statement-breakpoint
DROP TRIGGER "point_lot_cache_insert" ON "point_lot";--> statement-breakpoint
CREATE TRIGGER "point_lot_cache_insert" AFTER INSERT ON "point_lot" FOR EACH ROW EXECUTE FUNCTION "han_cache_notify_member_row"();--> statement-breakpoint
DROP TRIGGER "member_cache_update" ON "member";--> statement-breakpoint
CREATE TRIGGER "member_cache_update" AFTER UPDATE ON "member" FOR EACH ROW
  WHEN (OLD."id" IS DISTINCT FROM NEW."id" OR OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."member_number" IS DISTINCT FROM NEW."member_number" OR OLD."name_zh" IS DISTINCT FROM NEW."name_zh" OR OLD."gender" IS DISTINCT FROM NEW."gender" OR OLD."birthday" IS DISTINCT FROM NEW."birthday" OR OLD."birthday_changed_at" IS DISTINCT FROM NEW."birthday_changed_at" OR OLD."phone_number" IS DISTINCT FROM NEW."phone_number" OR OLD."email" IS DISTINCT FROM NEW."email" OR OLD."pending_email" IS DISTINCT FROM NEW."pending_email" OR OLD."company_name" IS DISTINCT FROM NEW."company_name" OR OLD."tax_id_number" IS DISTINCT FROM NEW."tax_id_number" OR OLD."einvoice_carrier" IS DISTINCT FROM NEW."einvoice_carrier" OR OLD."einvoice_sharing" IS DISTINCT FROM NEW."einvoice_sharing" OR OLD."city" IS DISTINCT FROM NEW."city" OR OLD."district" IS DISTINCT FROM NEW."district" OR OLD."postal_code" IS DISTINCT FROM NEW."postal_code" OR OLD."street" IS DISTINCT FROM NEW."street" OR OLD."marketing_sms" IS DISTINCT FROM NEW."marketing_sms" OR OLD."marketing_email" IS DISTINCT FROM NEW."marketing_email" OR OLD."marketing_line" IS DISTINCT FROM NEW."marketing_line" OR OLD."member_level" IS DISTINCT FROM NEW."member_level" OR OLD."disabled" IS DISTINCT FROM NEW."disabled" OR OLD."locale" IS DISTINCT FROM NEW."locale" OR OLD."signup_method" IS DISTINCT FROM NEW."signup_method" OR OLD."last_login_at" IS DISTINCT FROM NEW."last_login_at" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at" OR OLD."created_at" IS DISTINCT FROM NEW."created_at" OR OLD."updated_at" IS DISTINCT FROM NEW."updated_at" OR OLD."name_grams" IS DISTINCT FROM NEW."name_grams" OR OLD."consultant_user_id" IS DISTINCT FROM NEW."consultant_user_id" OR OLD."referral_code" IS DISTINCT FROM NEW."referral_code")
  EXECUTE FUNCTION "han_cache_notify_user_row"();
