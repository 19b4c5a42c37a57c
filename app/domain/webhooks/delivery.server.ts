import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { dueBy } from "@platform/jobs/due";
import {
  type Gathering,
  startWokenWorker,
  type WokenWorker,
  type WokenWorkerOptions,
} from "@platform/jobs/woken-worker";
import type { Logger } from "@platform/logger";
import { type SQL, sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit.server";
import { openWebhookSecret } from "./secret-at-rest.server";
import type { Sender, SendOutcome } from "./send.server";
import { webhookBodyOfJson, webhookHeaders, webhookMessageId } from "./signing";

/**
 * The webhook outbox's worker (ADR 054). Due rows of `webhook_delivery` are claimed with `for update skip locked`
 * (one instance sends a row, never two), a member's row only when none of their earlier rows for that endpoint is
 * still open (per-member order), and POSTed with the Standard Webhooks headers. A failure is retried on the
 * schedule below for three days from the first attempt, then given up; an endpoint failing for 24 h without one
 * success is disabled and the admins are told. Every attempt is in the delivery log: its latest on the row (a
 * success only there), every failure also as a webhook_attempt row.
 */
export const WEBHOOK_RETRY_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 43_200] as const;
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 3600_000;
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 3600_000;
export const STALE_CLAIM_MS = 5 * 60_000;
export const WEBHOOK_DISPATCH_INTERVAL_MS = 15_000;
/** A notification's pass starts 200 ms later or after 500 notifications: a stream of events in few passes. */
export const WEBHOOK_GATHER: Gathering = { ms: 200, events: 500 };

/** Seconds before the next attempt after `attempts` failed ones. */
export function webhookBackoffSeconds(attempts: number): number {
  return WEBHOOK_RETRY_SECONDS[Math.min(Math.max(attempts, 1), WEBHOOK_RETRY_SECONDS.length) - 1] as number;
}

/** Whether a failed row is retried (its next attempt within three days of its first) and when. */
export function nextAttempt(firstAttemptAt: Date, attempts: number, now: Date): Date | null {
  const due = new Date(now.getTime() + webhookBackoffSeconds(attempts) * 1000);
  return due.getTime() - firstAttemptAt.getTime() <= WEBHOOK_RETRY_WINDOW_MS ? due : null;
}

export type DisabledEndpoint = { id: string; url: string; failingSince: Date };

export type WebhookDeliveryDeps = {
  db: Database;
  send: Sender;
  /** The server secret the endpoints' signing secrets are sealed under (SESSION_SECRET; secret-at-rest.server.ts). */
  serverSecret: string;
  logger?: Pick<Logger, "info" | "warn" | "error">;
  /** Told when an endpoint was disabled after 24 h of failures (the admins' e-mail). */
  onDisabled?: (endpoints: DisabledEndpoint[]) => Promise<void>;
  batchSize?: number;
  /** Deliveries in flight at once. */
  concurrency?: number;
};

export type WebhookDeliveryReport = { claimed: number; delivered: number; retried: number; failed: number };

type Claimed = {
  id: string;
  endpointId: string;
  eventType: string;
  /** The payload as the database wrote it (jsonb's text): sent as it is, never parsed and serialized again. */
  data: string;
  occurredAt: Date;
  attempts: number;
  firstAttemptAt: Date;
  url: string;
  /** The signing secrets (current first), opened; null when a stored one cannot be opened (another server secret). */
  secrets: string[] | null;
  /**
   * A later open row of the same member waits behind this one (per-member order): the next batch can take it once
   * this one is recorded. Read by the claim (webhook_delivery_open_idx).
   */
  hasLater: boolean;
};

/**
 * Being sent: a pending row with a claim younger than STALE_CLAIM_MS (an instance is POSTing it now; ADR 054 "Later
 * (2026-12-07, the claim without a status change)"). The claim leaves `status` alone and stamps `claim_job` and
 * `claimed_at`, none of them indexed or in an index's predicate, so its update can be HOT; the record clears
 * `claim_job`. `row` is the alias of webhook_delivery in the statement. The one definition every surface reads: the
 * claim (its complement), the delivery log's 送出中 / Sending, and the redelivery's refusal.
 */
export function beingSent(row: string, now: Date): SQL {
  const d = sql.identifier(row);
  const stale = new Date(now.getTime() - STALE_CLAIM_MS).toISOString();
  return sql`(${d}.status = 'pending' and ${d}.claim_job is not null and ${d}.claimed_at >= ${stale}::timestamptz)`;
}

