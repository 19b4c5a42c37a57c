import { createHmac, timingSafeEqual } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { spendCode, store } from "@platform/db/schema";
import type { LocalizedText } from "@platform/db/schema/catalog";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { type AuditContext, audited } from "../audit/audit.server";
import { securityAudited } from "../audit/security-events.server";
import { claimLimits, claimLimitsIn, type Limit, LimitRefusedError, releaseLimit } from "../auth/rate-limits.server";
import { LoyaltyError, type LoyaltyErrorCode } from "./errors";
import type { Tx } from "./ledger.server";
import { pointsQuote } from "./spend.server";

/**
 * A spend of points the member confirms with a code (issue 36 item 1, ADR 052). A card scan proves the member is
 * at the till; a typed phone or member number does not, so a spend then needs a 6-digit code the member sees in
 * their member center ("門市要折抵 N 點") and reads out. The code is bound to the member, the store, who asked,
 * the points and the amount; it is good for 5 minutes and used once; wrong tries are counted per member AND per
 * asker in one statement, at most 5 an hour.
 */
export const SPEND_CODE_POLICY = {
  digits: 6,
  validMinutes: 5,
  maxWrongTries: 5,
  /** Codes sent an hour: per member, and per clerk or till key. */
  sendsPerHour: { member: 5, requester: 30 },
} as const;

/** Who asks, where: a clerk at the counter (`staff:<userId>`) or a till's API key (`key:<apiKeyId>`). */
export type SpendAsker = { storeId: string; requester: string; audit: AuditContext };

/** How the member was identified: their card scanned (or its code sent by a scanner), or typed in. */
export type IdentifiedBy = "card" | "typed";

/** The one rule: points spent for a member who was not identified by their card need the member's code. */
export function spendNeedsCode(identifiedBy: IdentifiedBy, pointsToSpend: number): boolean {
  return identifiedBy !== "card" && pointsToSpend > 0;
}

/** A checked code, for the purchase's transaction to use (consumeSpendCode). */
export type SpendTicket = { id: string; codeHash: string; requester: string };

export const SPEND_CODE_FORMAT = /^\d{6}$/;

/** The code of a row: derived from its id with the server's secret, so the database alone never reveals it. */
function codeOf(secret: string, id: string): string {
  const digest = createHmac("sha256", secret).update(`spend-code\u0000${id}`).digest();
  return String(digest.readUInt32BE(0) % 10 ** SPEND_CODE_POLICY.digits).padStart(SPEND_CODE_POLICY.digits, "0");
}

function hashOf(secret: string, id: string, code: string): string {
  return createHmac("sha256", secret).update(`spend-code-hash\u0000${id}\u0000${code}`).digest("hex");
}

const sendLimits = (memberId: string, requester: string): Limit[] => [
  { key: `spend-code:send:member:${memberId}`, window: "hour", max: SPEND_CODE_POLICY.sendsPerHour.member },
  { key: `spend-code:send:asker:${requester}`, window: "hour", max: SPEND_CODE_POLICY.sendsPerHour.requester },
];

const tryLimits = (memberId: string, requester: string): Limit[] => [
  { key: `spend-code:try:member:${memberId}`, window: "hour", max: SPEND_CODE_POLICY.maxWrongTries },
  { key: `spend-code:try:asker:${requester}`, window: "hour", max: SPEND_CODE_POLICY.maxWrongTries },
];

export type SpendCodeSent = { expiresAt: Date; points: number; netAmount: number };

/**
 * Sends the member a code for spending `points` on `netAmount` NT$ here: the spend is checked first (decideSpend,
 * the booking's rule), then, in one transaction, one hit on the send limits, the asker's unused code for this
 * member replaced (and the member's codes expired over a day ago removed), and the audit row.
 */
