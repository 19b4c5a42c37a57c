import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { auditLog } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuditContext, recordAudit, verifyAuditChain } from "./audit.server";

// Two app instances (two connection pools) appending at the same moment: the chain must not fork.
let testDb: TestDatabase;
let one: DatabaseHandle;
let two: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "audit_pg", poolMax: 8, migrated: true });
  one = await openDatabase(testDb.config);
  await one.migrate();
  two = await openDatabase(testDb.config);
});

afterAll(async () => {
  await one?.close();
  await two?.close();
  await testDb?.drop();
});

// Console writes (the global chain); POS writes go to their store's chain (ADR 039).
const context = (instance: number): AuditContext => ({
  actorType: "staff",
  userId: `user-${instance}`,
  role: "admin",
  storeId: null,
  ip: null,
  userAgent: null,
  requestId: null,
});
const till = (instance: number): AuditContext => ({
  actorType: "api_key",
  apiKeyId: "5b0f1c9e-3f7a-4c53-9d1e-0c2a4b6d8e10",
  storeId: `store-${instance}`,
  ip: null,
  userAgent: null,
  requestId: null,
});

describe("audit appends on PostgreSQL", () => {
  it("serialises simultaneous appends from two instances into one unbroken chain", async () => {
    const appends = Array.from({ length: 60 }, (_, i) => {
      const handle = i % 2 === 0 ? one : two;
      return handle.db.transaction(async (tx) => {
        const row = await recordAudit(tx, {
          context: context(i % 2),
          action: "purchase.recorded",
          targetType: "purchase",
          targetId: `p-${i}`,
          after: { netAmount: i + 1 },
        });
        // Some transactions roll back after appending: they must leave no row and no gap.
        if (i % 7 === 3) throw new Error("rolled back on purpose");
        return row;
      });
    });
    const results = await Promise.allSettled(appends);
    const committed = results.filter((r) => r.status === "fulfilled").length;
    expect(committed).toBe(60 - results.filter((_, i) => i % 7 === 3).length);

    const rows = await one.db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: committed }, (_, i) => i + 1));
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.prevHash).toBe(rows[i - 1]?.hash);
    expect(new Set(rows.map((r) => r.prevHash)).size).toBe(rows.length);
    expect(await verifyAuditChain(two.db)).toEqual({ ok: true, rows: committed, lastSeq: committed });
  });

  it("serialises simultaneous POS appends of two stores, first writes included, into one unbroken chain each (ADR 039)", async () => {
    const appends = Array.from({ length: 60 }, (_, i) => {
      const handle = i % 2 === 0 ? one : two;
      return handle.db.transaction(async (tx) => {
        const row = await recordAudit(tx, {
          context: till(i % 2),
          action: "purchase.recorded",
          targetType: "purchase",
          targetId: `p-${i}`,
          after: { netAmount: i + 1 },
        });
        if (i % 7 === 3) throw new Error("rolled back on purpose");
        return row;
      });
    });
    const results = await Promise.allSettled(appends);
    const committed = results.filter((r) => r.status === "fulfilled").length;
    expect(committed).toBe(60 - results.filter((_, i) => i % 7 === 3).length);
    let total = 0;
    for (const chain of ["store-0", "store-1"]) {
      const rows = await one.db.select().from(auditLog).where(eq(auditLog.chain, chain)).orderBy(asc(auditLog.seq));
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
      for (let i = 1; i < rows.length; i++) expect(rows[i]?.prevHash).toBe(rows[i - 1]?.hash);
      expect(await verifyAuditChain(two.db, { chain })).toEqual({ ok: true, rows: rows.length, lastSeq: rows.length });
      total += rows.length;
    }
    expect(total).toBe(committed);
  });
});
