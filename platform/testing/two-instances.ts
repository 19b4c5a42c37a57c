import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { afterAll, beforeAll } from "vitest";

export type TwoInstances = { one: DatabaseHandle; two: DatabaseHandle; testDb: TestDatabase };

/**
 * For a race test: a fresh migrated PostgreSQL database (TEST_DATABASE_URL) opened twice, the two handles standing
 * in for two app instances (PGlite serialises everything on one connection, so such a file refuses to run on it).
 * Opened in beforeAll (then `ready` gets both), closed and dropped in afterAll.
 */
export function useTwoPostgresInstances(
  label: string,
  ready: (pair: TwoInstances) => void,
  options: { poolMax?: number } = {},
): void {
  let testDb: TestDatabase | undefined;
  let one: DatabaseHandle | undefined;
  let two: DatabaseHandle | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase({ label, poolMax: options.poolMax ?? 12, migrated: true });
    if (testDb.driver !== "postgres") throw new Error("This file needs TEST_DATABASE_URL (PostgreSQL)");
    one = await openDatabase(testDb.config);
    await one.migrate();
    two = await openDatabase(testDb.config);
    ready({ one, two, testDb });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await testDb?.drop();
  });
}
