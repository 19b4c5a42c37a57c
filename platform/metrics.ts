import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics (served at /metrics, docs/operations.md). Code elsewhere touches
 * them through the one-line helpers below, never through prom-client, so the call sites stay small.
 * Labels are bounded: route ids and patterns (never raw URLs), job and queue names, key ids.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "hanliving_" });

/** Every metric is registered in `registry`; names are written out whole, so a dashboard's name is found by grep. */
function counter<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

function gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []) {
  return new Gauge<L>({ name, help, labelNames, registers: [registry] });
}

function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) {
  return new Histogram<L>({ name, help, labelNames, buckets, registers: [registry] });
}

const httpDuration = histogram(
  "hanliving_http_request_duration_seconds",
  "HTTP requests by route id (React Router route id or API route pattern), method and status code",
  ["route", "method", "status"],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

const dbQueryDuration = histogram(
  "hanliving_db_query_duration_seconds",
  "Database statements run by the app's request pool, by outcome",
  ["outcome"],
  [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
);

export const dbPoolConnections = gauge(
  "hanliving_db_pool_connections",
  "This instance's connections to PostgreSQL by state (pg_stat_activity), and the pool's maximum",
  ["state"],
);

export const dbUp = gauge(
  "hanliving_db_up",
  "1 when the database answered the last readiness or metrics check, else 0",
);

export const jobQueueDepth = gauge(
  "hanliving_job_queue_jobs",
  "Jobs waiting or running, by queue and state (created, retry, active)",
  ["queue", "state"],
);

const jobsRun = counter(
  "hanliving_jobs_total",
  "Job attempts run on this instance by queue and result (completed, retry, failed = no retries left)",
  ["queue", "result"],
);

const messages = counter(
  "hanliving_messages_total",
  "Messages handed to a provider, by channel (line, sms, email), provider and result (sent; retry = failed, tried again later; failed = for good)",
  ["channel", "provider", "result"],
);

const ledgerEntries = counter("hanliving_ledger_entries_total", "Ledger entries booked, by kind", ["kind"]);

const ledgerReplays = counter(
  "hanliving_ledger_replays_total",
  "Ledger operations answered from an earlier identical request (idempotent replays), by operation",
  ["operation"],
);

const posRequests = counter(
  "hanliving_pos_requests_total",
  "Authenticated point-of-sale API requests by API key id (never the secret)",
  ["key_id"],
);

const loginFailures = counter(
  "hanliving_login_failures_total",
  "Failed member logins by reason (invalid, rate_limited, disabled)",
  ["reason"],
);

const limitRefusals = counter(
  "hanliving_rate_limit_refusals_total",
  "Requests refused by a rate limit, by limit name (the key's first segment, never the key)",
  ["limit"],
);

const auditChainOk = gauge(
  "hanliving_audit_chain_ok",
  "1 when this instance's last check of the audit chain against its signed head held, 0 when it did not",
);

const auditChainSeq = gauge(
  "hanliving_audit_chain_seq",
  "The last seq of the audit chain at this instance's last check (it never goes down unless rows were cut)",
);

const auditChainFailures = counter(
  "hanliving_audit_chain_failures_total",
  "Audit chain checks that failed, by reason (truncated = rows cut off the end, rewritten, hash_mismatch, …)",
  ["reason"],
);

const lineWebhookEvents = counter(
  "hanliving_line_webhook_events_total",
  "Events of LINE webhook calls with a valid signature, by result (processed, duplicate, ignored, malformed, failed)",
  ["result"],
);

export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  httpDuration.observe({ route, method, status: String(status) }, seconds);
}

export function observeDbQuery(seconds: number, ok: boolean): void {
  dbQueryDuration.observe({ outcome: ok ? "ok" : "error" }, seconds);
}

export function countJob(queue: string, result: "completed" | "retry" | "failed"): void {
  jobsRun.inc({ queue, result });
}

/** `retry`: the provider refused or failed for now (a 429, a 5xx, a timeout) and the message is tried again. */
export function countMessage(
  channel: "sms" | "email" | "line",
  provider: string,
  result: "sent" | "retry" | "failed",
): void {
  messages.inc({ channel, provider, result });
}

export function countLedgerEntry(kind: string): void {
  ledgerEntries.inc({ kind });
}

export function countLedgerReplay(operation: string): void {
  ledgerReplays.inc({ operation });
}

export function countPosRequest(keyId: string): void {
  posRequests.inc({ key_id: keyId });
}

export function countLoginFailure(reason: string): void {
  loginFailures.inc({ reason });
}

export function countLineWebhookEvent(result: "processed" | "duplicate" | "ignored" | "malformed" | "failed"): void {
  lineWebhookEvents.inc({ result });
}

/** `limits`: the keys of the limits that refused, e.g. `login:ip:203.0.113.9` counts as `login`. */
export function countLimitRefusal(limitKeys: readonly string[]): void {
  for (const name of new Set(limitKeys.map((key) => key.split(":")[0] || "unknown")))
    limitRefusals.inc({ limit: name });
}

/** One check of the audit chain (ADR 020): `lastSeq` is where the chain ended, null when not known. */
export function observeAuditCheck(result: { ok: boolean; reason?: string; lastSeq?: number | null }): void {
  auditChainOk.set(result.ok ? 1 : 0);
  if (typeof result.lastSeq === "number") auditChainSeq.set(result.lastSeq);
  if (!result.ok) auditChainFailures.inc({ reason: result.reason ?? "unknown" });
}

/**
 * Times every statement a postgres.js client (and its transactions) runs. postgres.js has no hook
 * for a finished query, so `unsafe` (what Drizzle calls) and `begin` are wrapped; the pending query
 * is timed from creation to settlement, which is when Drizzle awaits it.
 */
export function instrumentPostgresClient<T extends object>(
  client: T,
  onOutcome: (error: unknown | null, startedAt: number) => void = () => {},
): T {
  const wrapQuery = (target: object, run: (...args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]) {
      const query = run.apply(target, args) as PromiseLike<unknown> & { then: PromiseLike<unknown>["then"] };
      const started = performance.now();
      const then = query.then.bind(query);
      let observed = false;
      const observe = (ok: boolean) => {
        if (observed) return;
        observed = true;
        observeDbQuery((performance.now() - started) / 1000, ok);
      };
      // biome-ignore lint/suspicious/noThenProperty: the query is a thenable already; this times its settlement.
      query.then = ((resolve, reject) =>
        then(
          (value) => {
            observe(true);
            onOutcome(null, started);
            return resolve ? resolve(value) : value;
          },
          (error) => {
            observe(false);
            onOutcome(error, started);
            if (reject) return reject(error);
            throw error;
          },
        )) as typeof query.then;
      return query;
    };
  const wrap = (target: object): object =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver);
        if (prop === "unsafe" && typeof value === "function") return wrapQuery(obj, value);
        // A transaction or savepoint: its callback gets a wrapped handle, so its statements are timed too.
        if ((prop === "begin" || prop === "savepoint") && typeof value === "function") {
          return (...args: unknown[]) => {
            const callback = args.findIndex((a) => typeof a === "function");
            if (callback >= 0) {
              const inner = args[callback] as (tx: object) => unknown;
              args[callback] = (tx: object) => inner(wrap(tx));
            }
            return value.apply(obj, args);
          };
        }
        return value;
      },
    });
  return wrap(client) as T;
}
