import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "@platform/db/client";
import { auditLog, auditStoreChainHead } from "@platform/db/schema";
import { observeAuditCheck } from "@platform/metrics";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import {
  type AuditContext,
  type AuditVerification,
  type ChainPoint,
  GENESIS_HASH,
  GLOBAL_CHAIN,
  recordAudit,
  verifyAuditChain,
} from "./audit.server";

/**
 * The audit chain's signed head (ADR 020, issue 33). The chain's hash has no key, so whoever holds the database
 * can cut the newest rows off and move `audit_chain_head` back, or recompute every hash after a change: the
 * chain alone still checks out. So the app signs the head it has verified — seq and hash, HMAC-SHA256 with
 * AUDIT_ANCHOR_KEY, which the database never sees — into a file outside the database (AUDIT_ANCHOR_FILE), every
 * minute on the job queue and after every full check. A chain that ends before the signed seq was cut; a row at
 * the signed seq with another hash was rewritten; a signed head that does not verify was forged or edited.
 * The signed head only moves forward, and only over a chain that links to it.
 */

export type AuditAnchorConfig = { key: string; file: string };

const FORMAT = "han-living audit head v1";

export type SignedHead = { format: typeof FORMAT; seq: number; hash: string; signedAt: string; mac: string };

const signedHeadSchema = z.object({
  format: z.literal(FORMAT),
  seq: z.number().int().min(0),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  signedAt: z.string().min(1).max(40),
  mac: z.string().regex(/^[0-9a-f]{64}$/),
});

function mac(key: string, head: Omit<SignedHead, "mac">): string {
  return createHmac("sha256", key).update(`${head.format}\n${head.seq}\n${head.hash}\n${head.signedAt}`).digest("hex");
}

export type SignedHeadState = { state: "none" } | { state: "invalid"; why: string } | { state: "ok"; head: SignedHead };

