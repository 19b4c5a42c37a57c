import type { Logger } from "@platform/logger";

/**
 * Whether PostgreSQL is reachable, as this process last saw it (ADR 021). A statement failing with a
 * connection-class error marks it unavailable at once; from then a probe runs every second and the
 * first success (a probe or any statement) marks it available again. Member pages and the POS API
 * answer 503 while it is unavailable instead of waiting for connection timeouts or showing a stack.
 * One state per process: an app instance opens one database.
 *
 * The log says it once each way: "database unavailable" (error) when it goes, "database back after N s" (info)
 * when it returns; in between, the failures it causes in the background (the job queue's polls, the delivery
 * passes, the cache bus's reconnects) are logged at debug level (logBackgroundFailure), not once per poll.
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
/** When it was marked away, on the monotonic clock the statements' start times use (`performance.now()`). */
let unavailableAt = 0;
let probe: (() => Promise<boolean>) | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
const PROBE_INTERVAL_MS = 1_000;

type OutageLogger = Pick<Logger, "debug" | "info" | "warn" | "error">;
/** Where the outage's two lines go (the app's logger; none in the command-line tools). */
let outageLog: OutageLogger | null = null;

/** The app's logger for the outage's lines; the function returned stops using it (when that app closes). */
export function setAvailabilityLogger(logger: OutageLogger): () => void {
  outageLog = logger;
  return () => {
    if (outageLog === logger) outageLog = null;
  };
}

export function databaseUnavailableSince(): Date | null {
  return unavailableSince;
}

/** Why the database counts as away, in a few words (the error's code, else its first line). */
function reasonOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message.split("\n")[0] : undefined;
}

export function markDatabaseAvailable(): void {
  if (!unavailableSince) return;
  const seconds = Math.round((Date.now() - unavailableSince.getTime()) / 1000);
  unavailableSince = null;
  if (timer) clearInterval(timer);
  timer = null;
  outageLog?.info({ seconds }, `database back after ${seconds} s`);
}

/**
 * Marks the database away, and says so once: "database unavailable" (error level). Until it is back, the failures
 * it causes elsewhere are logged at debug level (logBackgroundFailure).
 */
export function markDatabaseUnavailable(cause?: unknown): void {
  if (unavailableSince) return;
  unavailableSince = new Date();
  unavailableAt = performance.now();
  outageLog?.error({ reason: reasonOf(cause) }, "database unavailable");
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

/**
 * Called by the database client for each statement's outcome, with when the statement was sent (`performance.now()`).
 * A success of a statement sent before the outage was noticed says nothing about the database now (its answer was on
 * the way when the connection went): it does not bring the state back. Counted as a return, it logged "back after 0
 * s" and, at the next failure, a second "database unavailable" (CI, 2026-12-07).
 */
export function reportDatabaseOutcome(error: unknown | null, startedAt?: number): void {
  if (error === null) {
    if (unavailableSince && startedAt !== undefined && startedAt < unavailableAt) return;
    markDatabaseAvailable();
  } else if (isDatabaseUnavailableError(error)) markDatabaseUnavailable(error);
}

let checking: Promise<boolean> | null = null;

/** Whether the database is away: known already, or the probe fails now (one probe at a time for every caller). */
function confirmUnavailable(cause: unknown): Promise<boolean> {
  if (unavailableSince) return Promise.resolve(true);
  const check = probe;
  if (!check) return Promise.resolve(false);
  checking ??= check()
    .catch(() => false)
    .then((ok) => {
      if (!ok) markDatabaseUnavailable(cause);
      return unavailableSince !== null;
    })
    .finally(() => {
      checking = null;
    });
  return checking;
}

/**
 * Logs a failure of work in the background (the job queue, the message delivery, the cache bus): at debug level
 * while the database is known to be away — its one "database unavailable" line says what every poll would —
 * else at `level`. A failure to reach the database (`reachability`: the failure is about the connection whatever
 * its error says) when it is not yet known to be away asks the app's own probe first: the database away, it is
 * marked so (the one line) and the failure goes to debug; the database there, the failure is logged as it is.
 */
export function logBackgroundFailure(
  logger: Pick<Logger, "debug" | "warn" | "error">,
  level: "warn" | "error",
  failure: { error: unknown; reachability?: boolean },
  fields: Record<string, unknown>,
  message: string,
): void {
  if (unavailableSince) {
    logger.debug(fields, message);
    return;
  }
  if (!(failure.reachability || isDatabaseUnavailableError(failure.error)) || !probe) {
    logger[level](fields, message);
    return;
  }
  void confirmUnavailable(failure.error).then((away) =>
    away ? logger.debug(fields, message) : logger[level](fields, message),
  );
}

/** The check that brings the state back (a `select 1` with a short timeout); null on close. */
export function setDatabaseProbe(check: (() => Promise<boolean>) | null): void {
  probe = check;
  if (!check) markDatabaseAvailable();
}
