-- Custom SQL migration file, put your code below! --
-- hand-written below
-- Issue 36 / ADR 039 "What a purchase's triggers cost": the cache-invalidation trigger function without EXECUTE
-- (static statements for the columns the triggers name, planned once per session and table), and the dashboard's
-- loyalty_account triggers split so an update that changes neither tier nor balance (the purchase's last-purchase
-- update, a login's, …) queues no summary event at commit.
CREATE OR REPLACE FUNCTION "han_cache_notify_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
  id text;
BEGIN
  -- Static statements for the columns the triggers name (their plans are kept per session and table); any other
  -- column goes through EXECUTE, which parses and plans the statement at every call.
  CASE TG_ARGV[0]
    WHEN 'member_id' THEN
      SELECT array(SELECT DISTINCT member_id::text FROM changed WHERE member_id IS NOT NULL LIMIT 101) INTO ids;
    WHEN 'user_id' THEN
      SELECT array(SELECT DISTINCT user_id::text FROM changed WHERE user_id IS NOT NULL LIMIT 101) INTO ids;
    WHEN 'id' THEN
      SELECT array(SELECT DISTINCT changed.id::text FROM changed WHERE changed.id IS NOT NULL LIMIT 101) INTO ids;
    ELSE
      EXECUTE format('SELECT array(SELECT DISTINCT %I::text FROM changed WHERE %I IS NOT NULL LIMIT 101)', TG_ARGV[0], TG_ARGV[0])
        INTO ids;
  END CASE;
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
DROP TRIGGER "report_loyalty_account" ON "loyalty_account";--> statement-breakpoint
DROP TRIGGER "a_report_serialize" ON "loyalty_account";--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT OR DELETE ON "loyalty_account" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_loyalty_account" AFTER INSERT OR DELETE ON "loyalty_account" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_on_account"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize_update" AFTER UPDATE ON "loyalty_account" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.tier IS DISTINCT FROM NEW.tier OR OLD.balance IS DISTINCT FROM NEW.balance OR OLD.member_id IS DISTINCT FROM NEW.member_id)
  EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "report_loyalty_account_update" AFTER UPDATE ON "loyalty_account" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.tier IS DISTINCT FROM NEW.tier OR OLD.balance IS DISTINCT FROM NEW.balance OR OLD.member_id IS DISTINCT FROM NEW.member_id)
  EXECUTE FUNCTION "report_on_account"();
