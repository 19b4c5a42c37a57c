-- Cache invalidation (ADR 026): every change a per-instance cache must not outlive sends
-- pg_notify('han_cache', payload) in its own transaction; PostgreSQL delivers it at commit to every
-- instance's listening connection (PGlite to its in-process listener). Triggers, not calls in the
-- write paths, so no path (better-auth, the console, jobs, SQL by hand) can forget one.
-- Payloads: u:<user id> (sessions and member records), m:<member id> (member-center summaries),
-- <prefix>* when one statement touches more than 100 of them, m:* (catalogue, rules), k (API keys).

-- One statement's rows (the transition table "changed"): one notification per distinct id, or one
-- for all when there are many. TG_ARGV: the id column, the payload prefix.
CREATE FUNCTION "han_cache_notify_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  id text;
BEGIN
  EXECUTE format('SELECT array(SELECT DISTINCT %I::text FROM changed WHERE %I IS NOT NULL LIMIT 101)', TG_ARGV[0], TG_ARGV[0])
    INTO ids;
  IF cardinality(ids) > 100 THEN
    PERFORM pg_notify('han_cache', TG_ARGV[1] || '*');
  ELSE
    FOREACH id IN ARRAY ids LOOP
      PERFORM pg_notify('han_cache', TG_ARGV[1] || id);
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A fixed payload for any change to the table (TG_ARGV[0]).
CREATE FUNCTION "han_cache_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('han_cache', TG_ARGV[0]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "auth_session_cache_update" AFTER UPDATE ON "auth_session" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('user_id', 'u:');--> statement-breakpoint
CREATE TRIGGER "auth_session_cache_delete" AFTER DELETE ON "auth_session" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('user_id', 'u:');--> statement-breakpoint
CREATE TRIGGER "auth_user_cache_update" AFTER UPDATE ON "auth_user" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('id', 'u:');--> statement-breakpoint
CREATE TRIGGER "auth_user_cache_delete" AFTER DELETE ON "auth_user" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('id', 'u:');--> statement-breakpoint
CREATE TRIGGER "member_cache_insert" AFTER INSERT ON "member" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('user_id', 'u:');--> statement-breakpoint
CREATE TRIGGER "member_cache_update" AFTER UPDATE ON "member" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('user_id', 'u:');--> statement-breakpoint
CREATE TRIGGER "member_cache_delete" AFTER DELETE ON "member" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('user_id', 'u:');--> statement-breakpoint
CREATE TRIGGER "loyalty_account_cache_insert" AFTER INSERT ON "loyalty_account" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "loyalty_account_cache_update" AFTER UPDATE ON "loyalty_account" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "loyalty_account_cache_delete" AFTER DELETE ON "loyalty_account" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "point_entry_cache_insert" AFTER INSERT ON "point_entry" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "point_entry_cache_update" AFTER UPDATE ON "point_entry" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "point_entry_cache_delete" AFTER DELETE ON "point_entry" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "point_lot_cache_insert" AFTER INSERT ON "point_lot" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "point_lot_cache_update" AFTER UPDATE ON "point_lot" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "point_lot_cache_delete" AFTER DELETE ON "point_lot" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "purchase_cache_insert" AFTER INSERT ON "purchase" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "purchase_cache_update" AFTER UPDATE ON "purchase" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "purchase_cache_delete" AFTER DELETE ON "purchase" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "coupon_cache_insert" AFTER INSERT ON "coupon" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "coupon_cache_update" AFTER UPDATE ON "coupon" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "coupon_cache_delete" AFTER DELETE ON "coupon" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "material_favourite_cache_insert" AFTER INSERT ON "material_favourite" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "material_favourite_cache_update" AFTER UPDATE ON "material_favourite" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "material_favourite_cache_delete" AFTER DELETE ON "material_favourite" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "reward_cache" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "reward" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "loyalty_rules_cache" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "loyalty_rules" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "store_cache" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "store" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "material_cache" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "material" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "api_key_cache" AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "store_id", "name", "prefix", "secret_hash", "revoked_at" ON "api_key" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('k');--> statement-breakpoint
CREATE TRIGGER "auth_session_cache_truncate" AFTER TRUNCATE ON "auth_session" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('u:*');--> statement-breakpoint
CREATE TRIGGER "auth_user_cache_truncate" AFTER TRUNCATE ON "auth_user" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('u:*');--> statement-breakpoint
CREATE TRIGGER "member_cache_truncate" AFTER TRUNCATE ON "member" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('u:*');--> statement-breakpoint
CREATE TRIGGER "loyalty_account_cache_truncate" AFTER TRUNCATE ON "loyalty_account" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "point_entry_cache_truncate" AFTER TRUNCATE ON "point_entry" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "point_lot_cache_truncate" AFTER TRUNCATE ON "point_lot" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "purchase_cache_truncate" AFTER TRUNCATE ON "purchase" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "coupon_cache_truncate" AFTER TRUNCATE ON "coupon" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "material_favourite_cache_truncate" AFTER TRUNCATE ON "material_favourite" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');
