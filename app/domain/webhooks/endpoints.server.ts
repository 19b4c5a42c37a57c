import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { webhookDelivery, webhookEndpoint, webhookSubscription } from "@platform/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { Refusal, VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { type AddressRules, checkEndpointUrl } from "./address.server";
import { beingSent, type ShownStatus, shownStatus } from "./delivery.server";
import type { EndpointInput } from "./input";
import { sealWebhookSecret } from "./secret-at-rest.server";
import { newWebhookSecret } from "./signing";

/**
 * Webhook endpoints in the console (issue 38 part 4, ADR 054): registered, changed, rotated, enabled and disabled
 * by an admin (`webhooks.manage`), each change audited in its own transaction, which also rewrites the endpoint's
 * `webhook_subscription` rows (the triggers' only read). A secret is returned once, at registration or rotation, and
 * stored sealed under the server secret (secret-at-rest.server.ts); after a rotation the old secret keeps signing for
 * `ROTATION_OVERLAP_MS`.
 */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export type EndpointRow = typeof webhookEndpoint.$inferSelect;

/** The audit's view of an endpoint: never a secret. */
function auditView(e: Pick<EndpointRow, "url" | "description" | "events" | "scopes" | "enabled">) {
  return { url: e.url, description: e.description, events: e.events, scopes: e.scopes, enabled: e.enabled };
}

async function syncSubscriptions(tx: Database, endpoint: Pick<EndpointRow, "id" | "enabled" | "events" | "scopes">) {
  await tx.delete(webhookSubscription).where(eq(webhookSubscription.endpointId, endpoint.id));
  if (!endpoint.enabled || endpoint.events.length === 0) return;
  const pii = endpoint.scopes.includes("member:pii");
  await tx
    .insert(webhookSubscription)
    .values(endpoint.events.map((eventType) => ({ eventType, endpointId: endpoint.id, pii })));
}

async function urlChecked(url: string, rules: AddressRules): Promise<void> {
  const problem = await checkEndpointUrl(url, rules);
  if (problem) throw new Refusal("webhooks", problem, { field: "url" });
}

export async function createEndpoint(
  db: Database,
  actor: StaffActor,
  input: EndpointInput,
  rules: AddressRules,
  serverSecret: string,
  audit: AuditContext,
  now = new Date(),
): Promise<{ endpoint: EndpointRow; secret: string }> {
  requirePermission(actor, "webhooks.manage");
  await urlChecked(input.url, rules);
  const secret = newWebhookSecret();
  const id = randomUUID();
  return auditedTx(db, audit, now, async (tx, record) => {
    const [endpoint] = await tx
      .insert(webhookEndpoint)
      .values({
        ...input,
        id,
        secret: sealWebhookSecret(serverSecret, id, secret),
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!endpoint) throw new Error("webhook endpoint insert returned nothing");
    await syncSubscriptions(tx, endpoint);
    await record("webhook.created", ["webhook_endpoint", endpoint.id], { before: null, after: auditView(endpoint) });
    return { endpoint, secret };
  });
}

/** Changes the address, description, events or scopes (the version the form was opened at must still hold). */
export async function updateEndpoint(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  input: EndpointInput,
  rules: AddressRules,
  audit: AuditContext,
  now = new Date(),
): Promise<EndpointRow> {
  requirePermission(actor, "webhooks.manage");
  await urlChecked(input.url, rules);
  return auditedTx(db, audit, now, async (tx, record) => {
    const before = await lockedEndpoint(tx, id);
    const [after] = await tx
      .update(webhookEndpoint)
      .set({ ...input, version: sql`${webhookEndpoint.version} + 1`, updatedAt: now })
      .where(and(eq(webhookEndpoint.id, id), eq(webhookEndpoint.version, version)))
      .returning();
    if (!after) throw new VersionConflict("webhooks", null);
    await syncSubscriptions(tx, after);
    await record("webhook.updated", ["webhook_endpoint", id], { before: auditView(before), after: auditView(after) });
    return after;
  });
}

async function lockedEndpoint(tx: Database, id: string): Promise<EndpointRow> {
  const [row] = await tx.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, id)).for("update");
  if (!row) throw new Refusal("webhooks", "not_found");
  return row;
}

