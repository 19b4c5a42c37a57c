CREATE TABLE "webhook_attempt" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"status_code" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	"manual" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"member_id" uuid,
	"data" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_attempt_at" timestamp with time zone,
	"claim_job" uuid,
	"claimed_at" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoint" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_until" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_subscription" (
	"event_type" text NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"pii" boolean DEFAULT false NOT NULL,
	CONSTRAINT "webhook_subscription_event_type_endpoint_id_pk" PRIMARY KEY("event_type","endpoint_id")
);
--> statement-breakpoint
ALTER TABLE "webhook_attempt" ADD CONSTRAINT "webhook_attempt_delivery_id_webhook_delivery_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_delivery"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_endpoint_id_webhook_endpoint_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoint"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscription" ADD CONSTRAINT "webhook_subscription_endpoint_id_webhook_endpoint_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoint"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempt_delivery_idx" ON "webhook_attempt" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "webhook_delivery_pending_idx" ON "webhook_delivery" USING btree ("seq") WHERE "webhook_delivery"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_delivery_sending_idx" ON "webhook_delivery" USING btree ("claimed_at") WHERE "webhook_delivery"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "webhook_delivery_open_idx" ON "webhook_delivery" USING btree ("endpoint_id","member_id","seq") WHERE "webhook_delivery"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "webhook_delivery_endpoint_idx" ON "webhook_delivery" USING btree ("endpoint_id","seq");--> statement-breakpoint
-- hand-written below
-- The webhook outbox (issue 38 part 4, ADR 054): every source table's trigger writes one row per subscribed enabled
-- endpoint in the transaction of the change, whichever code made it. `webhook_subscription` is the only table read
-- first: with no endpoint taking the event the trigger ends after one index probe.
CREATE INDEX "webhook_subscription_event_idx" ON "webhook_subscription" USING btree ("event_type");--> statement-breakpoint
-- A member as a payload names them: id and number always; the personal fields only for a `member:pii` endpoint.
CREATE FUNCTION "webhook_member"(mid uuid, pii boolean) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN pii THEN jsonb_build_object(
           'id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
           'createdAt', m."created_at", 'name', m."name_zh", 'phone', m."phone_number", 'email', m."email",
           'birthday', m."birthday", 'gender', m."gender", 'locale', m."locale",
           'address', jsonb_build_object('postalCode', m."postal_code", 'city', m."city", 'district', m."district",
                                         'street', m."street"))
         ELSE jsonb_build_object('id', m."id", 'memberNumber', m."member_number", 'disabled', m."disabled",
                                 'createdAt', m."created_at") END
    FROM "member" m WHERE m."id" = mid
$$;--> statement-breakpoint
-- One event for every endpoint taking it: `body` plus the member as the endpoint's scopes allow.
CREATE FUNCTION "webhook_enqueue"(kind text, mid uuid, body jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_delivery" ("endpoint_id", "event_type", "member_id", "data")
  SELECT s."endpoint_id", kind, mid, body || jsonb_build_object('member', webhook_member(mid, s."pii"))
    FROM "webhook_subscription" s WHERE s."event_type" = kind;
  IF FOUND THEN PERFORM pg_notify('han_cache', 'webhook'); END IF;
END
$$;--> statement-breakpoint
CREATE FUNCTION "webhook_wanted"(kind text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "webhook_subscription" WHERE "event_type" = kind)
$$;--> statement-breakpoint
CREATE FUNCTION "webhook_on_member"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := CASE WHEN TG_OP = 'INSERT' THEN 'member.created'
                    WHEN NEW."disabled" AND NOT OLD."disabled" THEN 'member.disabled'
                    ELSE 'member.updated' END;
BEGIN
  IF NOT webhook_wanted(kind) THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue(kind, NEW."id", '{}'::jsonb);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_member_insert" AFTER INSERT ON "member" FOR EACH ROW EXECUTE FUNCTION "webhook_on_member"();--> statement-breakpoint
-- The member's own data changed (not a login, a purchase's last store or the consultant).
CREATE TRIGGER "webhook_member_update" AFTER UPDATE ON "member" FOR EACH ROW
  WHEN ((OLD."name_zh", OLD."gender", OLD."birthday", OLD."phone_number", OLD."email", OLD."company_name",
         OLD."tax_id_number", OLD."city", OLD."district", OLD."postal_code", OLD."street", OLD."marketing_sms",
         OLD."marketing_email", OLD."marketing_line", OLD."locale", OLD."disabled", OLD."deleted_at")
        IS DISTINCT FROM
        (NEW."name_zh", NEW."gender", NEW."birthday", NEW."phone_number", NEW."email", NEW."company_name",
         NEW."tax_id_number", NEW."city", NEW."district", NEW."postal_code", NEW."street", NEW."marketing_sms",
         NEW."marketing_email", NEW."marketing_line", NEW."locale", NEW."disabled", NEW."deleted_at"))
  EXECUTE FUNCTION "webhook_on_member"();--> statement-breakpoint
CREATE FUNCTION "webhook_on_purchase"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_wanted('purchase.created') THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue('purchase.created', NEW."member_id", jsonb_build_object('purchase', jsonb_build_object(
    'id', NEW."id", 'storeId', NEW."store_id", 'receiptNumber', NEW."receipt_number", 'netAmount', NEW."net_amount",
    'purchasedAt', NEW."purchased_at", 'pointsEarned', NEW."points_earned", 'pointsSpent', NEW."points_spent",
    'pointsSpentValue', NEW."points_spent_value")));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_purchase_insert" AFTER INSERT ON "purchase" FOR EACH ROW EXECUTE FUNCTION "webhook_on_purchase"();--> statement-breakpoint
