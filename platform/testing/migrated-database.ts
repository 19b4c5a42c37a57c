import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { afterAll, beforeAll } from "vitest";

/**
 * For a test file on the database: a fresh migrated database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL), opened in beforeAll (then `ready` gets the handle) and dropped in afterAll.
 */
export function useMigratedTestDatabase(label: string, ready: (handle: DatabaseHandle) => void): void {
  let testDb: TestDatabase | undefined;
  let database: DatabaseHandle | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase({ label, migrated: true });
    database = await openDatabase(testDb.config);
    await database.migrate();
    ready(database);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });
}
