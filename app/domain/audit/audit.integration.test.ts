import type { Database } from "@platform/db/client";
import { auditLog } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { asc, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type AuditAction,
  type AuditContext,
  auditChanges,
  auditedTx,
  auditRowHash,
  MASKED,
  recordAudit,
  recordPersonalDataView,
  verifyAuditChain,
} from "./audit.server";

let db: Database;
useMigratedTestDatabase("audit", (handle) => {
  db = handle.db;
});

const clerk: AuditContext = {
  actorType: "staff",
  userId: "user-clerk",
  role: "staff",
  storeId: "taipei-xinyi",
  ip: "203.0.113.9",
  userAgent: "Mozilla/5.0 (iPad)",
  requestId: "req-12345678",
};

async function append(n: number, action: AuditAction = "purchase.recorded") {
  for (let i = 0; i < n; i++) {
    await db.transaction((tx) =>
      recordAudit(tx, {
        context: clerk,
        action,
        targetType: "purchase",
        targetId: `p-${i}`,
        after: { netAmount: 1000 + i, receiptNumber: `R${i}` },
      }),
    );
  }
}

/** What a superuser could do: switch the guard off, change history, switch it back on. */
async function tamper(statement: ReturnType<typeof sql>) {
  await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
  try {
    await db.execute(statement);
  } finally {
    await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
  }
}

async function errorOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return `${(error as Error).message} ${cause?.message ?? ""}`;
  }
  return "no error";
}

describe("the audit log", () => {
  beforeEach(async () => {
    // A fresh chain per test (the truncate trigger is switched off only here).
    await db.execute(sql`alter table audit_log disable trigger audit_log_no_truncate`);
    await db.execute(sql`truncate audit_log`);
    await db.execute(sql`alter table audit_log enable trigger audit_log_no_truncate`);
    await db.execute(sql`update audit_chain_head set seq = 0, hash = ${"0".repeat(64)}`);
  });

  it("chains rows: each links to the previous hash, seq without gaps, and the chain verifies", async () => {
    await append(5);
    const rows = await db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0]?.prevHash).toBe("0".repeat(64));
    for (let i = 1; i < rows.length; i++) expect(rows[i]?.prevHash).toBe(rows[i - 1]?.hash);
    expect(rows[2]).toMatchObject({
      actorType: "staff",
      actorUserId: "user-clerk",
      actorRole: "staff",
      storeId: "taipei-xinyi",
      action: "purchase.recorded",
      targetType: "purchase",
      targetId: "p-2",
      changes: { netAmount: { before: null, after: 1002 }, receiptNumber: { before: null, after: "R2" } },
      ip: "203.0.113.9",
      userAgent: "Mozilla/5.0 (iPad)",
      requestId: "req-12345678",
    });
    expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 5, lastSeq: 5 });
    // Small batches walk the same chain.
    expect(await verifyAuditChain(db, { batchSize: 2 })).toEqual({ ok: true, rows: 5, lastSeq: 5 });
  });

  it("refuses UPDATE, DELETE and TRUNCATE in the database", async () => {
    await append(2);
    expect(await errorOf(() => db.execute(sql`update audit_log set action = 'x' where seq = 1`))).toMatch(
      /append-only/,
    );
    expect(await errorOf(() => db.execute(sql`delete from audit_log where seq = 2`))).toMatch(/append-only/);
    expect(await errorOf(() => db.execute(sql`truncate audit_log`))).toMatch(/append-only/);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 2 });
  });

  it("names the first altered row when history was changed behind the trigger's back", async () => {
    await append(6);
    await tamper(sql`update audit_log set changes = '{"netAmount":{"before":null,"after":1}}' where seq = 4`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, seq: 4, reason: "hash_mismatch" });
    // Re-hashing the altered row does not help: the next row's link breaks.
    const [row] = await db.select().from(auditLog).where(sql`seq = 4`);
    const { auditRowHash } = await import("./audit.server");
    await tamper(sql`update audit_log set hash = ${auditRowHash(row!)} where seq = 4`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, seq: 5, reason: "broken_link" });
  });

  it("names a deleted row, and rows cut off the end", async () => {
    await append(5);
    await tamper(sql`delete from audit_log where seq = 3`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, seq: 3, reason: "missing_rows" });
    await tamper(sql`delete from audit_log where seq >= 3`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, seq: 3, reason: "missing_rows" });
  });

  it("keeps no row and no gap for a change that rolled back", async () => {
    await append(1);
    const failed = await errorOf(() =>
      db.transaction(async (tx) => {
        await recordAudit(tx, {
          context: clerk,
          action: "refund.recorded",
          targetType: "purchase",
          targetId: "p-x",
        });
        throw new Error("the change failed");
      }),
    );
    expect(failed).toMatch(/the change failed/);
    await append(1);
    expect((await db.select({ seq: auditLog.seq }).from(auditLog)).map((r) => r.seq).sort()).toEqual([1, 2]);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, rows: 2 });
  });

  it("stores what a request could send (NUL bytes, long user agents) without failing", async () => {
    await db.transaction((tx) =>
      recordAudit(tx, {
        context: { ...clerk, userAgent: `x\u0000${"y".repeat(2000)}` },
        action: "member.revealed",
        targetType: "member",
        targetId: "m-1",
        after: { note: "a\u0000b", tags: ["a\u0000"] },
      }),
    );
    const [row] = await db.select().from(auditLog);
    expect(row?.userAgent).toHaveLength(500);
    expect(row?.changes).toEqual({ note: { before: null, after: MASKED }, tags: { before: null, after: ["a"] } });
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });
  it("hashes in the database exactly the text the verifier hashes, whatever the content", async () => {
    // The append hashes in SQL (one statement under the head's lock); the verifier hashes in JavaScript.
    const rows = [];
    for (const title of ["冬季會員日 🎁", 'quote " and back\\slash', "\\u0000prev\\u0000 looks like a slot", "é\n\t"]) {
      rows.push(
        await db.transaction((tx) =>
          recordAudit(tx, {
            context: { ...clerk, userAgent: `瀏覽器 ${title}` },
            action: "programme.updated",
            targetType: "campaign",
            targetId: "c-1",
            after: { title, points: 12, nested: { 名稱: title } },
          }),
        ),
      );
    }
    const stored = await db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(stored.map((r) => [r.seq, r.prevHash, r.hash])).toEqual(rows.map((r) => [r.seq, r.prevHash, r.hash]));
    for (const row of stored) expect(auditRowHash(row)).toBe(row.hash);
    expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 4, lastSeq: 4 });
  });
});

