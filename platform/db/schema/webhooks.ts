import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The events an endpoint can subscribe to (issue 38 part 4, ADR 054). Each is written into the outbox by a trigger
 * on its source table, in the transaction of the change (migration `webhooks`).
 */
export const WEBHOOK_EVENTS = [
  "member.created",
  "member.updated",
  "member.disabled",
  "purchase.created",
  "purchase.refunded",
  "points.earned",
  "points.spent",
  "points.expired",
  "tier.changed",
  "coupon.issued",
  "coupon.used",
  "appointment.booked",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Scopes for personal data: without `member:pii` a payload names a member by id and member number only. */
export const WEBHOOK_SCOPES = ["member:pii"] as const;
export type WebhookScope = (typeof WEBHOOK_SCOPES)[number];

/**
 * A receiver the brand registered in the console. `secret` signs every delivery (`whsec_` + base64); after a
 * rotation `previousSecret` signs too until `previousSecretUntil`, so both signatures are in the header.
 * `failingSince`: the first failure since the last success; 24 h of failures disable the endpoint (`disabledReason`
 * `failing`) and the admins are told.
 */
export const webhookEndpoint = pgTable("webhook_endpoint", {
  id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
  url: text("url").notNull(),
  description: text("description").notNull().default(""),
  events: text("events").array().notNull(),
  scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
  enabled: boolean("enabled").notNull().default(true),
  secret: text("secret").notNull(),
  previousSecret: text("previous_secret"),
  previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
  failingSince: timestamp("failing_since", { withTimezone: true }),
  disabledReason: text("disabled_reason", { enum: ["admin", "failing"] }),
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  version: integer("version").notNull().default(1),
  createdBy: text("created_by"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which enabled endpoint takes which event (and whether it may see personal data): the only table the source
 * tables' triggers read, kept by the console in the endpoint's transaction. No row for an event: the trigger
 * writes nothing (a purchase with no endpoint costs one index probe).
 */
export const webhookSubscription = pgTable(
  "webhook_subscription",
  {
    eventType: text("event_type").notNull(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoint.id, { onDelete: "cascade" }),
    pii: boolean("pii").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.eventType, t.endpointId] })],
);

/**
 * The outbox: one row per event and endpoint, written by the triggers. Its id is the `webhook-id` (`msg_` + the id
 * without dashes), the same on every retry and redelivery. `seq` orders a member's events per endpoint: the worker
 * sends a member's later event only once every earlier one is delivered or given up.
 */
export const webhookDelivery = pgTable(
  "webhook_delivery",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /**
     * No foreign key (migration 0059, ADR 054 "Later (2026-12-07)"): its check locked the endpoint's row `for key
     * share` at every event (a WAL record, and a multixact when purchases run at once). The row is written only for
     * a subscribed endpoint (its subscription has the key), endpoints are disabled, never deleted by the product,
     * and a trigger deletes an endpoint's rows if one is deleted by hand.
     */
    endpointId: uuid("endpoint_id").notNull(),
    eventType: text("event_type").notNull(),
    memberId: uuid("member_id"),
    data: jsonb("data").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * `pending` until delivered or given up. No `sending`: a row being sent is a pending one with a fresh claim
     * (`claim_job`, `claimed_at`; `beingSent` in delivery.server.ts), so the claim changes no indexed column and no
     * index's predicate and can be a HOT update (migration 0063, ADR 054 "Later (2026-12-07, the claim without a
     * status change)"). 0063 also adds, by hand, `webhook_delivery_status_ck` (these three values: a previous build's
     * `sending` claim fails) and the table's fillfactor 50 (room for the claim's version on the row's page).
     */
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    /** The first attempt's time: retries stop three days after it. */
    firstAttemptAt: timestamp("first_attempt_at", { withTimezone: true }),
    claimJob: uuid("claim_job"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    /**
     * The latest attempt's time and length (migration 0060): a success is recorded here only, a failure also as a
     * webhook_attempt row (ADR 054 "Later (2026-12-07, the outbox's per-event cost)").
     */
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastDurationMs: integer("last_duration_ms"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    /**
     * The worker's claim: an enabled endpoint's open rows in the order they happened (the due time and the claim are
     * filters; a claim 5 min old is taken over); by endpoint first, so a disabled endpoint's backlog is
     * never read (ADR 054). Also the newest open rows of the delivery log.
     */
    index("webhook_delivery_queue_idx").on(t.endpointId, t.seq).where(sql`${t.status} = 'pending'`),
    /** Per-member order: a member's earliest open row for an endpoint. */
    index("webhook_delivery_open_idx").on(t.endpointId, t.memberId, t.seq).where(sql`${t.status} = 'pending'`),
    /**
     * The delivery log's finished rows, the console's count of given-up ones and the purge: only rows that are done,
     * so an event's insert and claim never write an entry here (migration 0060). Every index of the table costs each
     * insert its opening and its predicate even without an entry, so there is no fifth one.
     */
    index("webhook_delivery_done_idx").on(t.endpointId, t.seq).where(sql`${t.status} in ('delivered', 'failed')`),
  ],
);

/**
 * The delivery log's history: every failed attempt (the answer, or why there was none) and a success that was
 * followed by a manual redelivery; a delivery's latest attempt is on its row (migration 0060).
 */
export const webhookAttempt = pgTable(
  "webhook_attempt",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDelivery.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** ok | http_error | redirect | timeout | network | address_refused */
    outcome: text("outcome").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    manual: boolean("manual").notNull().default(false),
  },
  (t) => [index("webhook_attempt_delivery_idx").on(t.deliveryId, t.id)],
);
