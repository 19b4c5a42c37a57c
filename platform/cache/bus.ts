import type { PGlite } from "@electric-sql/pglite";
import { logBackgroundFailure } from "@platform/db/availability";
import { APPLICATION_NAME, type DatabaseConnection } from "@platform/db/client";
import type { Logger } from "@platform/logger";
import postgres from "postgres";

/**
 * The invalidation bus of the per-instance caches (ADR 026). Triggers in the database (migration
 * `cache_invalidation`) send `pg_notify('han_cache', …)` in the transaction of every change a cache
 * must not outlive; PostgreSQL delivers it at commit to every instance's listening connection, PGlite
 * to its in-process listener. Payloads:
 *
 * - `u:<user id>`   a session, the user or the member record of that user changed (sessions cache)
 * - `m:<member id>` that member's points, coupons, purchases or favourites changed (summary cache)
 * - `m:*`           every member's summary (rewards, rules, stores, materials, or a bulk change)
 * - `k`             an API key changed (API-key cache)
 * - `c`             hours exceptions, categories, what a showroom displays, uploaded images (the
 *                   catalogue cache, which also empties on `m:*`: showrooms and materials send that)
 * - `*`             everything (sent by the bus itself after it (re)connects)
 *
 * While the listening connection is down the bus is not `live`: caches neither answer nor store, so
 * every request reads the database. When it is back it first listens, then clears every cache, and
 * only then is live again: nothing sent while it was away can survive.
 */
export const CACHE_CHANNEL = "han_cache";