/** A new secret; the old one keeps signing (a second signature in the header) for 24 hours. */
export async function rotateSecret(
  db: Database,
  actor: StaffActor,
  id: string,
  serverSecret: string,
  audit: AuditContext,
  now = new Date(),
): Promise<string> {
  requirePermission(actor, "webhooks.manage");
  const secret = newWebhookSecret();
  return auditedTx(db, audit, now, async (tx, record) => {
    const before = await lockedEndpoint(tx, id);
    const until = new Date(now.getTime() + ROTATION_OVERLAP_MS);
    await tx
      .update(webhookEndpoint)
      .set({
        secret: sealWebhookSecret(serverSecret, id, secret),
        previousSecret: before.secret,
        previousSecretUntil: until,
        version: sql`${webhookEndpoint.version} + 1`,
        updatedAt: now,
      })
      .where(eq(webhookEndpoint.id, id));
    await record("webhook.secret_rotated", ["webhook_endpoint", id], {
      before: null,
      after: { previousSecretValidUntil: until.toISOString() },
    });
    return secret;
  });
}

/** Enables (the failure clock starts again) or disables an endpoint; its open deliveries wait meanwhile. */
export async function setEndpointEnabled(
  db: Database,
  actor: StaffActor,
  id: string,
  enabled: boolean,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "webhooks.manage");
  await auditedTx(db, audit, now, async (tx, record) => {
    const before = await lockedEndpoint(tx, id);
    if (before.enabled === enabled) return;
    const [after] = await tx
      .update(webhookEndpoint)
      .set({
        enabled,
        disabledReason: enabled ? null : "admin",
        disabledAt: enabled ? null : now,
        failingSince: null,
        version: sql`${webhookEndpoint.version} + 1`,
        updatedAt: now,
      })
      .where(eq(webhookEndpoint.id, id))
      .returning();
    if (!after) throw new Refusal("webhooks", "not_found");
    await syncSubscriptions(tx, after);
    await record(enabled ? "webhook.enabled" : "webhook.disabled", ["webhook_endpoint", id], {
      before: { enabled: before.enabled },
      after: { enabled },
    });
    if (enabled) await tx.execute(sql`select pg_notify('han_cache', 'webhook')`);
  });
}

/**
 * Sends a delivery again (the same `webhook-id`, a new timestamp and signature): back to pending, due now, with a
 * new three days of retries. One conditional update: a delivery being sent right now is refused (a claim 5 min old
 * is a dead instance's, taken over). A success lives on the row only (migration 0061), so before the row is reset
 * it is kept in the log's history as an attempt row.
 */
export async function redeliver(
  db: Database,
  actor: StaffActor,
  endpointId: string,
  deliveryId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "webhooks.manage");
  await auditedTx(db, audit, now, async (tx, record) => {
    const result = await tx.execute(sql`
      update webhook_delivery d
         set status = 'pending', due_at = ${now.toISOString()}::timestamptz, attempts = 0, first_attempt_at = null,
             claim_job = null
        from (select o.id, o.status, o.last_attempt_at, o.last_status, o.last_duration_ms from webhook_delivery o
               where o.id = ${deliveryId}::uuid and o.endpoint_id = ${endpointId}::uuid
                 and not ${beingSent("o", now)}
                 for update) old
       where d.id = old.id
      returning d.id, d.event_type, old.status as old_status, old.last_attempt_at, old.last_status,
                old.last_duration_ms`);
    const [row] = rowsOf<{
      id: string;
      event_type: string;
      old_status: string;
      last_attempt_at: string | Date | null;
      last_status: number | null;
      last_duration_ms: number | null;
    }>(result);
    if (!row) {
      const [exists] = await tx
        .select({ id: webhookDelivery.id })
        .from(webhookDelivery)
        .where(and(eq(webhookDelivery.id, deliveryId), eq(webhookDelivery.endpointId, endpointId)));
      throw new Refusal("webhooks", exists ? "busy" : "not_found");
    }
    if (row.old_status === "delivered" && row.last_attempt_at !== null) {
      const at = new Date(row.last_attempt_at).toISOString();
      await tx.execute(sql`
        insert into webhook_attempt (delivery_id, endpoint_id, at, outcome, status_code, duration_ms)
        select ${row.id}::uuid, ${endpointId}::uuid, ${at}::timestamptz, 'ok', ${row.last_status}::int,
               ${Number(row.last_duration_ms ?? 0)}::int
         where not exists (select 1 from webhook_attempt a
                            where a.delivery_id = ${row.id}::uuid and a.at = ${at}::timestamptz)`);
    }
    await record("webhook.redelivered", ["webhook_endpoint", endpointId], {
      before: null,
      after: { delivery: deliveryId, event: row.event_type },
    });
    await tx.execute(sql`select pg_notify('han_cache', 'webhook')`);
  });
}

