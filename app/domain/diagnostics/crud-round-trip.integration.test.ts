import { type Database, type DatabaseHandle, openDatabase } from "@platform/db/client";
import { diagnosticProbe } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCrudRoundTrip } from "./crud-round-trip.server";

let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "crud", migrated: true });
  handle = await openDatabase(testDb.config);
  await handle.migrate();
});

afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
});

describe("runCrudRoundTrip", () => {
  it("creates, reads, updates and deletes a probe row, all steps ok", async () => {
    const steps = await runCrudRoundTrip(handle.db, "probe 漢生活 ✓");
    expect(steps.map((s) => [s.step, s.ok])).toEqual([
      ["create", true],
      ["read", true],
      ["update", true],
      ["delete", true],
      ["verify-deleted", true],
    ]);
    expect(steps[0]?.detail).toMatch(/^[0-9a-f-]{36}$/);
    expect(steps[1]?.detail).toBe("label=probe 漢生活 ✓");
    expect(steps[2]?.detail).toBe("counter=1");
    expect(steps[3]?.detail).toBe("rows=1");
    expect(await handle.db.select().from(diagnosticProbe)).toEqual([]);
  });

  it("runs again and again without leaving rows behind", async () => {
    const runs = await Promise.all(["a", "b", "c"].map((label) => runCrudRoundTrip(handle.db, label)));
    for (const steps of runs) expect(steps.every((s) => s.ok)).toBe(true);
    // Each run worked on its own row.
    expect(new Set(runs.map((steps) => steps[0]?.detail)).size).toBe(3);
    expect(await handle.db.select().from(diagnosticProbe)).toEqual([]);
  });

  it("leaves other rows alone", async () => {
    const [other] = await handle.db.insert(diagnosticProbe).values({ label: "someone else's" }).returning();
    try {
      const steps = await runCrudRoundTrip(handle.db, "mine");
      expect(steps.every((s) => s.ok)).toBe(true);
      const remaining = await handle.db.select().from(diagnosticProbe);
      expect(remaining.map((r) => r.id)).toEqual([other?.id]);
    } finally {
      await handle.db.delete(diagnosticProbe);
    }
  });

  it("deletes its row even when a step in the middle fails", async () => {
    // A database whose update fails: the round trip must still clean up before the error surfaces.
    const failingUpdate = new Proxy(handle.db, {
      get(target, property, receiver) {
        if (property === "update") {
          return () => {
            throw new Error("update failed on purpose");
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as Database;
    await expect(runCrudRoundTrip(failingUpdate, "interrupted")).rejects.toThrow("update failed on purpose");
    expect(await handle.db.select().from(diagnosticProbe)).toEqual([]);
  });
});
