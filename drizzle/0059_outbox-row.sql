ALTER TABLE "webhook_delivery" DROP CONSTRAINT "webhook_delivery_endpoint_id_webhook_endpoint_id_fk";--> statement-breakpoint
-- hand-written below
-- The webhook outbox's row per event, cheaper (issue 38, "≤ 10 % of a purchase's cost"; ADR 054 "Later (2026-12-07)").
-- 1. The foreign key above is gone: its check ran a query per outbox row that locked the endpoint's row FOR KEY SHARE
--    (a WAL record per event, a multixact when several purchases lock it at once). A row is only written for an
--    endpoint with a subscription (whose key is checked), the product never deletes an endpoint (it disables it), and
--    a deleted one's rows go with it by the trigger below, as the cascade did.
CREATE FUNCTION "webhook_endpoint_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "webhook_delivery" WHERE "endpoint_id" = OLD."id";
  RETURN OLD;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_endpoint_deleted" BEFORE DELETE ON "webhook_endpoint" FOR EACH ROW EXECUTE FUNCTION "webhook_endpoint_deleted"();--> statement-breakpoint
-- 2. The purchase path's triggers (a purchase, its points) write the event in one statement: the subscriptions, the
--    member's fields as the endpoint's scope allows (a join, not a webhook_member call per row) and the payload built
--    only for a row written. Before: webhook_wanted (a function and its query), then webhook_enqueue (a function and
--    its query) whose insert called webhook_member (a function and its query) per row — three functions and four
--    queries per event, one function and one query with nothing subscribed; now one query either way. Same rows,
--    same payloads (the member null when there is none), same notification.
CREATE OR REPLACE FUNCTION "webhook_on_purchase"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_delivery" ("endpoint_id", "event_type", "member_id", "data")
  SELECT s."endpoint_id", 'purchase.created', NEW."member_id", jsonb_build_object(
           'purchase', jsonb_build_object(
             'id', NEW."id", 'storeId', NEW."store_id", 'receiptNumber', NEW."receipt_number",
             'netAmount', NEW."net_amount", 'purchasedAt', NEW."purchased_at", 'pointsEarned', NEW."points_earned",
             'pointsSpent', NEW."points_spent", 'pointsSpentValue', NEW."points_spent_value"),
           'member', CASE WHEN m."id" IS NULL THEN NULL
              WHEN s."pii" THEN jsonb_build_object(
                'id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
                'createdAt', m."created_at", 'name', m."name_zh", 'phone', m."phone_number", 'email', m."email",
                'birthday', m."birthday", 'gender', m."gender", 'locale', m."locale",
                'address', jsonb_build_object('postalCode', m."postal_code", 'city', m."city",
                                              'district', m."district", 'street', m."street"))
              ELSE jsonb_build_object('id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
                                      'createdAt', m."created_at") END)
    FROM "webhook_subscription" s LEFT JOIN "member" m ON m."id" = NEW."member_id"
   WHERE s."event_type" = 'purchase.created';
  IF FOUND THEN PERFORM pg_notify('han_cache', 'webhook'); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "webhook_on_point_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := CASE WHEN NEW."kind" = 'expire' THEN 'points.expired'
                    WHEN NEW."kind" IN ('redeem', 'spend-purchase') THEN 'points.spent'
                    ELSE 'points.earned' END;
BEGIN
  INSERT INTO "webhook_delivery" ("endpoint_id", "event_type", "member_id", "data")
  SELECT s."endpoint_id", kind, NEW."member_id", jsonb_build_object(
           'entry', jsonb_build_object(
             'id', NEW."id", 'kind', NEW."kind", 'points', NEW."amount", 'storeId', NEW."store_id",
             'purchaseId', NEW."purchase_id", 'couponId', NEW."coupon_id", 'expiresAt', NEW."lot_expires_at",
             'createdAt', NEW."created_at"),
           'member', CASE WHEN m."id" IS NULL THEN NULL
              WHEN s."pii" THEN jsonb_build_object(
                'id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
                'createdAt', m."created_at", 'name', m."name_zh", 'phone', m."phone_number", 'email', m."email",
                'birthday', m."birthday", 'gender', m."gender", 'locale', m."locale",
                'address', jsonb_build_object('postalCode', m."postal_code", 'city', m."city",
                                              'district', m."district", 'street', m."street"))
              ELSE jsonb_build_object('id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
                                      'createdAt', m."created_at") END)
    FROM "webhook_subscription" s LEFT JOIN "member" m ON m."id" = NEW."member_id"
   WHERE s."event_type" = kind;
  IF FOUND THEN PERFORM pg_notify('han_cache', 'webhook'); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- 3. The other events' shared insert joins the member too (no webhook_member call per row); their triggers still ask
--    webhook_wanted first (they are not on a purchase's path). webhook_member stays for the bookings' trigger.
CREATE OR REPLACE FUNCTION "webhook_enqueue"(kind text, mid uuid, body jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_delivery" ("endpoint_id", "event_type", "member_id", "data")
  SELECT s."endpoint_id", kind, mid, body || jsonb_build_object('member', CASE WHEN m."id" IS NULL THEN NULL
              WHEN s."pii" THEN jsonb_build_object(
                'id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
                'createdAt', m."created_at", 'name', m."name_zh", 'phone', m."phone_number", 'email', m."email",
                'birthday', m."birthday", 'gender', m."gender", 'locale', m."locale",
                'address', jsonb_build_object('postalCode', m."postal_code", 'city', m."city",
                                              'district', m."district", 'street', m."street"))
              ELSE jsonb_build_object('id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
                                      'createdAt', m."created_at") END)
    FROM "webhook_subscription" s LEFT JOIN "member" m ON m."id" = mid
   WHERE s."event_type" = kind;
  IF FOUND THEN PERFORM pg_notify('han_cache', 'webhook'); END IF;
END
$$;
