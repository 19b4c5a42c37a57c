import { createHash, randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { auditChainHead, auditLog, auditStoreChainHead } from "@platform/db/schema";
import { type Slot, type Slots, type TextStatement, textStatement } from "@platform/db/statement";
import { and, asc, eq, gt, ne, sql } from "drizzle-orm";
import type { StaffRole } from "../staff/permissions";

/**
 * The audit log (ADR 020). Every console write, every POS API write and every view of a member's full
 * personal data calls recordAudit() inside the transaction of the change, so the row exists if and
 * only if the change committed. Rows are chained: hash = SHA-256(canonical content + previous hash).
 */

export const GENESIS_HASH = "0".repeat(64);

/** Who acted. */
export type AuditActor =
  | { actorType: "staff"; userId: string; role: StaffRole; storeId: string | null }
  | { actorType: "api_key"; apiKeyId: string; storeId: string }
  | { actorType: "system"; label: string };

/** From where (any may be unknown). */
export type AuditWhere = { ip: string | null; userAgent: string | null; requestId: string | null };

/** Who and from where, built once per request and handed to every write (auditContext()). */
export type AuditContext = AuditActor & AuditWhere;

/**
 * Every action the log knows, `area.verb` in the past tense of the business: `purchase.recorded`,
 * `staff.invited`. A new audited action is added here first; a string not in this list does not compile.
 */
export const AUDIT_ACTIONS = [
  "api_key.created",
  "api_key.revoked",
  // E-invoice carrier at the till (ADR 041).
  "api_key.scope_refused",
  "api_key.scopes_changed",
  "member.einvoice_read",
  "audit.chains_anchored",
  "campaign.cancelled",
  "campaign.created",
  "campaign.scheduled",
  "campaign.sent",
  "campaign.test-sent",
  "campaign.updated",
  "category.created",
  "category.moved",
  "category.updated",
  "console.access_refused",
  "coupon.cancelled",
  "coupon.used",
  "image.alt_changed",
  "image.deleted",
  "image.uploaded",
  "material.created",
  "material.published",
  "material.unpublished",
  "material.updated",
  "member.card_refused",
  "member.consultant_changed",
  "member.disabled",
  "member.email_verification_sent",
  "member.enabled",
  "member.exported",
  "member.note_added",
  "member.revealed",
  "member.sessions_ended",
  "messages.automatic-updated",
  "import.cancelled",
  "import.completed",
  "points.adjusted",
  "points.adjustment_approved",
  "points.adjustment_rejected",
  "points.adjustment_requested",
  "points.bulk_grant_approved",
  "points.bulk_grant_cancelled",
  "points.bulk_grant_rejected",
  "points.bulk_grant_requested",
  "points.bulk_granted",
  // A spend of points the member confirms with a code (issue 36, ADR 052).
  "points.spend_code_refused",
  "points.spend_code_sent",
  "programme.updated",
  "purchase.recorded",
  // Quote lists (issue 37 part 4, ADR 047).
  "quote.answered",
  "purchase.refunded",
  "refund.recorded",
  // Referrals (issue 38, ADR 053): a referral's reward, its month's limit reached, its reversal by a refund.
  "referral.capped",
  "referral.reversed",
  "referral.rewarded",
  "reward.created",
  "reward.reactivated",
  "reward.retired",
  "reward.stock-adjusted",
  "reward.updated",
  // The LINE rich menus by member state (ADR 049).
  "rich_menu.published",
  "rich_menu.removed",
  "rich_menu.retried",
  "rules.scheduled",
  // Saved segments (ADR 056).
  "segment.archived",
  "segment.created",
  "segment.updated",
  // Samples (issue 37 part 3, ADR 046).
  "sample.handed_out",
  "sample.ready",
  "sample.returned",
  "settings.changed",
  // The showroom settings (issue 37, ADR 050).
  "showroom.settings_changed",
  "staff.access_changed",
  "staff.code_changed",
  "staff.disabled",
  "staff.enabled",
  "staff.invitation_accepted",
  "staff.invitation_login_failed",
  "staff.invitation_revoked",
  "staff.invited",
  "staff.login_failed",
  "staff.second_factor_enrolled",
  "staff.second_factor_given",
  "staff.second_factor_locked",
  "staff.second_factor_reset",
  "staff.second_factor_unlocked",
  "staff.session_ended",
  "store.created",
  "store.draft_saved",
  "store.published",
  "store.unpublished",
  // Trade accounts (issue 38 part 2, ADR 057): an admin's decision on an application.
  "trade.approved",
  "trade.rejected",
  // Showroom visits (issue 37, ADR 045).
  "appointment.checked_in",
  "appointment.consultant_assigned",
  "appointment.cancelled_by_staff",
  "appointment.call_done",
  "appointment.visit_noted",
  "appointment.follow_up_done",
  // Outbound webhooks (ADR 054).
  "webhook.created",
  "webhook.updated",
  "webhook.secret_rotated",
  "webhook.enabled",
  "webhook.disabled",
  "webhook.auto_disabled",
  "webhook.redelivered",
  // Showroom appointments (issue 37): a store's kinds, lengths, weekly start times and capacity.
  "store.appointments_changed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditEntry = {
  context: AuditContext;
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  /** The target's fields before and after; only changed fields are kept, personal values masked. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

export type AuditRow = typeof auditLog.$inferSelect;

const MAX_TEXT = 500;

/** The who/where of a request: the user agent from the request; IP and request id from the server. */
export function auditContext(
  request: Request | null,
  actor: AuditActor,
  where: { ip?: string | null; requestId?: string | null } = {},
): AuditContext {
  return {
    ...actor,
    ip: where.ip ?? null,
    userAgent: request?.headers.get("user-agent") ?? null,
    requestId: where.requestId ?? request?.headers.get("x-request-id") ?? null,
  };
}

/**
 * Field names whose values are personal data: the log keeps that they changed, never the values.
 * Secrets (passwords, tokens, TOTP secrets) are masked the same way.
 */
export const PERSONAL_FIELDS: ReadonlySet<string> = new Set([
  "name",
  "nameZh",
  "nameEn",
  "displayName",
  "phone",
  "phoneNumber",
  "email",
  "pendingEmail",
  "birthday",
  "gender",
  "address",
  "postalCode",
  "city",
  "district",
  "companyName",
  "taxIdNumber",
  "carrier",
  "einvoiceCarrier",
  "password",
  "secret",
  "token",
  "note",
]);

export const MASKED = "[masked]";

/** JSON values as PostgreSQL's jsonb keeps them (dates as ISO strings, no undefined, no NUL). */
function jsonValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return value.replaceAll("\u0000", "");
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonValue(v)]));
  }
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  return value;
}

