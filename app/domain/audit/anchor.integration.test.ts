import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Database } from "@platform/db/client";
import { auditLog } from "@platform/db/schema";
import { registry } from "@platform/metrics";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type AuditAnchorConfig, readSignedHead, signAuditHead, verifyAuditLog } from "./anchor.server";
import { type AuditContext, auditRowHash, GENESIS_HASH, recordAudit, verifyAuditChain } from "./audit.server";
import { lastAuditCheck, runAuditSign } from "./chain-check.server";

// The signed head (issue 33): the newest rows cut off, or the whole chain recomputed with the unkeyed hash, by
// someone who holds the database but not AUDIT_ANCHOR_KEY. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
let db: Database;
useMigratedTestDatabase("audit_anchor", (handle) => {
  db = handle.db;
});

const dir = mkdtempSync(path.join(tmpdir(), "audit-anchor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let anchor: AuditAnchorConfig;
let file = 0;

const errors: { fields: Record<string, unknown>; message: string }[] = [];
const logger = {
  error: (fields: object, message: string) => {
    errors.push({ fields: fields as Record<string, unknown>, message });
  },
};

const system: AuditContext = { actorType: "system", label: "test", ip: null, userAgent: null, requestId: null };

async function append(n: number, label = "a") {
  for (let i = 0; i < n; i++) {
    await db.transaction((tx) =>
      recordAudit(tx, {
        context: system,
        action: "settings.changed",
        targetType: "test",
        targetId: `${label}-${i}`,
        after: { i },
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

/** What a superuser can do without the key: delete the newest rows and move the head back onto the row left. */
async function cutNewest(count: number) {
  const [{ last } = { last: 0 }] = (await db.select({ last: sql<number>`max(seq)::int` }).from(auditLog)) as {
    last: number;
  }[];
  const keep = last - count;
  const [kept] = await db.select().from(auditLog).where(eq(auditLog.seq, keep));
  await tamper(
    sql`delete from audit_log where seq > ${keep}`,
    sql`update audit_chain_head set seq = ${keep}, hash = ${kept?.hash ?? GENESIS_HASH}`,
  );
}

function failures(reason: string): number {
  const metric = registry.getSingleMetric("hanliving_audit_chain_failures_total") as unknown as
    | { hashMap: Record<string, { value: number; labels: { reason?: string } }> }
    | undefined;
  return Object.values(metric?.hashMap ?? {}).find((v) => v.labels.reason === reason)?.value ?? 0;
}

describe("the audit chain's signed head", () => {
  beforeEach(async () => {
    await db.execute(sql`alter table audit_log disable trigger audit_log_no_truncate`);
    await db.execute(sql`truncate audit_log`);
    await db.execute(sql`alter table audit_log enable trigger audit_log_no_truncate`);
    await db.execute(sql`update audit_chain_head set seq = 0, hash = ${GENESIS_HASH}`);
    file += 1;
    anchor = { key: "k".repeat(40), file: path.join(dir, `anchor-${file}.json`) };
    errors.length = 0;
  });

  it("follows the untouched chain, which still verifies", async () => {
    await append(3);
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: true, rows: 3, lastSeq: 3 });
    expect(readSignedHead(anchor)).toMatchObject({ state: "ok", head: { seq: 3 } });
    await append(2);
    expect(await signAuditHead(db, anchor, { logger })).toMatchObject({ ok: true, lastSeq: 5 });
    const signed = readSignedHead(anchor);
    const [row5] = await db.select().from(auditLog).where(eq(auditLog.seq, 5));
    expect(signed).toMatchObject({ state: "ok", head: { seq: 5, hash: row5?.hash } });
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: true, rows: 5, lastSeq: 5 });
    expect(errors).toEqual([]);
  });

  it("reports the newest rows cut off with the head moved back, and never signs the shorter chain", async () => {
    await append(5);
    expect(await signAuditHead(db, anchor, { logger })).toMatchObject({ ok: true, lastSeq: 5 });
    const before = failures("truncated");
    await cutNewest(2);
    // The unkeyed chain alone cannot tell: what is left is a valid chain.
    expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 3, lastSeq: 3 });
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({
      ok: false,
      reason: "truncated",
      seq: 4,
      rows: 3,
      signedSeq: 5,
    });
    expect(await signAuditHead(db, anchor, { logger })).toMatchObject({ ok: false, reason: "truncated", seq: 4 });
    expect(readSignedHead(anchor)).toMatchObject({ state: "ok", head: { seq: 5 } });
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/audit log cut/),
      expect.stringMatching(/audit log cut/),
    ]);
    expect(errors[0]?.fields).toMatchObject({ reason: "truncated", lastSeq: 3, signedSeq: 5 });
    expect(failures("truncated")).toBe(before + 2);
    // The minute's job says so on the console's status line at once (not only at the hourly check).
    await runAuditSign({ db, anchor, logger });
    expect(await lastAuditCheck(db)).toMatchObject({ ok: false, reason: "truncated", lastSeq: 3, signedSeq: 5 });
    // New appends after the cut take the cut seqs again, with other content: still not the signed row.
    await append(3, "b");
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: false, reason: "rewritten", seq: 5 });
  });

  it("detects a chain recomputed from the start with the unkeyed hash", async () => {
    await append(4);
    expect(await signAuditHead(db, anchor, { logger })).toMatchObject({ ok: true, lastSeq: 4 });
    // Change row 2, then re-hash it and every row after it, and move the head: the unkeyed chain verifies.
    await tamper(sql`update audit_log set target_id = 'rewritten' where seq = 2`);
    let previous = (await db.select().from(auditLog).where(eq(auditLog.seq, 1)))[0]?.hash ?? GENESIS_HASH;
    for (const row of await db.select().from(auditLog).where(sql`seq >= 2`).orderBy(asc(auditLog.seq))) {
      const hash = auditRowHash({ ...row, prevHash: previous });
      await tamper(sql`update audit_log set prev_hash = ${previous}, hash = ${hash} where seq = ${row.seq}`);
      previous = hash;
    }
    await db.execute(sql`update audit_chain_head set hash = ${previous}`);
    expect(await verifyAuditChain(db)).toEqual({ ok: true, rows: 4, lastSeq: 4 });
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: false, reason: "rewritten", seq: 4 });
    expect(errors[0]?.message).toMatch(/audit log rewritten/);
  });

  it("refuses a signed head written without the key, and one from another key", async () => {
    await append(2);
    await signAuditHead(db, anchor, { logger });
    const signed = JSON.parse(readFileSync(anchor.file, "utf8"));
    writeFileSync(anchor.file, JSON.stringify({ ...signed, seq: 1 }));
    expect(readSignedHead(anchor)).toMatchObject({ state: "invalid" });
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: false, reason: "signed_head_invalid" });
    writeFileSync(anchor.file, JSON.stringify(signed));
    expect(await verifyAuditLog(db, { ...anchor, key: "o".repeat(40) }, { logger })).toMatchObject({
      ok: false,
      reason: "signed_head_invalid",
    });
    expect(await verifyAuditLog(db, anchor, { logger })).toMatchObject({ ok: true, lastSeq: 2 });
  });
});