export async function listEndpoints(db: Database) {
  const result = await db.execute(sql`
    select e.id, e.url, e.description, e.events, e.enabled, e.disabled_reason, e.failing_since, e.created_at,
           (select count(*) from webhook_delivery d where d.endpoint_id = e.id and d.status = 'pending')::int as waiting,
           (select count(*) from webhook_delivery d where d.endpoint_id = e.id and d.status = 'failed')::int as failed
      from webhook_endpoint e order by e.created_at, e.id`);
  return rowsOf<{
    id: string;
    url: string;
    description: string;
    events: string[];
    enabled: boolean;
    disabled_reason: "admin" | "failing" | null;
    failing_since: string | Date | null;
    created_at: string | Date;
    waiting: number;
    failed: number;
  }>(result).map((r) => ({
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events.length,
    enabled: r.enabled,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since ? new Date(r.failing_since).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
    waiting: Number(r.waiting),
    failed: Number(r.failed),
  }));
}

export async function endpointOf(db: Database, id: string): Promise<EndpointRow | null> {
  const [row] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, id));
  return row ?? null;
}

/**
 * The delivery log: the newest deliveries of an endpoint with their latest attempt (on the row). The open ones and
 * the finished ones have an index each (webhook_delivery_queue_idx, webhook_delivery_done_idx; migration 0061), so
 * the newest of each, merged. A pending row with a fresh claim shows as `sending` (shownStatus, migration 0063).
 */
export async function deliveryLog(db: Database, endpointId: string, limit = 50, now = new Date()) {
  const columns = sql`d.id, d.seq, d.event_type, ${shownStatus("d", now)} as status, d.attempts, d.occurred_at,
           d.due_at, d.last_status, d.last_error, d.last_attempt_at as last_at, d.last_duration_ms as last_ms`;
  const result = await db.execute(sql`
    select * from (
      (select ${columns} from webhook_delivery d
        where d.endpoint_id = ${endpointId}::uuid and d.status = 'pending'
        order by d.seq desc limit ${limit})
      union all
      (select ${columns} from webhook_delivery d
        where d.endpoint_id = ${endpointId}::uuid and d.status in ('delivered', 'failed')
        order by d.seq desc limit ${limit})) l
     order by l.seq desc
     limit ${limit}`);
  return rowsOf<{
    id: string;
    event_type: string;
    status: ShownStatus;
    attempts: number;
    occurred_at: string | Date;
    due_at: string | Date;
    last_status: number | null;
    last_error: string | null;
    last_at: string | Date | null;
    last_ms: number | null;
  }>(result).map((r) => ({
    id: r.id,
    eventType: r.event_type,
    status: r.status,
    attempts: Number(r.attempts),
    occurredAt: new Date(r.occurred_at).toISOString(),
    dueAt: new Date(r.due_at).toISOString(),
    lastStatus: r.last_status === null ? null : Number(r.last_status),
    lastError: r.last_error,
    lastAt: r.last_at ? new Date(r.last_at).toISOString() : null,
    lastMs: r.last_ms === null ? null : Number(r.last_ms),
  }));
}