export async function requestSpendCode(
  db: Database,
  secret: string,
  asker: SpendAsker,
  spend: { memberId: string; points: number; netAmount: number },
  now = new Date(),
  options: SpendCheckOptions = {},
): Promise<SpendCodeSent> {
  const quote = await pointsQuote(db, spend.memberId, spend.netAmount, spend.points, now);
  if (quote.problem) throw new LoyaltyError(quote.problem, `At most ${quote.maxPoints} points may pay for this`);
  if (spend.points <= 0) throw new LoyaltyError("invalid_points", "A code is only needed to spend points");
  const expiresAt = new Date(now.getTime() + SPEND_CODE_POLICY.validMinutes * 60_000);
  try {
    await db.transaction(async (tx) => {
      await claimLimitsIn(tx, sendLimits(spend.memberId, asker.requester), now);
      const id = crypto.randomUUID();
      const codeHash = hashOf(secret, id, codeOf(secret, id));
      await tx.execute(sql`
        with gone as (
          delete from ${spendCode}
          where member_id = ${spend.memberId}::uuid
            and ((store_id = ${asker.storeId} and requester = ${asker.requester} and used_at is null)
                 or expires_at < ${now.toISOString()}::timestamptz - interval '1 day')
        )
        insert into ${spendCode} (id, member_id, store_id, requester, points, net_amount, code_hash, created_at, expires_at)
        values (${id}::uuid, ${spend.memberId}::uuid, ${asker.storeId}, ${asker.requester}, ${spend.points}::int,
                ${spend.netAmount}::int, ${codeHash}, ${now.toISOString()}::timestamptz, ${expiresAt.toISOString()}::timestamptz)`);
      await audited(tx, asker.audit, now)("points.spend_code_sent", ["member", spend.memberId], {
        after: { storeId: asker.storeId, points: spend.points, netAmount: spend.netAmount, spendCodeId: id },
      });
    });
  } catch (error) {
    if (!(error instanceof LimitRefusedError)) throw error;
    const audit = (outside: Database) => refused(outside, asker, spend.memberId, "spend_code_send_limit", now);
    if (options.keepAfterRollback) options.keepAfterRollback(audit);
    else await audit(db);
    throw new LoyaltyError("spend_code_send_limit", "Too many confirmation codes sent; try again later");
  }
  return { expiresAt, points: spend.points, netAmount: spend.netAmount };
}

async function refused(db: Database, asker: SpendAsker, memberId: string, code: LoyaltyErrorCode, now: Date) {
  await securityAudited(db, asker.audit, now)("points.spend_code_refused", ["member", memberId], {
    after: { code, storeId: asker.storeId },
  });
}

function refuse(code: LoyaltyErrorCode, message: string): never {
  throw new LoyaltyError(code, message);
}

/**
 * Checks a code typed for a spend: one hit on the wrong-try limits of the member and of the asker (one statement,
 * both or neither; at most 5 an hour each), then the asker's newest unused code for this member here. A right
 * code gives its hits back and answers a ticket the purchase uses (consumeSpendCode); every refusal is audited.
 */
export async function checkSpendCode(
  db: Database,
  secret: string,
  asker: SpendAsker,
  spend: { memberId: string; points: number; netAmount: number; code: string },
  now = new Date(),
  options: SpendCheckOptions = {},
): Promise<SpendTicket> {
  const limits = tryLimits(spend.memberId, asker.requester);
  const claimed = await claimLimits(db, limits, now);
  const fail = async (code: LoyaltyErrorCode, message: string): Promise<never> => {
    // Inside a transaction that the refusal rolls back (the POS API's), the try is counted again after it.
    const counted = claimed.allowed && options.keepAfterRollback !== undefined;
    const keep = async (outside: Database) => {
      if (counted) await claimLimits(outside, limits, now);
      await refused(outside, asker, spend.memberId, code, now);
    };
    if (options.keepAfterRollback) options.keepAfterRollback(keep);
    else await refused(db, asker, spend.memberId, code, now);
    refuse(code, message);
  };
  if (!claimed.allowed) return fail("spend_code_locked", "Too many wrong confirmation codes; try again later");
  const [row] = await db
    .select()
    .from(spendCode)
    .where(
      and(
        eq(spendCode.memberId, spend.memberId),
        eq(spendCode.storeId, asker.storeId),
        eq(spendCode.requester, asker.requester),
        isNull(spendCode.usedAt),
      ),
    )
    .orderBy(desc(spendCode.createdAt))
    .limit(1);
  if (!row || row.expiresAt <= now) return fail("spend_code_expired", "No confirmation code is waiting; send one");
  const typed = Buffer.from(hashOf(secret, row.id, SPEND_CODE_FORMAT.test(spend.code) ? spend.code : "x"));
  if (typed.length !== row.codeHash.length || !timingSafeEqual(typed, Buffer.from(row.codeHash))) {
    return fail("spend_code_wrong", "The confirmation code is not right");
  }
  if (row.points !== spend.points || row.netAmount !== spend.netAmount) {
    return fail("spend_code_mismatch", "The confirmation code was made for another amount or number of points");
  }
  // A right code is not a wrong try: its hits are given back.
  await Promise.all(limits.map((limit) => releaseLimit(db, limit, now)));
  return { id: row.id, codeHash: row.codeHash, requester: row.requester };
}