export type CacheBus = {
  readonly driver: "postgres" | "pglite";
  /** Listening, and every cache cleared since the last (re)connection: caches may answer. */
  readonly live: boolean;
  /**
   * Bumped by every invalidation and reconnection. A cache fill takes it before reading the
   * database and stores only if it has not moved: a read that raced a change is never kept.
   */
  readonly epoch: number;
  /** The PostgreSQL backend of the listening connection (pg_stat_activity.pid); null on PGlite or while down. */
  readonly backendPid: number | null;
  subscribe(listener: (payload: string) => void): () => void;
  /** Resolves once `live` is the given value (tests; the readiness of a fresh instance). */
  until(live: boolean): Promise<void>;
  /** Resolves when this instance next receives the payload (tests: "B has been told"). */
  heard(payload: string, timeoutMs?: number): Promise<void>;
  /**
   * Resolves once everything committed before the call has reached this instance's listener: a
   * notification of its own, sent now, has come back (PostgreSQL delivers in commit order). A write
   * answered after its fence was also signalled to every other instance's listener by then. On
   * PGlite delivery is synchronous and this does nothing; while the bus is down, nothing either.
   */
  fence(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

const RETRY_MIN_MS = 100;
const PROBE_TIMEOUT_MS = 5_000;
const HEARTBEAT_MS = 15_000;
const RETRY_MAX_MS = 5_000;

export async function startCacheBus(connection: DatabaseConnection, logger?: Logger): Promise<CacheBus> {
  const listeners = new Set<(payload: string) => void>();
  const expected = new Map<string, Set<() => void>>();
  const waiters = new Set<{ live: boolean; resolve: () => void }>();
  const state = { live: false, epoch: 0, closed: false, backendPid: null as number | null };

  const emit = (payload: string) => {
    state.epoch++;
    const waiting = expected.get(payload);
    if (waiting) {
      expected.delete(payload);
      for (const resolve of waiting) resolve();
    }
    for (const listener of listeners) {
      try {
        listener(payload);
      } catch (error) {
        logger?.error({ err: error, payload }, "cache invalidation listener failed");
      }
    }
  };
  const setLive = (live: boolean) => {
    state.live = live;
    for (const waiter of [...waiters]) {
      if (waiter.live === live) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const heard = (payload: string, timeoutMs = 5_000) =>
    new Promise<void>((resolve, reject) => {
      let waiting = expected.get(payload);
      if (!waiting) {
        waiting = new Set();
        expected.set(payload, waiting);
      }
      const timer = setTimeout(() => {
        waiting.delete(done);
        reject(new Error(`cache bus: ${payload} not received within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      waiting.add(done);
    });

  let stop: () => Promise<void>;
  let fence: (timeoutMs: number) => Promise<void> = async () => {};
  if (connection.driver === "pglite") {
    stop = await listenPglite(connection.client, emit);
    // In-process: the listener cannot drop while the database is open.
    emit("*");
    setLive(true);
  } else {
    let retryMs = RETRY_MIN_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const options = {
      max: 1,
      // One long-lived connection: never closed for being idle or old (a close would cost a re-listen).
      idle_timeout: 0,
      max_lifetime: null,
      connect_timeout: 5,
      fetch_types: false,
      onnotice: () => {},
      connection: { application_name: `${APPLICATION_NAME.slice(0, 56)}:listen` },
      // postgres.js delivers every notification of the connection here (an option its types omit).
      onnotify(channel: string, payload: string) {
        if (channel === CACHE_CHANNEL) emit(payload);
      },
      onclose() {
        lost("connection closed");
      },
    };
    const sql = postgres(connection.url, options as postgres.Options<Record<string, never>>);
    let fences = 0;
    /** A notification of our own, sent and received back on the listening connection. */
    const probe = async (timeoutMs: number) => {
      const payload = `fence:${process.pid}:${++fences}`;
      const back = heard(payload, timeoutMs);
      const sent = sql`select pg_notify(${CACHE_CHANNEL}, ${payload})`.execute();
      // Bounded by the wait for the echo, even when the statement itself never returns.
      await Promise.all([sent, back]).catch((error) => {
        sent.catch(() => {});
        back.catch(() => {});
        throw error;
      });
    };
    const lost = (reason: string, error?: unknown) => {
      if (state.closed) return;
      if (state.live && logger) {
        const message = `cache invalidation listener lost (${reason}): caches bypassed`;
        logBackgroundFailure(logger, "warn", { error, reachability: true }, { err: error }, message);
      }
      // Whatever is cached may have changed unseen: drop it now, and again once listening.
      emit("*");
      state.backendPid = null;
      setLive(false);
      schedule();
    };
    const listen = async () => {
      timer = undefined;
      if (state.closed) return;
      try {
        await sql.unsafe(`listen ${CACHE_CHANNEL}`);
        const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
        if (state.closed) return;
        state.backendPid = backend?.pid ?? null;
        // Delivery proven before use: behind a transaction-mode pooler LISTEN "succeeds" but nothing
        // comes back, and the caches must then stay off.
        await probe(PROBE_TIMEOUT_MS);
        if (state.closed) return;
        // Listening first, then clearing: a change made while we were away is either cleared here
        // or notified from now on.
        emit("*");
        retryMs = RETRY_MIN_MS;
        setLive(true);
        logger?.debug("cache invalidation listener ready");
      } catch (error) {
        if (logger) {
          const message = "cache invalidation listener: cannot listen (or nothing comes back), caches bypassed";
          logBackgroundFailure(logger, "warn", { error, reachability: true }, { err: error }, message);
        }
        schedule();
      }
    };
    const schedule = () => {
      if (state.closed || timer) return;
      timer = setTimeout(listen, retryMs);
      timer.unref?.();
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    };
    await listen();
    // A connection that died without a word (no FIN) would otherwise look alive until TCP gives up.
    const heartbeat = setInterval(() => {
      if (state.live) probe(PROBE_TIMEOUT_MS).catch((error) => lost("heartbeat not answered", error));
    }, HEARTBEAT_MS);
    heartbeat.unref?.();
    fence = async (timeoutMs) => {
      if (!state.live) return;
      // A lost connection is the bus's own business (bypass, re-listen); the write stands.
      await probe(timeoutMs).catch((error) => logger?.warn({ err: error }, "cache fence not confirmed"));
    };
    stop = async () => {
      clearTimeout(timer);
      clearInterval(heartbeat);
      await sql.end({ timeout: 5 });
    };
  }

  return {
    driver: connection.driver,
    get live() {
      return state.live && !state.closed;
    },
    get epoch() {
      return state.epoch;
    },
    get backendPid() {
      return state.backendPid;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    heard,
    fence: (timeoutMs = 2_000) => fence(timeoutMs),
    until(live) {
      if (state.live === live) return Promise.resolve();
      return new Promise((resolve) => waiters.add({ live, resolve }));
    },
    async close() {
      if (state.closed) return;
      state.closed = true;
      setLive(false);
      emit("*");
      await stop();
    },
  };
}

async function listenPglite(client: PGlite, emit: (payload: string) => void): Promise<() => Promise<void>> {
  const unlisten = await client.listen(CACHE_CHANNEL, emit);
  return async () => {
    // The database may already be closed at shutdown; there is nothing left to stop then.
    if (!client.closed) await unlisten().catch(() => {});
  };
}
