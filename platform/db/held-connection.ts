import type postgres from "postgres";

/**
 * One pooled PostgreSQL connection held for one POS write (ADR 039), so its round trips can be cut: the key's
 * counter goes out on it before BEGIN (its own commit, outside the transaction, as ADR 030 wants), BEGIN goes out
 * with the transaction's first statements instead of being awaited alone, and COMMIT can be sent with the
 * transaction's last batch (`commitNow`). PostgreSQL runs what one connection sends in order, so none of this
 * changes what runs; only when the app waits. On PGlite (one connection, no wire) there is nothing to hold:
 * `holdConnection` returns null and the callers do what they did before.
 */
export type HeldConnection = {
  /** Sends one statement on the held connection now (outside any transaction unless one is open on it). */
  send<T extends Record<string, unknown>>(text: string, params: unknown[]): Promise<T[]>;
  /**
   * Runs `db.transaction(run)` on the held connection, BEGIN pipelined (db must be the held connection's). `begin`
   * must call `db.transaction` before its first await (Drizzle calls postgres.js's `begin` synchronously); a
   * transaction begun later is postgres.js's own, on another connection of the pool.
   */
  transaction<T>(begin: () => Promise<T>): Promise<T>;
  /**
   * Sends COMMIT now, behind what was already sent. If a statement before it fails, PostgreSQL answers the
   * COMMIT by rolling back: nothing half-done commits. The transaction's end then only waits for it.
   */
  commitNow(): Promise<void>;
  /** Gives the connection back to the pool (once; after a lost connection, the pool has it already). */
  release(): void;
};

type Holdable = { client: postgres.Sql; prepare: boolean };

const holdable = new WeakMap<object, Holdable>();
/**
 * The held connection whose `transaction(begin)` is running `begin` now: the one `begin` call that comes while it
 * runs is that transaction's (withHeldTransactions). Handed over synchronously rather than through an
 * AsyncLocalStorage: on Node 20 one `run()` turns on the promise hooks for every promise of the process for good,
 * which cost the app about 2 % of its CPU under POS purchases (ADR 060).
 */
let handing: HeldState | null = null;

type HeldState = {
  reserved: postgres.ReservedSql;
  used: boolean;
  commit: Promise<unknown> | null;
  /** COMMIT has gone to the connection: a statement of the transaction after it would run outside it. */
  commitSent: boolean;
  lost: boolean;
};

/** Registers the postgres.js client behind a Database (openDatabase, PostgreSQL only). */
export function registerHoldable(db: object, client: postgres.Sql, prepare: boolean): void {
  holdable.set(db, { client, prepare });
}

/** A postgres.js error from PostgreSQL itself (the connection is fine), not a lost or closed connection. */
function fromServer(error: unknown): boolean {
  return typeof error === "object" && error !== null && "severity" in error;
}

/** Holds one connection of the pool behind `db`; null on PGlite. */
export async function holdConnection(db: object): Promise<HeldConnection | null> {
  const found = holdable.get(db);
  if (!found) return null;
  const reserved = await found.client.reserve();
  const state: HeldState = { reserved, used: false, commit: null, commitSent: false, lost: false };
  let released = false;
  const watch = <T>(query: Promise<T>): Promise<T> => {
    query.then(undefined, (error) => {
      if (!fromServer(error)) state.lost = true;
    });
    return query;
  };
  return {
    send: <T>(text: string, params: unknown[]) =>
      watch(
        reserved.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: found.prepare }).execute(),
      ) as unknown as Promise<T[]>,
    transaction: (begin) => {
      const outer = handing;
      handing = state;
      try {
        return begin();
      } finally {
        handing = outer;
      }
    },
    commitNow: async () => {
      // After the statements the caller has started: they reach postgres.js in the microtasks that follow
      // their calls, and postgres.js writes what it was given in one turn in its own setImmediate, which
      // comes after this one (ADR 039). COMMIT joins that write, last.
      state.commit ??= new Promise((resolve, reject) => {
        setImmediate(() => {
          state.commitSent = true;
          watch(reserved.unsafe("commit").execute()).then(resolve, reject);
        });
      });
      await state.commit;
    },
    release: () => {
      if (released) return;
      released = true;
      // A lost connection is back in the pool's closed list already (postgres.js onclose); releasing it
      // again would put a dead socket among the open ones.
      if (!state.lost) reserved.release();
    },
  };
}

/**
 * postgres.js's `begin`, except inside `HeldConnection.transaction`: there the transaction runs on the held
 * connection, BEGIN is sent and not awaited (the callback's first statements follow it in the same write), and
 * COMMIT is skipped when `commitNow` sent it already. Any other transaction is postgres.js's own.
 */
export function withHeldTransactions(client: postgres.Sql): postgres.Sql {
  return new Proxy(client, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop !== "begin" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const state = handing;
        if (!state || state.used || typeof args[0] !== "function") return value.apply(obj, args);
        state.used = true;
        handing = null;
        return heldTransaction(state, args[0] as (tx: postgres.Sql) => Promise<unknown>);
      };
    },
  });
}

async function heldTransaction<T>(state: HeldState, run: (tx: postgres.Sql) => Promise<T>): Promise<T> {
  const { reserved } = state;
  const began = reserved.unsafe("begin").execute();
  // Its failure (a lost connection) fails the statements behind it too; it is awaited below.
  began.catch(() => {});
  // A statement sent after COMMIT would run outside the transaction: refused loudly (a caller's bug).
  // Nested transactions are savepoints, as in postgres.js's own transaction handle (Drizzle calls `savepoint`).
  let savepoints = 0;
  const savepoint = async (fn: (tx: postgres.Sql) => Promise<unknown>) => {
    const name = `s${savepoints++}`;
    await guarded.unsafe(`savepoint ${name}`);
    try {
      return await fn(guarded);
    } catch (error) {
      await guarded.unsafe(`rollback to ${name}`);
      throw error;
    }
  };
  const guarded: postgres.Sql = new Proxy(reserved, {
    get(obj, prop, receiver) {
      if (prop === "savepoint") return savepoint;
      const value = Reflect.get(obj, prop, receiver);
      if (prop !== "unsafe" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (state.commitSent) throw new Error("a statement after COMMIT: commitNow must come last in its batch");
        return value.apply(obj, args);
      };
    },
  });
  let result: T;
  try {
    result = await run(guarded);
    await began;
  } catch (error) {
    if (state.commit) await state.commit.catch(() => {});
    // After a COMMIT already answered (committed, or rolled back by PostgreSQL), this only warns.
    await reserved.unsafe("rollback").catch(() => {});
    throw error;
  }
  if (state.commit) await state.commit;
  else await reserved.unsafe("commit");
  return result;
}