/** A delivery's status as the console shows it: `sending` while it is being sent (above), else the row's status. */
export function shownStatus(row: string, now: Date): SQL {
  return sql`case when ${beingSent(row, now)} then 'sending' else ${sql.identifier(row)}.status end`;
}

export type ShownStatus = "pending" | "sending" | "delivered" | "failed";

/**
 * The claim: per enabled endpoint (a handful of rows), its pending rows by `seq` from webhook_delivery_queue_idx
 * `(endpoint_id, seq) where status = 'pending'`: a due one not being sent (no claim, or a claim 5 min old: an instance
 * died mid-send, taken over here, its attempt counted; no separate statement or index), locked with `skip locked`;
 * then the oldest `limit` of them. A disabled endpoint's backlog is never read (its rows wait, not lost, until it is
 * enabled). Exported for the plan's test.
 * The claim stamps `claim_job`, `claimed_at`, `attempts`, `first_attempt_at`: no indexed column and no predicate's
 * column, so a HOT update when the row's page has room (the table's fillfactor, migration 0063).
 * Per-member order: a member's row only if it is their earliest open one for the endpoint, asked as a correlated
 * `min(seq)` (always probed by endpoint and member in webhook_delivery_open_idx). As `not exists (… p.seq < d.seq)`
 * on a table without statistics, PostgreSQL ran the check as an anti join probing by endpoint only, reading every open
 * row of the endpoint for each candidate: bench:webhooks's claim stalled for minutes (2026-12-07). Rows without a
 * member are not ordered.
 */
export function claimStatement(claimer: string, now: Date, limit: number): SQL {
  const at = now.toISOString();
  return sql`
    with c as (
      select d.id, d.seq from webhook_endpoint e
        cross join lateral (
          select d.id, d.seq from webhook_delivery d
           where d.endpoint_id = e.id and d.status = 'pending' and d.due_at < ${dueBy(now)}
             and not ${beingSent("d", now)}
             and (d.member_id is null
                  or d.seq = (select min(p.seq) from webhook_delivery p
                               where p.endpoint_id = d.endpoint_id and p.member_id = d.member_id
                                 and p.status = 'pending'))
           order by d.seq
           limit ${limit}
           for update of d skip locked) d
       where e.enabled
       order by d.seq
       limit ${limit}),
    u as (
      update webhook_delivery d
         set claim_job = ${claimer}::uuid, claimed_at = ${at}::timestamptz,
             attempts = d.attempts + 1, first_attempt_at = coalesce(d.first_attempt_at, ${at}::timestamptz)
        from c where d.id = c.id
      returning d.id, d.endpoint_id, d.member_id, d.event_type, d.data::text as data, d.occurred_at, d.attempts,
                d.first_attempt_at, d.seq)
    select u.*, e.url, e.secret,
           case when e.previous_secret_until > ${at}::timestamptz then e.previous_secret end as previous_secret,
           u.member_id is not null and exists (
             select 1 from webhook_delivery p
              where p.endpoint_id = u.endpoint_id and p.member_id = u.member_id and p.status = 'pending'
                and p.seq > u.seq) as has_later
      from u join webhook_endpoint e on e.id = u.endpoint_id
     order by u.seq`;
}

/** Sends every due delivery, batch after batch, until none is left. */
export async function deliverWebhooks(
  deps: WebhookDeliveryDeps,
  now = new Date(),
  options: { maxBatches?: number } = {},
): Promise<WebhookDeliveryReport> {
  const report: WebhookDeliveryReport = { claimed: 0, delivered: 0, retried: 0, failed: 0 };
  const claimer = randomUUID();
  const limit = deps.batchSize ?? 1000;
  for (let batches = 0; options.maxBatches === undefined || batches < options.maxBatches; batches++) {
    const rows = await claim(deps.db, claimer, now, limit, opener(deps.serverSecret));
    if (rows.length === 0) break;
    report.claimed += rows.length;
    const outcomes = await sendAll(deps, rows, now);
    await record(deps, claimer, rows, outcomes, now, report);
    // Another batch only if this one was full or a member's later event waits behind one just sent. Events that came
    // in while this batch was sent are not chased: each came with its notification, which gathers the next pass (a
    // steady stream of purchases is sent in passes of 200 ms of events, not in a trickle of small batches, each with
    // its claim and its record; ADR 054 "Later (2026-12-07, late)").
    if (rows.length < limit && !rows.some((r) => r.hasLater)) break;
  }
  return report;
}

