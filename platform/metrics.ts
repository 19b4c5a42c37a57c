import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's Prometheus metrics (served at /metrics, docs/operations.md). Code elsewhere touches
 * them through the one-line helpers below, never through prom-client, so the call sites stay small.
 * Labels are bounded: route ids and patterns (never raw URLs), job and queue names, key ids.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "hanliving_" });

const httpDuration = new Histogram({
  name: "hanliving_http_request_duration_seconds",
  help: "HTTP requests by route id (React Router route id or API route pattern), method and status code",
  labelNames: ["route", "method", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const dbQueryDuration = new Histogram({
  name: "hanliving_db_query_duration_seconds",
  help: "Database statements run by the app's request pool, by outcome",
  labelNames: ["outcome"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  registers: [registry],
});

export const dbPoolConnections = new Gauge({
  name: "hanliving_db_pool_connections",
  help: "This instance's connections to PostgreSQL by state (pg_stat_activity), and the pool's maximum",
  labelNames: ["state"] as const,
  registers: [registry],
});

export const dbUp = new Gauge({
  name: "hanliving_db_up",
  help: "1 when the database answered the last readiness or metrics check, else 0",
  registers: [registry],
});

export const jobQueueDepth = new Gauge({
  name: "hanliving_job_queue_jobs",
  help: "Jobs waiting or running, by queue and state (created, retry, active)",
  labelNames: ["queue", "state"] as const,
  registers: [registry],
});

const jobsRun = new Counter({
  name: "hanliving_jobs_total",
  help: "Job attempts run on this instance by queue and result (completed, retry, failed = no retries left)",
  labelNames: ["queue", "result"] as const,
  registers: [registry],
});

const messages = new Counter({
  name: "hanliving_messages_total",
  help: "Messages handed to a provider, by channel (sms, email), provider and result (sent, failed)",
  labelNames: ["channel", "provider", "result"] as const,
  registers: [registry],
});

const ledgerEntries = new Counter({
  name: "hanliving_ledger_entries_total",
  help: "Ledger entries booked, by kind",
  labelNames: ["kind"] as const,
  registers: [registry],
});

const ledgerReplays = new Counter({
  name: "hanliving_ledger_replays_total",
  help: "Ledger operations answered from an earlier identical request (idempotent replays), by operation",
  labelNames: ["operation"] as const,
  registers: [registry],
});

const posRequests = new Counter({
  name: "hanliving_pos_requests_total",
  help: "Authenticated point-of-sale API requests by API key id (never the secret)",
  labelNames: ["key_id"] as const,
  registers: [registry],
});

const loginFailures = new Counter({
  name: "hanliving_login_failures_total",
  help: "Failed member logins by reason (invalid, rate_limited, disabled)",
  labelNames: ["reason"] as const,
  registers: [registry],
});

const limitRefusals = new Counter({
  name: "hanliving_rate_limit_refusals_total",
  help: "Requests refused by a rate limit, by limit name (the key's first segment, never the key)",
  labelNames: ["limit"] as const,
  registers: [registry],
});

export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  httpDuration.observe({ route, method, status: String(status) }, seconds);
}

export function observeDbQuery(seconds: number, ok: boolean): void {
  dbQueryDuration.observe({ outcome: ok ? "ok" : "error" }, seconds);
}

export function countJob(queue: string, result: "completed" | "retry" | "failed"): void {
  jobsRun.inc({ queue, result });
}

export function countMessage(channel: "sms" | "email", provider: string, result: "sent" | "failed"): void {
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

/** `limits`: the keys of the limits that refused, e.g. `login:ip:203.0.113.9` counts as `login`. */
export function countLimitRefusal(limitKeys: readonly string[]): void {
  for (const name of new Set(limitKeys.map((key) => key.split(":")[0] || "unknown")))
    limitRefusals.inc({ limit: name });
}

/**
 * Times every statement a postgres.js client (and its transactions) runs. postgres.js has no hook
 * for a finished query, so `unsafe` (what Drizzle calls) and `begin` are wrapped; the pending query
 * is timed from creation to settlement, which is when Drizzle awaits it.
 */
export function instrumentPostgresClient<T extends object>(
  client: T,
  onOutcome: (error: unknown | null) => void = () => {},
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
            onOutcome(null);
            return resolve ? resolve(value) : value;
          },
          (error) => {
            observe(false);
            onOutcome(error);
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
        if (prop === "begin" && typeof value === "function") {
          return (...args: unknown[]) => {
            const callback = args.findIndex((a) => typeof a === "function");
            if (callback >= 0) {
              const inner = args[callback] as (tx: object) => unknown;
              args[callback] = (tx: object) => inner(wrap(tx));
            }
            return value.apply(obj, args);
          };
        }
        if (prop === "savepoint" && typeof value === "function") {
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
