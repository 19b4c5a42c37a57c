-- hand-written (mcbench)
-- The member pages' terms gate (ADR 038 "Consents") is cached per instance like the session (ADR 026, issue 36):
-- its answer depends on the member's import rows and the user's consents, so a change to either drops it on
-- every instance. member_source → m:<member id>; member_consent → u:<user id> (the entry carries both tags).
CREATE TRIGGER "member_source_cache_insert" AFTER INSERT ON "member_source" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "member_source_cache_update" AFTER UPDATE ON "member_source" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "member_source_cache_delete" AFTER DELETE ON "member_source" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('member_id', 'm:');--> statement-breakpoint
CREATE TRIGGER "member_source_cache_truncate" AFTER TRUNCATE ON "member_source" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('m:*');--> statement-breakpoint
CREATE TRIGGER "member_consent_cache_insert" AFTER INSERT ON "member_consent" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('user_id', 'u:');--> statement-breakpoint
CREATE TRIGGER "member_consent_cache_update" AFTER UPDATE ON "member_consent" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('user_id', 'u:');--> statement-breakpoint
CREATE TRIGGER "member_consent_cache_delete" AFTER DELETE ON "member_consent" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify_rows"('user_id', 'u:');--> statement-breakpoint
CREATE TRIGGER "member_consent_cache_truncate" AFTER TRUNCATE ON "member_consent" FOR EACH STATEMENT EXECUTE FUNCTION "han_cache_notify"('u:*');