CREATE FUNCTION "webhook_on_refund"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p record;
BEGIN
  IF NOT webhook_wanted('purchase.refunded') THEN RETURN NULL; END IF;
  SELECT "member_id", "store_id", "receipt_number", "net_amount", "refunded_amount" INTO p
    FROM "purchase" WHERE "id" = NEW."purchase_id";
  PERFORM webhook_enqueue('purchase.refunded', p."member_id", jsonb_build_object('refund', jsonb_build_object(
    'id', NEW."id", 'purchaseId', NEW."purchase_id", 'storeId', p."store_id", 'receiptNumber', p."receipt_number",
    'amount', NEW."amount", 'pointsReversed', NEW."points_reversed", 'pointsReturned', NEW."points_returned",
    'createdAt', NEW."created_at")));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_refund_insert" AFTER INSERT ON "purchase_refund" FOR EACH ROW EXECUTE FUNCTION "webhook_on_refund"();--> statement-breakpoint
-- Points earned (every credit), spent (a reward's coupon or paying at the till) and expired.
CREATE FUNCTION "webhook_on_point_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := CASE WHEN NEW."kind" = 'expire' THEN 'points.expired'
                    WHEN NEW."kind" IN ('redeem', 'spend-purchase') THEN 'points.spent'
                    ELSE 'points.earned' END;
BEGIN
  IF NOT webhook_wanted(kind) THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue(kind, NEW."member_id", jsonb_build_object('entry', jsonb_build_object(
    'id', NEW."id", 'kind', NEW."kind", 'points', NEW."amount", 'storeId', NEW."store_id",
    'purchaseId', NEW."purchase_id", 'couponId', NEW."coupon_id", 'expiresAt', NEW."lot_expires_at",
    'createdAt', NEW."created_at")));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_point_entry_insert" AFTER INSERT ON "point_entry" FOR EACH ROW
  WHEN (NEW."amount" > 0 OR NEW."kind" IN ('redeem', 'spend-purchase', 'expire'))
  EXECUTE FUNCTION "webhook_on_point_entry"();--> statement-breakpoint
CREATE FUNCTION "webhook_on_tier_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_wanted('tier.changed') THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue('tier.changed', NEW."member_id", jsonb_build_object('tierChange', jsonb_build_object(
    'id', NEW."id", 'from', NEW."from_tier", 'to', NEW."to_tier", 'reason', NEW."reason",
    'createdAt', NEW."created_at")));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_tier_change_insert" AFTER INSERT ON "tier_change" FOR EACH ROW EXECUTE FUNCTION "webhook_on_tier_change"();--> statement-breakpoint
CREATE FUNCTION "webhook_on_coupon"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := CASE WHEN TG_OP = 'INSERT' THEN 'coupon.issued' ELSE 'coupon.used' END;
BEGIN
  IF NOT webhook_wanted(kind) THEN RETURN NULL; END IF;
  PERFORM webhook_enqueue(kind, NEW."member_id", jsonb_build_object('coupon', jsonb_build_object(
    'id', NEW."id", 'rewardId', NEW."reward_id", 'status', NEW."status", 'pointsCost', NEW."points_cost",
    'issuedAt', NEW."issued_at", 'expiresAt', NEW."expires_at", 'usedAt', NEW."used_at",
    'usedStoreId', NEW."used_store_id")));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_coupon_insert" AFTER INSERT ON "coupon" FOR EACH ROW EXECUTE FUNCTION "webhook_on_coupon"();--> statement-breakpoint
CREATE TRIGGER "webhook_coupon_used" AFTER UPDATE OF "status" ON "coupon" FOR EACH ROW
  WHEN (NEW."status" = 'used' AND OLD."status" IS DISTINCT FROM 'used')
  EXECUTE FUNCTION "webhook_on_coupon"();--> statement-breakpoint
-- A booking; a guest's name and phone only for a `member:pii` endpoint (as a member's are).
CREATE FUNCTION "webhook_on_appointment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_wanted('appointment.booked') THEN RETURN NULL; END IF;
  INSERT INTO "webhook_delivery" ("endpoint_id", "event_type", "member_id", "data")
  SELECT s."endpoint_id", 'appointment.booked', NEW."member_id", jsonb_build_object(
      'appointment', jsonb_build_object('id', NEW."id", 'reference', NEW."reference", 'storeId', NEW."store_id",
        'kind', NEW."kind", 'startsAt', NEW."starts_at", 'endsAt', NEW."ends_at", 'source', NEW."source")
        || CASE WHEN s."pii" AND NEW."member_id" IS NULL
                THEN jsonb_build_object('guest', jsonb_build_object('name', NEW."guest_name", 'phone', NEW."guest_phone"))
                ELSE '{}'::jsonb END,
      'member', webhook_member(NEW."member_id", s."pii"))
    FROM "webhook_subscription" s WHERE s."event_type" = 'appointment.booked';
  IF FOUND THEN PERFORM pg_notify('han_cache', 'webhook'); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "webhook_appointment_insert" AFTER INSERT ON "appointment" FOR EACH ROW EXECUTE FUNCTION "webhook_on_appointment"();