/** The signed head on file: none yet, one that does not verify with the key (why), or a good one. */
export function readSignedHead(anchor: AuditAnchorConfig): SignedHeadState {
  let text: string;
  try {
    text = readFileSync(anchor.file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "none" };
    return { state: "invalid", why: `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { state: "invalid", why: "is not JSON" };
  }
  const head = signedHeadSchema.safeParse(parsed);
  if (!head.success) return { state: "invalid", why: "is not a signed head" };
  const expected = Buffer.from(mac(anchor.key, head.data), "hex");
  if (!timingSafeEqual(expected, Buffer.from(head.data.mac, "hex"))) {
    return { state: "invalid", why: "does not verify with AUDIT_ANCHOR_KEY (edited, or signed with another key)" };
  }
  return { state: "ok", head: head.data };
}

/**
 * Signs `point` into the file, atomically (a new file renamed over the old one). Never backwards: a head on
 * file at or past `point` (another instance was quicker) is kept; nor over a signed head that does not verify.
 */
function writeSignedHead(anchor: AuditAnchorConfig, point: ChainPoint, now: Date): void {
  const current = readSignedHead(anchor);
  if (current.state === "invalid" || (current.state === "ok" && current.head.seq >= point.seq)) return;
  const unsigned = { format: FORMAT, seq: point.seq, hash: point.hash, signedAt: now.toISOString() } as const;
  const head: SignedHead = { ...unsigned, mac: mac(anchor.key, unsigned) };
  mkdirSync(path.dirname(anchor.file), { recursive: true });
  const temporary = `${anchor.file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(head, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, anchor.file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

export type AuditLogVerification =
  | { ok: true; rows: number; lastSeq: number; signedSeq: number | null; signedAt: string | null }
  | {
      ok: false;
      /** The first row that does not check out (for `truncated`, the first row cut off). */
      seq: number;
      reason:
        | Extract<AuditVerification, { ok: false }>["reason"]
        /** The chain ends before the signed head's seq: its newest rows were cut off. */
        | "truncated"
        /** The row at the signed head's seq is not the one signed: the chain was recomputed or replaced. */
        | "rewritten"
        /** The signed head on file does not verify with the key. */
        | "signed_head_invalid";
      rows: number;
      /** Where the chain ends now (truncated). */
      lastSeq?: number;
      signedSeq?: number;
      signedAt?: string;
      /** The store chain it is in (ADR 039); absent for the global chain. */
      chain?: string;
    };

/** Where a failed check is said, at error level (pino's logger, or a test's). */
export type AuditAlertLogger = { error(fields: object, message: string): void };

type CheckOptions = { logger?: AuditAlertLogger; now?: Date };

/** The row at the signed head's seq must still be there, with the signed hash. */
async function compareWithSignedHead(
  db: Database,
  head: SignedHead,
  rows: number,
): Promise<Extract<AuditLogVerification, { ok: false }> | null> {
  if (head.seq === 0) return null;
  const signed = { signedSeq: head.seq, signedAt: head.signedAt };
  const [row] = await db
    .select({ hash: auditLog.hash })
    .from(auditLog)
    .where(and(eq(auditLog.chain, GLOBAL_CHAIN), eq(auditLog.seq, head.seq)));
  if (!row) {
    const [end] = await db
      .select({ last: sql<string | number | null>`max(${auditLog.seq})` })
      .from(auditLog)
      .where(eq(auditLog.chain, GLOBAL_CHAIN));
    const lastSeq = Number(end?.last ?? 0);
    if (lastSeq < head.seq) return { ok: false, reason: "truncated", seq: lastSeq + 1, rows, lastSeq, ...signed };
    return { ok: false, reason: "missing_rows", seq: head.seq, rows, ...signed };
  }
  if (row.hash !== head.hash) return { ok: false, reason: "rewritten", seq: head.seq, rows, ...signed };
  return null;
}

const LOG_LINES: Partial<Record<Extract<AuditLogVerification, { ok: false }>["reason"], string>> = {
  truncated: "audit log cut: the chain ends before its signed head (rows were deleted and the head moved back)",
  rewritten: "audit log rewritten: the row at the signed head's seq is not the one signed",
  signed_head_invalid: "audit log's signed head does not verify (edited, or signed with another key)",
};

/** Every check's outcome: the metrics, and on failure one line at error level (alerting, docs/operations.md). */
function settle(result: AuditLogVerification, anchor: AuditAnchorConfig, options: CheckOptions): AuditLogVerification {
  observeAuditCheck({
    ok: result.ok,
    reason: result.ok ? undefined : result.reason,
    lastSeq: result.ok ? result.lastSeq : (result.lastSeq ?? null),
  });
  if (!result.ok) {
    options.logger?.error(
      { ...result, file: anchor.file },
      LOG_LINES[result.reason] ?? "audit log broken: a row does not verify",
    );
  }
  return result;
}

function sign(anchor: AuditAnchorConfig, point: ChainPoint, options: CheckOptions): void {
  try {
    writeSignedHead(anchor, point, options.now ?? new Date());
  } catch (error) {
    options.logger?.error({ err: error, file: anchor.file }, "audit log's head could not be signed");
  }
}

async function hashAt(db: Database, seq: number, chain = GLOBAL_CHAIN): Promise<string> {
  if (seq === 0) return GENESIS_HASH;
  const [row] = await db
    .select({ hash: auditLog.hash })
    .from(auditLog)
    .where(and(eq(auditLog.chain, chain), eq(auditLog.seq, seq)));
  if (!row) throw new Error(`audit row ${seq} vanished while it was being signed`);
  return row.hash;
}

/**
 * The whole check (`npm run audit:verify`, the hourly job, the console's "check now"): walks the whole chain,
 * then holds it against the signed head; when both hold, signs the chain's new end.
 */
export async function verifyAuditLog(
  db: Database,
  anchor: AuditAnchorConfig,
  options: CheckOptions = {},
): Promise<AuditLogVerification> {
  const chain = await verifyAuditChain(db);
  if (!chain.ok) return settle(chain, anchor, options);
  const unanchored = await compareWithAnchors(db, chain.rows);
  if (unanchored) return settle(unanchored, anchor, options);
  const signed = readSignedHead(anchor);
  if (signed.state === "invalid") {
    return settle({ ok: false, reason: "signed_head_invalid", seq: 0, rows: chain.rows }, anchor, options);
  }
  if (signed.state === "ok") {
    const broken = await compareWithSignedHead(db, signed.head, chain.rows);
    if (broken) return settle(broken, anchor, options);
  }
  sign(anchor, { seq: chain.lastSeq, hash: await hashAt(db, chain.lastSeq) }, options);
  const head = readSignedHead(anchor);
  return settle(
    {
      ok: true,
      rows: chain.rows,
      lastSeq: chain.lastSeq,
      signedSeq: head.state === "ok" ? head.head.seq : null,
      signedAt: head.state === "ok" ? head.head.signedAt : null,
    },
    anchor,
    options,
  );
}

/**
 * The minute's step (job `audit.sign-head`): holds the chain against the signed head, walks only the rows
 * appended since, and signs the new end. It never signs a chain that does not link to the signed head.
 */
export async function signAuditHead(
  db: Database,
  anchor: AuditAnchorConfig,
  options: CheckOptions = {},
): Promise<AuditLogVerification> {
  const signed = readSignedHead(anchor);
  if (signed.state === "invalid") {
    return settle({ ok: false, reason: "signed_head_invalid", seq: 0, rows: 0 }, anchor, options);
  }
  const from: ChainPoint = signed.state === "ok" ? signed.head : { seq: 0, hash: GENESIS_HASH };
  if (signed.state === "ok") {
    const broken = await compareWithSignedHead(db, signed.head, 0);
    if (broken) return settle(broken, anchor, options);
  }
  // The store chains' new ends go into the global chain first, so the head signed below covers them.
  const unanchored = await anchorStoreChains(db, options.now ?? new Date());
  if (unanchored) return settle(unanchored, anchor, options);
  const chain = await verifyAuditChain(db, { from });
  if (!chain.ok) return settle(chain, anchor, options);
  sign(anchor, { seq: chain.lastSeq, hash: await hashAt(db, chain.lastSeq) }, options);
  return settle(
    {
      ok: true,
      rows: chain.lastSeq,
      lastSeq: chain.lastSeq,
      signedSeq: Math.max(chain.lastSeq, from.seq),
      signedAt: null,
    },
    anchor,
    options,
  );
}

/** The anchor's actor in the global chain. */
const ANCHOR_CONTEXT: AuditContext = {
  actorType: "system",
  label: "audit-anchor",
  ip: null,
  userAgent: null,
  requestId: null,
};

/** An anchor row's `changes`: `{ chains: { after: { [storeId]: { seq, hash } } } }`. */
type AnchoredChains = Record<string, ChainPoint>;

/**
 * The minute's anchor of the store chains (ADR 039): each store chain whose head moved since its last anchor is
 * walked from there (the rows appended since must link to it and hash right), and its verified end goes into the
 * global chain as one `audit.chains_anchored` row (then signed with the global head). A store chain that does not
 * check out is not anchored: the failure is returned (and the minute's job reports it).
 */
export async function anchorStoreChains(
  db: Database,
  now = new Date(),
): Promise<Extract<AuditLogVerification, { ok: false }> | null> {
  const moved = await db
    .select()
    .from(auditStoreChainHead)
    .where(gt(auditStoreChainHead.seq, auditStoreChainHead.anchoredSeq))
    .orderBy(auditStoreChainHead.storeId);
  if (moved.length === 0) return null;
  const points: AnchoredChains = {};
  for (const head of moved) {
    const walked = await verifyAuditChain(db, {
      chain: head.storeId,
      from: { seq: head.anchoredSeq, hash: head.anchoredHash },
    });
    if (!walked.ok) return { ...walked, chain: head.storeId };
    points[head.storeId] = { seq: walked.lastSeq, hash: await hashAt(db, walked.lastSeq, head.storeId) };
  }
  await db.transaction(async (tx) => {
    await recordAudit(
      tx,
      {
        context: ANCHOR_CONTEXT,
        action: "audit.chains_anchored",
        targetType: "audit_chain",
        targetId: null,
        after: { chains: points },
      },
      now,
    );
    for (const [storeId, point] of Object.entries(points)) {
      await tx
        .update(auditStoreChainHead)
        .set({ anchoredSeq: point.seq, anchoredHash: point.hash })
        .where(
          and(eq(auditStoreChainHead.storeId, storeId), gt(sql`${point.seq}::bigint`, auditStoreChainHead.anchoredSeq)),
        );
    }
  });
  return null;
}

/** The newest anchored point of every store chain, from the anchor rows of the (verified) global chain. */
async function latestAnchors(db: Database): Promise<AnchoredChains> {
  const rows = await db
    .select({ changes: auditLog.changes })
    .from(auditLog)
    .where(and(eq(auditLog.chain, GLOBAL_CHAIN), eq(auditLog.action, "audit.chains_anchored")))
    .orderBy(desc(auditLog.seq));
  const latest: AnchoredChains = {};
  for (const row of rows) {
    const chains = (row.changes?.chains?.after ?? {}) as AnchoredChains;
    for (const [storeId, point] of Object.entries(chains)) latest[storeId] ??= point;
  }
  return latest;
}

/**
 * Each store chain against its newest anchor in the global chain (which the signed head covers): the anchored row
 * must still be there with the anchored hash. A store chain that ends before it was cut; another hash there means
 * the chain was recomputed or replaced — what the signed head catches for the global chain.
 */
async function compareWithAnchors(
  db: Database,
  rows: number,
): Promise<Extract<AuditLogVerification, { ok: false }> | null> {
  for (const [chain, point] of Object.entries(await latestAnchors(db))) {
    const [row] = await db
      .select({ hash: auditLog.hash })
      .from(auditLog)
      .where(and(eq(auditLog.chain, chain), eq(auditLog.seq, point.seq)));
    if (row?.hash === point.hash) continue;
    const [end] = await db
      .select({ last: sql<string | number | null>`max(${auditLog.seq})` })
      .from(auditLog)
      .where(eq(auditLog.chain, chain));
    const lastSeq = Number(end?.last ?? 0);
    const reason = lastSeq < point.seq ? "truncated" : row ? "rewritten" : "missing_rows";
    return { ok: false, reason, seq: reason === "truncated" ? lastSeq + 1 : point.seq, rows, lastSeq, chain };
  }
  return null;
}