/** Opens an endpoint's stored secrets once per pass (a batch holds many rows of few endpoints). */
function opener(serverSecret: string): (endpointId: string, stored: (string | null)[]) => string[] | null {
  const opened = new Map<string, string[] | null>();
  return (endpointId, stored) => {
    const key = `${endpointId} ${stored.join(" ")}`;
    let secrets = opened.get(key);
    if (secrets === undefined) {
      try {
        secrets = stored.flatMap((s) => (s === null ? [] : [openWebhookSecret(serverSecret, endpointId, s)]));
      } catch {
        secrets = null;
      }
      opened.set(key, secrets);
    }
    return secrets;
  };
}

async function claim(
  db: Database,
  claimer: string,
  now: Date,
  limit: number,
  open: (endpointId: string, stored: (string | null)[]) => string[] | null,
): Promise<Claimed[]> {
  const result = await db.execute(claimStatement(claimer, now, limit));
  return rowsOf<{
    id: string;
    endpoint_id: string;
    event_type: string;
    data: string;
    occurred_at: string | Date;
    attempts: number;
    first_attempt_at: string | Date;
    url: string;
    secret: string;
    previous_secret: string | null;
    member_id: string | null;
    has_later: boolean;
  }>(result).map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    eventType: r.event_type,
    data: String(r.data),
    occurredAt: new Date(r.occurred_at),
    attempts: Number(r.attempts),
    firstAttemptAt: new Date(r.first_attempt_at),
    url: r.url,
    secrets: open(r.endpoint_id, [r.secret, r.previous_secret]),
    hasLater: r.has_later === true,
  }));
}

async function sendAll(deps: WebhookDeliveryDeps, rows: Claimed[], now: Date): Promise<SendOutcome[]> {
  const outcomes: SendOutcome[] = new Array(rows.length);
  const timestamp = Math.floor(now.getTime() / 1000);
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const i = next++;
      const row = rows[i] as Claimed;
      const id = webhookMessageId(row.id);
      const body = webhookBodyOfJson(row.eventType, row.occurredAt, row.data);
      // A secret sealed under another server secret (SESSION_SECRET changed): nothing is sent unsigned; a failure
      // like any other (retried, and the endpoint disabled after 24 h with the admins told), named in the log.
      outcomes[i] = row.secrets
        ? await deps.send(row.url, webhookHeaders(row.secrets, id, timestamp, body), body)
        : {
            outcome: "secret_unreadable",
            statusCode: null,
            durationMs: 0,
            error: "the endpoint's signing secret cannot be opened with this server's SESSION_SECRET: rotate it",
          };
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 64, rows.length) }, lane));
  return outcomes;
}

/**
 * The outcomes, the log and the endpoints' health in one transaction, only on rows this claim still holds. Every
 * attempt's time, status and length go on its row; a failure's also into webhook_attempt (the log's history). A
 * success writes no attempt row: per event, a row, its two index entries and its foreign key's lock fewer.
 */
