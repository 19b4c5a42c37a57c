import { type DatabaseHandle, openDatabase, rowsOf } from "@platform/db/client";
import { dueBy } from "@platform/jobs/due";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let testDb: TestDatabase;
let database: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "due" });
  database = await openDatabase(testDb.config);
});

afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

async function isDue(stamped: string, now: Date): Promise<boolean> {
  const result = await database.db.execute(sql`select ${stamped}::timestamptz < ${dueBy(now)} as due`);
  return rowsOf<{ due: boolean }>(result)[0]?.due === true;
}

describe("dueBy", () => {
  const now = new Date("2026-12-07T10:00:00.123Z");

  it("a time stamped within now's millisecond is due (the database's microseconds after the JavaScript reading)", async () => {
    expect(await isDue("2026-12-07T10:00:00.123000Z", now)).toBe(true);
    expect(await isDue("2026-12-07T10:00:00.123999Z", now)).toBe(true);
    expect(await isDue("2026-12-07T09:59:59Z", now)).toBe(true);
  });

  it("a time in the next millisecond or later is not", async () => {
    expect(await isDue("2026-12-07T10:00:00.124000Z", now)).toBe(false);
    expect(await isDue("2026-12-07T10:00:01Z", now)).toBe(false);
  });
});