/** The changed fields of before → after, personal values masked. Null when nothing changed. */
export function auditChanges(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): Record<string, { before: unknown; after: unknown }> | null {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of [...keys].sort()) {
    const b = jsonValue(before?.[key]);
    const a = jsonValue(after?.[key]);
    if (canonicalJson(b) === canonicalJson(a)) continue;
    changes[key] = PERSONAL_FIELDS.has(key)
      ? { before: b === null ? null : MASKED, after: a === null ? null : MASKED }
      : { before: b, after: a };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/** JSON with object keys sorted at every level: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

type HashedContent = Omit<AuditRow, "hash" | "pos">;

/** The global chain's name ('' in `audit_log.chain`); a store's chain is named by the store's id (ADR 039). */
export const GLOBAL_CHAIN = "";

/**
 * Which chain a write goes to (ADR 039): a POS write (an API key's, always one store's) to its store's chain, so
 * the stores' tills do not queue on one head; everything else (console, counter, system) to the global chain.
 */
export function auditChainOf(context: AuditContext): string {
  return context.actorType === "api_key" ? context.storeId : GLOBAL_CHAIN;
}

/**
 * What the hash covers: the row's content, which includes the previous row's hash. A store chain's row also
 * covers its chain's name (so a row cannot be moved to another chain); a global row's text is as before ADR 039.
 */
function auditHashedFields(row: HashedContent): Record<string, unknown> {
  return {
    ...(row.chain ? { chain: row.chain } : {}),
    seq: row.seq,
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    actorType: row.actorType,
    actorUserId: row.actorUserId,
    actorRole: row.actorRole,
    apiKeyId: row.apiKeyId,
    storeId: row.storeId,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    changes: row.changes ?? null,
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    prevHash: row.prevHash,
  };
}

/** SHA-256 over the row's canonical content, which includes the previous row's hash. */
export function auditRowHash(row: HashedContent): string {
  return createHash("sha256")
    .update(canonicalJson(auditHashedFields(row)))
    .digest("hex");
}

function text(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.replaceAll("\u0000", "").slice(0, MAX_TEXT);
}

/** Stand-ins for the two values only the chain's head knows, cut out of the canonical text again. */
const SEQ_SLOT = "\u0000seq\u0000";
const PREV_SLOT = "\u0000prev\u0000";
/** The stand-ins as canonicalJson writes them: the hash's inside its quotes, the seq's quoted. */
const PREV_SLOT_IN_JSON = JSON.stringify(PREV_SLOT).slice(1, -1);
const SEQ_SLOT_IN_JSON = JSON.stringify(SEQ_SLOT);

/**
 * The row's canonical content (auditRowHash's text) in three pieces around the previous hash and the seq:
 * `before + prevHash + middle + seq + after`. The keys are sorted, so `prevHash` comes before `seq`.
 */
export function auditHashPieces(content: Omit<HashedContent, "seq" | "prevHash">): [string, string, string] {
  // The stand-ins in the fields' places (canonicalJson sorts the keys: where they were put does not matter).
  const canonical = canonicalJson(
    auditHashedFields({ ...content, seq: SEQ_SLOT as unknown as number, prevHash: PREV_SLOT }),
  );
  // The hash goes inside its quotes; the seq, a number, replaces its quoted stand-in.
  const [before, rest] = splitOnce(canonical, PREV_SLOT_IN_JSON);
  const [middle, after] = splitOnce(rest, SEQ_SLOT_IN_JSON);
  return [before, middle, after];
}

function splitOnce(text: string, slot: string): [string, string] {
  const at = text.indexOf(slot);
  if (at < 0 || text.indexOf(slot, at + 1) >= 0) throw new Error("audit content must hold each slot exactly once");
  return [text.slice(0, at), text.slice(at + slot.length)];
}

/**
 * Appends one row, inside the caller's transaction, in one statement (ADR 030): it locks the chain's head,
 * takes `seq + 1`, hashes the row's canonical content with the previous hash in the database
 * (`sha256`, the same text auditRowHash hashes, which verifyAuditChain checks), inserts the row and moves
 * the head. The head's row lock (held to the commit) serialises appends across every app instance: each
 * row links to the one committed before it, and a rolled-back change leaves neither its row nor a gap.
 * The head stays locked from this statement to the commit, so nothing else should follow it.
 */
export async function recordAudit(tx: Database, entry: AuditEntry, now = new Date()): Promise<AuditRow> {
  const [row] = await recordAudits(tx, [entry], now);
  if (!row) throw new Error("recordAudits appended nothing");
  return row;
}

/**
 * Appends several rows of one chain (the same actor's chain: ADR 039) in recordAudit's one statement, in the order
 * given: each row its own seq, hash and link to the row before it, exactly as that many recordAudit calls would
 * write them, for one lock of the head and one statement (a referral decided by a purchase: its row and the
 * purchase's, ADR 053 "Later (2026-12-07)"). Every row is still its own fact, verified like any other.
 */
export async function recordAudits(
  tx: Database,
  entries: readonly AuditEntry[],
  now = new Date(),
): Promise<AuditRow[]> {
  if (entries.length === 0) return [];
  const contents = entries.map(
    (entry): Omit<HashedContent, "seq" | "prevHash"> => ({
      chain: auditChainOf(entry.context),
      id: randomUUID(),
      occurredAt: now,
      actorType: entry.context.actorType,
      actorUserId: entry.context.actorType === "staff" ? entry.context.userId : null,
      actorRole:
        entry.context.actorType === "staff"
          ? entry.context.role
          : entry.context.actorType === "system"
            ? entry.context.label
            : null,
      apiKeyId: entry.context.actorType === "api_key" ? entry.context.apiKeyId : null,
      storeId: entry.context.actorType === "system" ? null : entry.context.storeId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      changes: auditChanges(entry.before, entry.after),
      ip: text(entry.context.ip),
      userAgent: text(entry.context.userAgent),
      requestId: text(entry.context.requestId),
    }),
  );
  const chain = contents[0]?.chain ?? GLOBAL_CHAIN;
  if (contents.some((c) => c.chain !== chain)) throw new Error("recordAudits: every row must go to one chain");
  const values: Record<string, unknown> = { chain };
  contents.forEach((content, i) => {
    const [before, middle, after] = auditHashPieces(content);
    // In ROW_SLOTS' order.
    const row = [
      before,
      middle,
      after,
      content.id,
      content.occurredAt.toISOString(),
      content.actorType,
      content.actorUserId,
      content.actorRole,
      content.apiKeyId,
      content.storeId,
      content.action,
      content.targetType,
      content.targetId,
      content.changes === null ? null : JSON.stringify(content.changes),
      content.ip,
      content.userAgent,
      content.requestId,
    ];
    const names = rowSlotNames(i);
    for (let k = 0; k < names.length; k++) values[names[k] as string] = row[k];
  });
  // A store's chain starts at the genesis: its head row is made by its first write. Sent just before the append
  // and not awaited on its own (both go out together): a twin first write waits on this insert, then appends
  // after it. Nothing follows a POS write's audit row (ADR 039).
  const started = chain === GLOBAL_CHAIN ? null : START_STORE_CHAIN(tx, { chain });
  // Both started now, in this order (Promise.all starts them at once): nothing may wait between them.
  const [, result] = await Promise.all([started, appendStatement(chain === GLOBAL_CHAIN, contents.length)(tx, values)]);
  const appended = rowsOf<Appended>(result);
  if (appended.length !== contents.length) throw new Error("audit_chain_head is missing (migration 0006 not applied?)");
  return contents.map((content, i) => {
    const { seq, prev_hash: prevHash, hash, pos } = appended[i] as Appended;
    return { ...content, seq: Number(seq), prevHash, hash, pos: Number(pos) };
  });
}

type Appended = { seq: string | number; prev_hash: string; hash: string; pos: string | number };

/** A store chain's head row, made by its first write (recordAudits). */
const START_STORE_CHAIN = textStatement(
  (p: Slots<"chain">) => sql`insert into ${auditStoreChainHead} (store_id, seq, hash)
          values (${p.chain}, 0, ${GENESIS_HASH}) on conflict do nothing`,
);

const appendStatements = new Map<string, TextStatement<string>>();

/** A row's slots in recordAudits' statement; row i's are named with its index (`before0`, `id0`, …). */
const ROW_SLOTS = [
  "before",
  "middle",
  "after",
  "id",
  "occurredAt",
  "actorType",
  "actorUserId",
  "actorRole",
  "apiKeyId",
  "storeId",
  "action",
  "targetType",
  "targetId",
  "changes",
  "ip",
  "userAgent",
  "requestId",
] as const;
const rowSlotNameLists: string[][] = [];
/** Row i's slot names, made once (not a dozen new strings per audit row). */
const rowSlotNames = (i: number): string[] => {
  let names = rowSlotNameLists[i];
  if (!names) {
    names = ROW_SLOTS.map((name) => `${name}${i}`);
    rowSlotNameLists[i] = names;
  }
  return names;
};

/**
 * recordAudits' statement for `count` rows of the global chain or of a store's, built once per shape (ADR 060,
 * "Later (2026-12-07, the builders)"; a purchase appends one row, a referral's qualifying purchase two). Row i's
 * values are the slots named with its index (`before0`, `id0`, …); `chain` is the store's (or the global chain's).
 */
function appendStatement(global: boolean, count: number): TextStatement<string> {
  const shape = `${global ? "global" : "store"}:${count}`;
  const known = appendStatements.get(shape);
  if (known) return known;
  const made = textStatement((p: Slots<string>) => {
    const at = (name: (typeof ROW_SLOTS)[number], i: number) => p[`${name}${i}`] as Slot;
    // Row i's seq and previous hash come from row i - 1 (`h0` is the head), its hash from its own content with them.
    const hashes = Array.from({ length: count }, (_, i) =>
      sql
        .raw(`h${i + 1}`)
        .append(sql` as (select seq + 1 as seq, hash as prev_hash,
        encode(sha256(convert_to(${at("before", i)} || hash || ${at("middle", i)} || (seq + 1)::text || ${at("after", i)}, 'UTF8')), 'hex') as hash
      from `)
        .append(sql.raw(`h${i})`)),
    );
    const rows = Array.from({ length: count }, (_, i) =>
      sql`select ${p.chain}, seq, ${at("id", i)}::uuid, ${at("occurredAt", i)}::timestamptz,
        ${at("actorType", i)}, ${at("actorUserId", i)}, ${at("actorRole", i)}, ${at("apiKeyId", i)}::uuid, ${at("storeId", i)},
        ${at("action", i)}, ${at("targetType", i)}, ${at("targetId", i)},
        ${at("changes", i)}::jsonb, ${at("ip", i)},
        ${at("userAgent", i)}, ${at("requestId", i)}, prev_hash, hash
      from `.append(sql.raw(`h${i + 1}`)),
    );
    const last = sql.raw(`h${count}`);
    // `for update` waits for the writer ahead and then reads the head it committed (read committed); the
    // head's update below finds that same version, locked by this statement.
    const head = global
      ? sql`select seq, hash from ${auditChainHead} where id = 1 for update`
      : sql`select seq, hash from ${auditStoreChainHead} where store_id = ${p.chain} for update`;
    const moved = global
      ? sql`update ${auditChainHead} set seq = `
          .append(last)
          .append(sql`.seq, hash = `)
          .append(last)
          .append(sql`.hash from `)
          .append(last)
          .append(sql` where ${auditChainHead}.id = 1 and exists (select 1 from appended)`)
      : sql`update ${auditStoreChainHead} set seq = `
          .append(last)
          .append(sql`.seq, hash = `)
          .append(last)
          .append(sql`.hash from `)
          .append(last)
          .append(sql` where ${auditStoreChainHead}.store_id = ${p.chain} and exists (select 1 from appended)`);
    return sql`with h0 as (${head}), ${sql.join(hashes, sql`, `)}, appended as (
      insert into ${auditLog} (chain, seq, id, occurred_at, actor_type, actor_user_id, actor_role,
        api_key_id, store_id, action, target_type, target_id, changes, ip, user_agent, request_id, prev_hash, hash)
      ${sql.join(rows, sql` union all `)}
      returning seq, prev_hash, hash, pos
    ), moved as (${moved} returning 1)
    select seq, prev_hash, hash, pos from appended where exists (select 1 from moved) order by seq`;
  });
  // Bounded: the callers append one or two rows (a larger batch is built each time, as before).
  if (count <= 8) appendStatements.set(shape, made);
  return made;
}

export type AuditVerification =
  | { ok: true; rows: number; lastSeq: number }
  | {
      ok: false;
      /** The first row that does not check out (or the head's seq when rows are missing at the end). */
      seq: number;
      reason: "hash_mismatch" | "broken_link" | "missing_rows" | "head_mismatch";
      rows: number;
      /** The store chain it is in (ADR 039); absent for the global chain. */
      chain?: string;
    };

/** A row of the chain known to be good: its seq and hash (the genesis is seq 0). */
export type ChainPoint = { seq: number; hash: string };

/** The head of a chain: the global one's single row, or a store's (null when the store never wrote). */
async function chainHead(db: Database, chain: string): Promise<ChainPoint | null> {
  if (chain === GLOBAL_CHAIN) {
    const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
    return head ?? null;
  }
  const [head] = await db
    .select({ seq: auditStoreChainHead.seq, hash: auditStoreChainHead.hash })
    .from(auditStoreChainHead)
    .where(eq(auditStoreChainHead.storeId, chain));
  return head ?? null;
}

/** Every store chain: those with a head, and those with rows (a head deleted under its rows is a finding). */
export async function storeChains(db: Database): Promise<string[]> {
  const heads = await db.select({ chain: auditStoreChainHead.storeId }).from(auditStoreChainHead);
  const withRows = await db
    .selectDistinct({ chain: auditLog.chain })
    .from(auditLog)
    .where(ne(auditLog.chain, GLOBAL_CHAIN));
  return [...new Set([...heads, ...withRows].map((r) => r.chain))].sort();
}

/**
 * Walks the chain in seq order and names the first row that does not check out: its content
 * does not give its hash (altered), its prev_hash is not the previous row's hash (a row replaced or
 * re-chained), or a seq is missing (deleted); finally the head must point at the last row.
 * `from`: start after a row already known to be good (the signed head, anchor.server.ts) instead of the
 * genesis; `rows` then counts the rows walked. The hash has no key: a chain recomputed from the start, or
 * one cut at its end with the head moved back, checks out here; the signed head catches those (ADR 020), and
 * for a store chain the anchors of its head in the global chain (ADR 039, anchor.server.ts).
 * `chain`: one chain ('' the global one, else a store's); without it (and without `from`), the global chain and
 * then every store chain — `rows` counts them all, `lastSeq` is the global chain's.
 */
export async function verifyAuditChain(
  db: Database,
  options: { batchSize?: number; from?: ChainPoint; chain?: string } = {},
): Promise<AuditVerification> {
  if (options.chain !== undefined || options.from) return walkChain(db, options.chain ?? GLOBAL_CHAIN, options);
  const global = await walkChain(db, GLOBAL_CHAIN, options);
  if (!global.ok) return global;
  let rows = global.rows;
  for (const chain of await storeChains(db)) {
    const store = await walkChain(db, chain, options);
    if (!store.ok) return { ...store, rows: rows + store.rows };
    rows += store.rows;
  }
  return { ok: true, rows, lastSeq: global.lastSeq };
}

async function walkChain(
  db: Database,
  chain: string,
  options: { batchSize?: number; from?: ChainPoint },
): Promise<AuditVerification> {
  const batchSize = options.batchSize ?? 1000;
  const named = chain === GLOBAL_CHAIN ? {} : { chain };
  let previousHash = options.from?.hash ?? GENESIS_HASH;
  let expectedSeq = (options.from?.seq ?? 0) + 1;
  let rows = 0;
  const inChain = eq(auditLog.chain, chain);
  for (;;) {
    const batch = await db
      .select()
      .from(auditLog)
      .where(and(inChain, gt(auditLog.seq, expectedSeq - 1)))
      .orderBy(asc(auditLog.seq))
      .limit(batchSize);
    for (const row of batch) {
      if (row.seq !== expectedSeq) return { ok: false, seq: expectedSeq, reason: "missing_rows", rows, ...named };
      if (row.prevHash !== previousHash) return { ok: false, seq: row.seq, reason: "broken_link", rows, ...named };
      if (auditRowHash(row) !== row.hash) return { ok: false, seq: row.seq, reason: "hash_mismatch", rows, ...named };
      previousHash = row.hash;
      expectedSeq += 1;
      rows += 1;
    }
    if (batch.length === batchSize) continue;
    const head = await chainHead(db, chain);
    const lastSeq = expectedSeq - 1;
    if (head && head.seq > lastSeq) {
      // Rows committed after the last batch was read move the head with them (one statement, one commit):
      // walk on to them; only a head past rows that are not there means rows are missing.
      const [next] = await db
        .select({ seq: auditLog.seq })
        .from(auditLog)
        .where(and(inChain, gt(auditLog.seq, lastSeq)))
        .limit(1);
      if (next) continue;
      return { ok: false, seq: lastSeq + 1, reason: "missing_rows", rows, ...named };
    }
    if (!head || head.seq !== lastSeq || head.hash !== previousHash) {
      return { ok: false, seq: lastSeq, reason: "head_mismatch", rows, ...named };
    }
    return { ok: true, rows, lastSeq };
  }
}

/** What an audited action touched: its type and id (null for a programme-wide target). */
export type AuditTarget = readonly [type: string, id: string | null];

/** The target's fields before and after the change (auditChanges keeps the changed ones, masked). */
export type AuditChange = Pick<AuditEntry, "before" | "after">;

/** Appends one row to the log in the transaction it was made for: `await record(action, [type, id], {before, after})`. */
export type AuditWriter = (action: AuditAction, target: AuditTarget, change?: AuditChange) => Promise<AuditRow>;

/**
 * The audit writer of one transaction: who and from where (the request's context) and when, fixed once, so
 * each audited action is one line at the call site. Each call is one recordAudit() with the same row.
 */
export function audited(tx: Database, context: AuditContext, now = new Date()): AuditWriter {
  return (action, [targetType, targetId], change = {}) =>
    recordAudit(tx, { context, action, targetType, targetId, ...change }, now);
}

/** A transaction with its audit writer: `auditedTx(db, context, now, async (tx, record) => …)`. */
export function auditedTx<T>(
  db: Database,
  context: AuditContext,
  now: Date,
  run: (tx: Database, audit: AuditWriter) => Promise<T>,
): Promise<T> {
  return db.transaction((tx) => run(tx, audited(tx, context, now)));
}

/**
 * A view of a member's full personal data (an unmasked phone, the profile page): which fields were shown,
 * never their values. Call it in the transaction (or just before the response) of the read that shows them.
 */
export async function recordPersonalDataView(
  tx: Database,
  context: AuditContext,
  view: { memberId: string; fields: string[]; purpose?: string },
  now = new Date(),
): Promise<AuditRow> {
  return recordAudit(
    tx,
    {
      context,
      action: "member.revealed",
      targetType: "member",
      targetId: view.memberId,
      after: { fieldsShown: [...view.fields].sort(), purpose: view.purpose ?? null },
    },
    now,
  );
}
