/**
 * Whether PostgreSQL is reachable, as this process last saw it (ADR 021). A statement failing with a
 * connection-class error marks it unavailable at once; from then a probe runs every second and the
 * first success (a probe or any statement) marks it available again. Member pages and the POS API
 * answer 503 while it is unavailable instead of waiting for connection timeouts or showing a stack.
 * One state per process: an app instance opens one database.
 */

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  // postgres.js
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/** A failure to reach the database (not a failing statement): walks `cause` (Drizzle wraps errors). */
export function isDatabaseUnavailableError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) return true;
    // AggregateError (several addresses refused) carries the individual errors.
    const errors = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailableError(inner))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

let unavailableSince: Date | null = null;
let probe: (() => Promise<boolean>) | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
const PROBE_INTERVAL_MS = 1_000;

export function databaseUnavailableSince(): Date | null {
  return unavailableSince;
}

export function markDatabaseAvailable(): void {
  if (!unavailableSince) return;
  unavailableSince = null;
  if (timer) clearInterval(timer);
  timer = null;
}

export function markDatabaseUnavailable(): void {
  if (unavailableSince) return;
  unavailableSince = new Date();
  if (!probe) return;
  let probing = false;
  timer = setInterval(() => {
    if (probing || !probe) return;
    probing = true;
    probe()
      .then((ok) => ok && markDatabaseAvailable())
      .finally(() => {
        probing = false;
      });
  }, PROBE_INTERVAL_MS);
  timer.unref();
}

/** Called by the database client for each statement's outcome. */
export function reportDatabaseOutcome(error: unknown | null): void {
  if (error === null) markDatabaseAvailable();
  else if (isDatabaseUnavailableError(error)) markDatabaseUnavailable();
}

/** The check that brings the state back (a `select 1` with a short timeout); null on close. */
export function setDatabaseProbe(check: (() => Promise<boolean>) | null): void {
  probe = check;
  if (!check) markDatabaseAvailable();
}