describe("audited writes (auditedTx)", () => {
  const now = new Date("2026-03-01T02:00:00Z");

  it("writes, one line per action, the rows recordAudit writes, in the transaction of the change", async () => {
    const rows = await auditedTx(db, clerk, now, async (_tx, record) => [
      await record("reward.stock-adjusted", ["reward", "r-1"], {
        before: { stock: 1 },
        after: { stock: 5, note: "x" },
      }),
      await record("member.exported", ["member_export", null]),
    ]);
    const stored = await db
      .select()
      .from(auditLog)
      .where(sql`seq >= ${rows[0]?.seq ?? 0}`)
      .orderBy(asc(auditLog.seq));
    expect(stored).toEqual(rows);
    expect(stored.map((r) => [r.action, r.targetType, r.targetId, r.changes])).toEqual([
      [
        "reward.stock-adjusted",
        "reward",
        "r-1",
        { stock: { before: 1, after: 5 }, note: { before: null, after: MASKED } },
      ],
      ["member.exported", "member_export", null, null],
    ]);
    expect(stored.map((r) => [r.occurredAt.toISOString(), r.actorUserId, r.storeId, r.requestId])).toEqual([
      [now.toISOString(), "user-clerk", "taipei-xinyi", "req-12345678"],
      [now.toISOString(), "user-clerk", "taipei-xinyi", "req-12345678"],
    ]);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });

  it("keeps no row when the change rolls back", async () => {
    const [head] = await db.select({ count: sql<number>`count(*)::int` }).from(auditLog);
    const failed = await errorOf(() =>
      auditedTx(db, clerk, now, async (_tx, record) => {
        await record("settings.changed", ["setting", "s-1"], { after: { value: 1 } });
        throw new Error("the change failed");
      }),
    );
    expect(failed).toMatch(/the change failed/);
    const [after] = await db.select({ count: sql<number>`count(*)::int` }).from(auditLog);
    expect(after?.count).toBe(head?.count);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });
});

describe("views of personal data", () => {
  it("records which fields were shown, never their values", async () => {
    const row = await db.transaction((tx) =>
      recordPersonalDataView(tx, clerk, {
        memberId: "m-7",
        fields: ["phoneNumber", "email"],
        purpose: "counter identity check",
      }),
    );
    expect(row).toMatchObject({ action: "member.revealed", targetType: "member", targetId: "m-7" });
    expect(row.changes).toEqual({
      fieldsShown: { before: null, after: ["email", "phoneNumber"] },
      purpose: { before: null, after: "counter identity check" },
    });
  });
});

describe("auditChanges", () => {
  it("keeps only changed fields and masks personal values", () => {
    expect(
      auditChanges(
        { phoneNumber: "+886912345678", tier: "basic", balance: 10, email: null, disabled: false },
        { phoneNumber: "+886987654321", tier: "silver", balance: 10, email: "a@example.com", disabled: false },
      ),
    ).toEqual({
      email: { before: null, after: MASKED },
      phoneNumber: { before: MASKED, after: MASKED },
      tier: { before: "basic", after: "silver" },
    });
    expect(auditChanges({ a: 1 }, { a: 1 })).toBeNull();
    expect(auditChanges(null, { at: new Date("2026-01-02T03:04:05Z") })).toEqual({
      at: { before: null, after: "2026-01-02T03:04:05.000Z" },
    });
  });
});
