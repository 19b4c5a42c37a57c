-- ADR 025 addendum: the summary triggers run at commit (deferred) and update a few shared rows each; two
-- commits that touch two of the same rows in opposite orders (a purchase: purchase, entry, lot, account; a
-- redemption: account, lot, entry, coupon) deadlocked under the concurrency tests. A transaction-level advisory
-- lock taken by the first summary trigger of each commit (these fire just before the report_* trigger of the same
-- event: same-event triggers fire in name order) lets one commit at a time update the summaries, so no cycle can
-- form. The summary phase is a few small updates; POS writes already commit one at a time on the audit chain's head.
CREATE FUNCTION "report_serialize"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(2025112501);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT ON "member" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT ON "purchase" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT ON "purchase_refund" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT ON "point_entry" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT OR UPDATE OR DELETE ON "loyalty_account" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT OR UPDATE OR DELETE ON "point_lot" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT ON "tier_change" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "a_report_serialize" AFTER INSERT OR UPDATE ON "coupon" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "report_serialize"();
