import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Database } from "@platform/db/client";
import { auditLog, auditStoreChainHead } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { insertTestStores } from "@platform/testing/stores";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AuditAnchorConfig, anchorStoreChains, signAuditHead, verifyAuditLog } from "./anchor.server";
import {
  type AuditContext,
  auditRowHash,
  GENESIS_HASH,
  recordAudit,
  recordAudits,
  verifyAuditChain,
} from "./audit.server";
import { runAuditSign } from "./chain-check.server";

// One audit chain per store for POS writes, anchored every minute into the global chain (ADR 039): a changed,
// deleted or cut row in a store chain is found by the chain check, and the anchors are what make a store chain
// that was recomputed or cut (with its head moved back) visible, as the signed head does for the global chain.
let db: Database;
useMigratedTestDatabase("audit_store_chain", (handle) => {
  db = handle.db;
});

const dir = mkdtempSync(path.join(tmpdir(), "audit-store-chain-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let anchor: AuditAnchorConfig;
let file = 0;
const logger = { error: () => {} };

const till = (storeId: string): AuditContext => ({
  actorType: "api_key",
  apiKeyId: "00000000-0000-4000-8000-000000000001",
  storeId,
  ip: "127.0.0.1",
  userAgent: "HanPOS/3.1",
  requestId: null,
});
const staff: AuditContext = {
  actorType: "staff",
  userId: "user-1",
  role: "admin",
  storeId: null,
  ip: null,
  userAgent: null,
  requestId: null,
};

async function append(context: AuditContext, n: number, label: string) {
  for (let i = 0; i < n; i++) {
    await db.transaction((tx) =>
      recordAudit(tx, {
        context,
        action: "purchase.recorded",
        targetType: "purchase",
        targetId: `${label}-${i}`,
        after: { netAmount: 1000 + i },
      }),
    );
  }
}

async function tamper(...statements: ReturnType<typeof sql>[]) {
  await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
  try {
    for (const statement of statements) await db.execute(statement);
  } finally {
    await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
  }
}

beforeAll(async () => {
  await insertTestStores(db, ["TPE01", "KHH01"]);
});

describe("store audit chains", () => {
  beforeEach(async () => {
    await db.execute(sql`alter table audit_log disable trigger audit_log_no_truncate`);
    await db.execute(sql`truncate audit_log`);
    await db.execute(sql`alter table audit_log enable trigger audit_log_no_truncate`);
    await db.execute(sql`update audit_chain_head set seq = 0, hash = ${GENESIS_HASH}`);
    await db.delete(auditStoreChainHead);
    file += 1;
    anchor = { key: "k".repeat(40), file: path.join(dir, `anchor-${file}.json`) };
  });

  it("puts POS writes in their store's chain and the rest in the global one; each links and verifies", async () => {
    await append(till("TPE01"), 3, "t");
    await append(staff, 2, "s");
    await append(till("KHH01"), 2, "k");
    const rows = await db.select().from(auditLog).orderBy(asc(auditLog.pos));
    expect(rows.map((r) => [r.chain, r.seq])).toEqual([
      ["TPE01", 1],
      ["TPE01", 2],
      ["TPE01", 3],
      ["", 1],
      ["", 2],
      ["KHH01", 1],
      ["KHH01", 2],
    ]);
    // Each store chain starts at the genesis and links to its own previous row; the chain's name is hashed.
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(rows[5]?.prevHash).toBe(GENESIS_HASH);
    for (const row of rows) expect(auditRowHash(row)).toBe(row.hash);
    expect(auditRowHash({ ...rows[0]!, chain: "KHH01" })).not.toBe(rows[0]?.hash);
    expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 7, lastSeq: 2 });
    expect(await verifyAuditChain(db, { chain: "TPE01" })).toEqual({ ok: true, rows: 3, lastSeq: 3 });
    const [head] = await db.select().from(auditStoreChainHead).where(eq(auditStoreChainHead.storeId, "TPE01"));
    expect(head).toMatchObject({ seq: 3, hash: rows[2]?.hash, anchoredSeq: 0 });
  });

  it("appends several rows of one chain in one statement as that many appends would (recordAudits)", async () => {
    const entry = (context: AuditContext, targetId: string) => ({
      context,
      action: "purchase.recorded" as const,
      targetType: "purchase",
      targetId,
      after: { netAmount: 1000 },
    });
    await append(till("TPE01"), 1, "one");
    const two = await db.transaction((tx) =>
      recordAudits(tx, [entry(till("TPE01"), "two-a"), entry(till("TPE01"), "two-b")]),
    );
    const first = await db.transaction((tx) => recordAudits(tx, [entry(staff, "g-a"), entry(staff, "g-b")]));
    expect(two.map((r) => r.seq)).toEqual([2, 3]);
    expect(first.map((r) => r.seq)).toEqual([1, 2]);
    const rows = await db.select().from(auditLog).orderBy(asc(auditLog.pos));
    expect(rows.map((r) => [r.chain, r.seq, r.targetId])).toEqual([
      ["TPE01", 1, "one-0"],
      ["TPE01", 2, "two-a"],
      ["TPE01", 3, "two-b"],
      ["", 1, "g-a"],
      ["", 2, "g-b"],
    ]);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(rows[2]?.prevHash).toBe(rows[1]?.hash);
    expect(rows[3]?.prevHash).toBe(GENESIS_HASH);
    for (const row of rows) expect(auditRowHash(row)).toBe(row.hash);
    expect(two.map((r) => r.hash)).toEqual([rows[1]?.hash, rows[2]?.hash]);
    expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 5, lastSeq: 2 });
    const [head] = await db.select().from(auditStoreChainHead).where(eq(auditStoreChainHead.storeId, "TPE01"));
    expect(head).toMatchObject({ seq: 3, hash: rows[2]?.hash });
    // Rows of two chains cannot share an append: nothing is written.
    await expect(
      db.transaction((tx) => recordAudits(tx, [entry(staff, "x"), entry(till("KHH01"), "y")])),
    ).rejects.toThrow(/one chain/);
    expect(await db.select().from(auditLog)).toHaveLength(5);
  });

  it("finds a changed, a deleted and a moved row in a store chain", async () => {
    await append(till("TPE01"), 4, "t");
    await append(till("KHH01"), 1, "k");
    await tamper(
      sql`update audit_log set changes = '{"netAmount":{"before":null,"after":1}}' where chain = 'TPE01' and seq = 2`,
    );
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, chain: "TPE01", seq: 2, reason: "hash_mismatch" });
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: false, chain: "TPE01", seq: 2 });
    await tamper(sql`delete from audit_log where chain = 'TPE01' and seq = 2`);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, chain: "TPE01", seq: 2, reason: "missing_rows" });
    // Moved to another store's chain: the hash covers the chain's name.
    await tamper(sql`update audit_log set chain = 'KHH01', seq = 2 where chain = 'TPE01' and seq = 4`);
    expect(await verifyAuditChain(db, { chain: "KHH01" })).toMatchObject({ ok: false, seq: 2 });
  });

  it("anchors each moved store chain into the global chain every minute, and the signed head covers the anchor", async () => {
    await append(till("TPE01"), 3, "t");
    await append(till("KHH01"), 1, "k");
    expect(await runAuditSign({ db, anchor, logger })).toMatchObject({ ok: true, lastSeq: 1 });
    const [anchorRow] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.chain, ""), eq(auditLog.action, "audit.chains_anchored")));
    const tpe = await db.select().from(auditLog).where(eq(auditLog.chain, "TPE01")).orderBy(asc(auditLog.seq));
    const khh = await db.select().from(auditLog).where(eq(auditLog.chain, "KHH01"));
    expect(anchorRow).toMatchObject({ actorType: "system", actorRole: "audit-anchor", targetType: "audit_chain" });
    expect(anchorRow?.changes).toEqual({
      chains: {
        before: null,
        after: { KHH01: { seq: 1, hash: khh[0]?.hash }, TPE01: { seq: 3, hash: tpe[2]?.hash } },
      },
    });
    // Nothing moved: no new anchor row. One store moved: an anchor of that store only.
    expect(await anchorStoreChains(db)).toBeNull();
    expect(await verifyAuditChain(db, { chain: "" })).toMatchObject({ ok: true, lastSeq: 1 });
    await append(till("TPE01"), 1, "u");
    expect(await signAuditHead(db, anchor, { logger })).toMatchObject({ ok: true, lastSeq: 2 });
    const [second] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.chain, ""), eq(auditLog.seq, 2)));
    expect(Object.keys((second?.changes?.chains?.after ?? {}) as object)).toEqual(["TPE01"]);
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: true, rows: 7, lastSeq: 2 });
  });

  it("finds a store chain cut or recomputed behind its anchor, though the chain alone checks out", async () => {
    await append(till("TPE01"), 4, "t");
    expect(await signAuditHead(db, anchor, { logger })).toMatchObject({ ok: true });
    // Cut the two newest rows and move the store's head back: the chain alone verifies.
    const [kept] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.chain, "TPE01"), eq(auditLog.seq, 2)));
    await tamper(
      sql`delete from audit_log where chain = 'TPE01' and seq > 2`,
      sql`update audit_store_chain_head set seq = 2, hash = ${kept?.hash} where store_id = 'TPE01'`,
    );
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({
      ok: false,
      reason: "truncated",
      chain: "TPE01",
      seq: 3,
      lastSeq: 2,
    });
    // The same chain recomputed to another end at the anchored seq: rewritten.
    await append(till("TPE01"), 2, "x");
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: false, reason: "rewritten", seq: 4 });
  });

  it("refuses to anchor a store chain that does not link to its last anchor", async () => {
    await append(till("TPE01"), 2, "t");
    expect(await signAuditHead(db, anchor, { logger })).toMatchObject({ ok: true });
    await append(till("TPE01"), 2, "u");
    await tamper(sql`update audit_log set target_id = 'changed' where chain = 'TPE01' and seq = 4`);
    expect(await signAuditHead(db, anchor, { logger })).toMatchObject({
      ok: false,
      chain: "TPE01",
      seq: 4,
      reason: "hash_mismatch",
    });
    const anchors = await db.select().from(auditLog).where(eq(auditLog.action, "audit.chains_anchored"));
    expect(anchors).toHaveLength(1);
  });
});