async function record(
  deps: WebhookDeliveryDeps,
  claimer: string,
  rows: Claimed[],
  outcomes: SendOutcome[],
  now: Date,
  report: WebhookDeliveryReport,
): Promise<void> {
  const at = now.toISOString();
  const ok = new Set<string>();
  const failing = new Set<string>();
  const values = rows.map((row, i) => {
    const o = outcomes[i] as SendOutcome;
    let status: "delivered" | "pending" | "failed" = "delivered";
    let due: string = at;
    if (o.outcome === "ok") {
      report.delivered++;
      ok.add(row.endpointId);
    } else {
      failing.add(row.endpointId);
      const next = nextAttempt(row.firstAttemptAt, row.attempts, now);
      if (next) {
        status = "pending";
        due = next.toISOString();
        report.retried++;
      } else {
        status = "failed";
        report.failed++;
      }
    }
    return {
      id: row.id,
      status,
      due_at: due,
      status_code: o.statusCode,
      error: o.error ?? (o.outcome === "ok" ? null : o.outcome),
      outcome: o.outcome,
      duration_ms: o.durationMs,
      endpoint_id: row.endpointId,
    };
  });
  const anyFailure = failing.size > 0;
  for (const id of ok) failing.delete(id);
  // The rows' outcomes, the failures' attempt rows and the healthy endpoints' reset: one statement (atomic by
  // itself), so a batch without a failure is recorded in one round trip (one update); a failure adds the 24 h rule
  // in the same transaction. The outcomes go as one JSON parameter, not eight per row: the statement's text is the
  // same for every batch (parsed and planned like any other, not 8,000 casts for 1,000 rows).
  const recordOutcomes = sql`
      with v as (
        select * from jsonb_to_recordset(${JSON.stringify(values)}::text::jsonb)
          as v(id uuid, status text, due_at timestamptz, status_code int, error text, outcome text, duration_ms int,
               endpoint_id uuid)),
      updated as (
        update webhook_delivery d
           set status = v.status, due_at = v.due_at, last_status = v.status_code, last_error = v.error,
               last_attempt_at = ${at}::timestamptz, last_duration_ms = v.duration_ms,
               delivered_at = case when v.status = 'delivered' then ${at}::timestamptz else d.delivered_at end,
               claim_job = null
          from v where d.id = v.id and d.claim_job = ${claimer}::uuid
        returning d.id),
      healthy as (
        update webhook_endpoint e set failing_since = null
          from (select id from webhook_endpoint
                 where id = any(${ok.size > 0 ? uuids([...ok]) : sql`array[]::uuid[]`}) and failing_since is not null
                 order by id
                   for no key update) h
         where e.id = h.id and e.failing_since is not null)`;
  const outcomesStatement = anyFailure
    ? sql`${recordOutcomes}
      insert into webhook_attempt (delivery_id, endpoint_id, at, outcome, status_code, duration_ms, error)
      select v.id, v.endpoint_id, ${at}::timestamptz, v.outcome, v.status_code, v.duration_ms, v.error
        from v join updated on updated.id = v.id
       where v.outcome <> 'ok'`
    : sql`${recordOutcomes}
      select count(*) from updated`;
  if (failing.size === 0) {
    await deps.db.execute(outcomesStatement);
    return;
  }
  const disabled = await deps.db.transaction(async (tx) => {
    // Every endpoint this transaction changes, locked first in id order (as the healthy ones above): another
    // worker's batch may set one healthy while this one marks it failing or disables it, and in the statements' own
    // order two such transactions deadlocked (one holding the endpoint it set healthy, the other the one it marked
    // failing).
    await tx.execute(sql`select id from webhook_endpoint where id = any(${uuids([...ok, ...failing])})
      order by id for no key update`);
    await tx.execute(outcomesStatement);
    const cutoff = new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_MS).toISOString();
    // Failing since the first failure after the last success; 24 h of that disables the endpoint, once.
    await tx.execute(sql`update webhook_endpoint set failing_since = ${at}::timestamptz
      where id = any(${uuids([...failing])}) and failing_since is null`);
    const result = await tx.execute(sql`
      update webhook_endpoint e
         set enabled = false, disabled_reason = 'failing', disabled_at = ${at}::timestamptz,
             version = e.version + 1, updated_at = ${at}::timestamptz
       where e.id = any(${uuids([...failing])}) and e.enabled and e.failing_since <= ${cutoff}::timestamptz
      returning e.id, e.url, e.failing_since`);
    const off = rowsOf<{ id: string; url: string; failing_since: string | Date }>(result).map((r) => ({
      id: r.id,
      url: r.url,
      failingSince: new Date(r.failing_since),
    }));
    if (off.length === 0) return [];
    await tx.execute(sql`delete from webhook_subscription where endpoint_id = any(${uuids(off.map((e) => e.id))})`);
    for (const e of off) {
      await recordAudit(
        tx,
        {
          context: { actorType: "system", label: "webhooks", ip: null, userAgent: null, requestId: null },
          action: "webhook.auto_disabled",
          targetType: "webhook_endpoint",
          targetId: e.id,
          before: { enabled: true },
          after: { enabled: false, reason: "failing", failingSince: e.failingSince.toISOString() },
        },
        now,
      );
    }
    return off;
  });
  if (disabled.length > 0) {
    deps.logger?.warn({ endpoints: disabled.map((e) => e.id) }, "webhook endpoint disabled after 24 h of failures");
    await deps
      .onDisabled?.(disabled)
      .catch((error) => deps.logger?.error({ err: error }, "admins not told of a disabled webhook endpoint"));
  }
}

/** A uuid[] parameter that both drivers take (an array bound as one value is not, on PGlite). */
function uuids(ids: string[]) {
  return sql`array[${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]::uuid[]`;
}

/** The per-instance worker: woken by the outbox's notification (`webhook`) and every 15 s (retries). */
export function startWebhookDispatcher(
  deps: WebhookDeliveryDeps,
  options: WokenWorkerOptions & { gather?: Gathering },
): WokenWorker {
  return startWokenWorker(
    {
      // A dead instance's claims (5 min old) are taken over by the claim itself.
      pass: () => deliverWebhooks(deps, new Date()),
      wakeOn: "webhook",
      intervalMs: WEBHOOK_DISPATCH_INTERVAL_MS,
      failure: "webhook delivery pass failed",
      gather: options.gather ?? WEBHOOK_GATHER,
    },
    options,
  );
}
