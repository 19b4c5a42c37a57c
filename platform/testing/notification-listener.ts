import { type CacheBus, startCacheBus } from "@platform/cache/bus";
import { type Database, type DatabaseHandle, openDatabase } from "@platform/db/client";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "./database";

export type NotificationListener = {
  /** The migrated test database (PGlite, or PostgreSQL with TEST_DATABASE_URL); set once `beforeAll` has run. */
  readonly handle: DatabaseHandle;
  readonly db: Database;
  /**
   * The cache notifications one write sends, each once and without the bus's own fences: the bus is fenced before
   * and after the write, so on PostgreSQL every notification of the write has come back when this resolves.
   */
  heardFrom(write: () => Promise<unknown>): Promise<string[]>;
};

/**
 * A migrated test database with the cache bus listening to it, for tests of the triggers that notify the caches
 * (ADR 039). Call at the top of a test file: it registers its own `beforeAll` (create, migrate, listen) and
 * `afterAll` (close, drop); `label` names the throwaway database.
 */
export function listenToCacheNotifications(label: string): NotificationListener {
  let testDb: TestDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  let bus: CacheBus | undefined;
  const heard: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase({ label, migrated: true });
    handle = await openDatabase(testDb.config);
    await handle.migrate();
    bus = await startCacheBus(handle.connection);
    await bus.until(true);
    bus.subscribe((payload) => heard.push(payload));
  }, 120_000);

  afterAll(async () => {
    await bus?.close();
    await handle?.close();
    await testDb?.drop();
  });

  const opened = () => {
    if (!handle || !bus) throw new Error("listenToCacheNotifications: used before its beforeAll ran");
    return { handle, bus };
  };
  return {
    get handle() {
      return opened().handle;
    },
    get db() {
      return opened().handle.db;
    },
    async heardFrom(write) {
      const { bus } = opened();
      await bus.fence();
      heard.length = 0;
      await write();
      await bus.fence();
      return [...new Set(heard)].filter((p) => !p.startsWith("fence:"));
    },
  };
}
