import { type Database, type DatabaseHandle, openDatabase } from "@platform/db/client";
import { type JobQueue, startJobQueue } from "@platform/jobs/queue";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";

export type JobQueueRig = { readonly database: DatabaseHandle; readonly queue: JobQueue };

/**
 * For a test file about scheduled jobs: a fresh migrated database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL) with a job queue that polls every half second, the file's jobs registered on
 * it. Opened in beforeAll, stopped and dropped in afterAll.
 */
export function jobQueueTestRig(
  label: string,
  register: (queue: JobQueue, db: Database) => Promise<unknown>,
): JobQueueRig {
  let testDb: TestDatabase | undefined;
  let database: DatabaseHandle | undefined;
  let queue: JobQueue | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase({ label, migrated: true });
    database = await openDatabase(testDb.config);
    await database.migrate();
    queue = await startJobQueue({
      connection: database.connection,
      logger: pino({ level: "silent" }),
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 0.5,
    });
    await register(queue, database.db);
  });
  afterAll(async () => {
    await queue?.stop(2000);
    await database?.close();
    await testDb?.drop();
  });
  return {
    get database() {
      if (!database) throw new Error("the job queue rig opens in beforeAll");
      return database;
    },
    get queue() {
      if (!queue) throw new Error("the job queue rig opens in beforeAll");
      return queue;
    },
  };
}