export type SpendCheckOptions = {
  /**
   * For a check inside a transaction its refusal rolls back (the POS API's request): the counted try and the audit
   * row are handed to this, to be written after the rollback (keepAfterRollback); the in-transaction claim still
   * decides whether the limit has room.
   */
  keepAfterRollback?: (work: (db: Database) => Promise<void>) => void;
};

/**
 * The spend's confirmation: nothing for a card, a checked code otherwise (spend_code_required without one). The
 * counter and the POS API both call it, with how they identified the member.
 */
export async function confirmSpend(
  db: Database,
  secret: string,
  asker: SpendAsker,
  spend: { memberId: string; points: number; netAmount: number; identifiedBy: IdentifiedBy; code?: string },
  now = new Date(),
  options: SpendCheckOptions = {},
): Promise<SpendTicket | undefined> {
  if (!spendNeedsCode(spend.identifiedBy, spend.points)) return undefined;
  if (!spend.code) {
    const audit = (outside: Database) => refused(outside, asker, spend.memberId, "spend_code_required", now);
    if (options.keepAfterRollback) options.keepAfterRollback(audit);
    else await audit(db);
    refuse("spend_code_required", "Without a scanned card, spending points needs the member's confirmation code");
  }
  return checkSpendCode(db, secret, asker, { ...spend, code: spend.code }, now, options);
}

/**
 * Uses the code in the purchase's transaction: one conditional update (unused, not expired, bound to this member,
 * store, asker, points and amount). False when another purchase used it first (it waits for that one's commit).
 */
export async function consumeSpendCode(
  tx: Tx,
  ticket: SpendTicket,
  spend: { memberId: string; storeId: string; points: number; netAmount: number },
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(spendCode)
    .set({ usedAt: now })
    .where(
      and(
        eq(spendCode.id, ticket.id),
        isNull(spendCode.usedAt),
        gt(spendCode.expiresAt, now),
        eq(spendCode.memberId, spend.memberId),
        eq(spendCode.storeId, spend.storeId),
        eq(spendCode.requester, ticket.requester),
        eq(spendCode.points, spend.points),
        eq(spendCode.netAmount, spend.netAmount),
        eq(spendCode.codeHash, ticket.codeHash),
      ),
    )
    .returning({ id: spendCode.id });
  return rows.length === 1;
}

export type PendingSpendCode = {
  code: string;
  points: number;
  netAmount: number;
  storeName: LocalizedText | null;
  expiresAt: Date;
};

/** The member's codes waiting now (the member center shows them with the code to read out), newest first. */
export async function pendingSpendCodes(
  db: Database,
  secret: string,
  memberId: string,
  now = new Date(),
): Promise<PendingSpendCode[]> {
  const rows = rowsOf<{
    id: string;
    points: number;
    net_amount: number;
    store_name: LocalizedText | null;
    expires_at: string | Date;
  }>(
    await db.execute(sql`
      select c.id, c.points, c.net_amount, s.name as store_name, c.expires_at from ${spendCode} c
      left join ${store} s on s.id = c.store_id
      where c.member_id = ${memberId}::uuid and c.used_at is null and c.expires_at > ${now.toISOString()}::timestamptz
      order by c.created_at desc limit 3`),
  );
  return rows.map((r) => ({
    code: codeOf(secret, r.id),
    points: r.points,
    netAmount: r.net_amount,
    storeName: r.store_name,
    expiresAt: new Date(r.expires_at),
  }));
}
