import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { isUniqueViolation } from "@platform/db/errors";
import { loyaltyAccount, member, memberLastStore, purchase, purchaseRefund, type Tier } from "@platform/db/schema";
import { type Slots, textStatement } from "@platform/db/statement";
import { countLedgerReplay } from "@platform/metrics";
import { and, eq, sql } from "drizzle-orm";
import { type AuditContext, type AuditEntry, audited, recordAudits } from "../audit/audit.server";
import { recordOccasion } from "../member-messages/occasions.server";
import { auditReferral, decideReferral, referralAuditEntry, reverseReferral } from "../referrals/referrals.server";
import { refundReversal } from "./earn";
import { LoyaltyError } from "./errors";
import {
  credit,
  debit,
  entryByKey,
  inTransaction,
  lockAccount,
  lockAccountThen,
  returnSpent,
  type Source,
  spendForPurchase,
  type Tx,
} from "./ledger.server";
import { currentRules, lotExpiry, pointsForAmount, spendWindowStart, TIER_ORDER, tierForSpend } from "./rules.server";
import { decideSpend, refundReturn } from "./spend";
import { consumeSpendCode, type SpendTicket } from "./spend-codes.server";
import { tierAmountOf, tierSpendSince } from "./tier-amount.server";
import { changeTier } from "./tiers.server";

export type Purchase = typeof purchase.$inferSelect;
export type Refund = typeof purchaseRefund.$inferSelect;

/**
 * How far back a purchase may be booked (days before now; PURCHASE_WINDOW_DAYS configures it): a
 * till that was offline catches up, but a receipt from 1970 earns nothing. Taiwan keeps no daylight
 * saving, so a day is always 24 hours.
 */
export const DEFAULT_PURCHASE_WINDOW_DAYS = 90;

/** The largest amount one receipt may carry (NT$100,000,000): anything above is a typo or an attack. */
export const MAX_AMOUNT = 100_000_000;

export function assertAmount(amount: unknown): asserts amount is number {
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_AMOUNT) {
    throw new LoyaltyError("invalid_amount", `The amount must be a whole number of NT$ between 1 and ${MAX_AMOUNT}`);
  }
}

function assertText(value: unknown, name: string): asserts value is string {
  if (typeof value !== "string" || value.trim() === "" || value.length > 100) {
    throw new LoyaltyError("invalid_input", `${name} must be 1–100 characters`);
  }
}

export type PurchaseInput = Source & {
  memberId: string;
  storeId: string;
  receiptNumber: string;
  netAmount: number;
  purchasedAt: Date;
  /** Points paying part of it (issue 36, ADR 040): a whole number ≥ 0, at most what decideSpend allows. */
  pointsToSpend?: number;
  /** The member's confirmation code for the spend, checked (ADR 052): used in this transaction, once. */
  spendTicket?: SpendTicket;
  /** Who booked it and from where: an audit row is written in the same transaction (not on a replay). */
  audit?: AuditContext;
  /** A POS purchase's Idempotency-Key and its request's hash, kept in the purchase row (ADR 039). */
  idempotencyKey?: string;
  requestHash?: string;
};

export type PurchaseResult = {
  purchase: Purchase;
  pointsEarned: number;
  /** The points that paid part of it and the NT$ they paid (0 and 0 when none). */
  pointsSpent: number;
  pointsSpentValue: number;
  balance: number;
  tier: Tier;
  /** True when this receipt was already booked (a retry): nothing new was booked. */
  replayed: boolean;
  /** A new booking's answer as kept in its row (the caller's `answer`, JSON text): send this, not a re-serialised copy. */
  answer?: string;
};

/**
 * Books a purchase and its points (at the member's tier before it); the purchase that crosses a
 * tier threshold upgrades the member at once. The same receipt at the same store is one purchase:
 * a retry answers the first result; the same receipt for another member or amount is a conflict.
 * A purchase older than the booking window (default 90 days) is refused: purchase_too_old.
 */
export async function recordPurchase(
  db: Database,
  input: PurchaseInput,
  now = new Date(),
  options: { windowDays?: number } = {},
): Promise<PurchaseResult> {
  checkPurchaseInput(input, now);
  const attempt = () => inTransaction(db, (tx) => bookPurchase(tx, input, now, options.windowDays));
  try {
    return await attempt();
  } catch (error) {
    // Two members' transactions raced for one receipt: the loser re-reads and answers conflict or replay.
    if (isUniqueViolation(error, "purchase_store_receipt_unique")) return attempt();
    throw error;
  }
}

/**
 * recordPurchase inside the caller's transaction (the POS API's, which also holds the Idempotency-Key
 * claim and the stored answer: one commit per purchase, ADR 030). The caller must roll the whole
 * transaction back when this throws.
 */
export async function recordPurchaseInTransaction(
  tx: Tx,
  input: PurchaseInput,
  now = new Date(),
  options: {
    windowDays?: number;
    /**
     * A new booking's answer (the POS API's, JSON text), kept in the purchase row: written by the purchase's insert
     * itself (ADR 039, "Later (2026-12-07, the answer)"), and returned as `result.answer`. Called once, with the
     * whole result (id, points, balance and tier after the purchase) before the insert.
     */
    answer?: (result: PurchaseResult) => string;
    /** Runs after a new booking's audit row, last in its batch (the POS API sends COMMIT there, ADR 039). */
    afterAudit?: () => Promise<void>;
  } = {},
): Promise<PurchaseResult> {
  checkPurchaseInput(input, now);
  return bookPurchase(tx, input, now, options.windowDays, options.answer, options.afterAudit);
}

function checkPurchaseInput(input: PurchaseInput, now: Date): void {
  assertAmount(input.netAmount);
  assertText(input.storeId, "storeId");
  assertText(input.receiptNumber, "receiptNumber");
  if (!(input.purchasedAt instanceof Date) || Number.isNaN(input.purchasedAt.getTime()) || input.purchasedAt > now) {
    throw new LoyaltyError("invalid_input", "purchasedAt must be a valid time, not in the future");
  }
  const spend = input.pointsToSpend ?? 0;
  if (!Number.isSafeInteger(spend) || spend < 0) {
    throw new LoyaltyError("invalid_points", "pointsToSpend must be a whole number, 0 or more");
  }
}

/**
 * The purchase's insert, built once (ADR 060, "Later (2026-12-07, the builders)"): the row as sent (the other
 * columns take their defaults), unless the receipt exists; only its id comes back.
 */
const INSERT_PURCHASE = textStatement(
  (
    p: Slots<
      | "id"
      | "storeId"
      | "receiptNumber"
      | "memberId"
      | "netAmount"
      | "purchasedAt"
      | "pointsEarned"
      | "pointsSpent"
      | "pointsSpentValue"
      | "staffUserId"
      | "apiKeyId"
      | "createdAt"
      | "idempotencyKey"
      | "requestHash"
      | "answer"
    >,
  ) => sql`
    insert into ${purchase} (id, store_id, receipt_number, member_id, net_amount, purchased_at, points_earned,
      points_spent, points_spent_value, staff_user_id, api_key_id, created_at, idempotency_key, request_hash, answer)
    values (${p.id}::uuid, ${p.storeId}, ${p.receiptNumber}, ${p.memberId}::uuid, ${p.netAmount}::int,
      ${p.purchasedAt}::timestamptz, ${p.pointsEarned}::int, ${p.pointsSpent}::int, ${p.pointsSpentValue}::int,
      ${p.staffUserId}, ${p.apiKeyId}, ${p.createdAt}::timestamptz, ${p.idempotencyKey}, ${p.requestHash},
      ${p.answer}::jsonb)
    on conflict (store_id, receipt_number) do nothing
    returning id`,
);

/**
 * The booking, in round trips (ADR 030): the account's lock (with the member's disabled flag), the member's
 * 12-month spend before this purchase (behind the lock) and the rules; the purchase with its answer, inserted
 * unless the receipt exists; the tier when it changes (rarely); then, pipelined, the points (entry, lot and balance
 * in one statement), the last purchase, the receipt message and the audit row.
 */
async function bookPurchase(
  tx: Tx,
  input: PurchaseInput,
  now: Date,
  windowDays = DEFAULT_PURCHASE_WINDOW_DAYS,
  answerOf?: (result: PurchaseResult) => string,
  afterAudit?: () => Promise<void>,
): Promise<PurchaseResult> {
  const windowStart = spendWindowStart(now);
  // The lock and the rules in one round trip (pipelined; the rules do not depend on the lock), with the member's
  // confirmation code used when the spend has one (ADR 052; a card-scanned spend has none). Behind the lock, in the
  // same round trip, the spend toward the tier of the 12 months before this purchase: every purchase of this member
  // committed before the lock was ours is counted (they all hold the lock to their commit), so the tier — and with it
  // the whole answer — is known before the insert (ADR 039, "Later (2026-12-07, the answer)").
  const [{ account, disabled, after: spendBefore }, rules, codeUsed] = await Promise.all([
    lockAccountThen(tx, input.memberId, () => tierSpendSince(tx, input.memberId, windowStart)),
    currentRules(tx, now),
    input.spendTicket ? consumeSpendCode(tx, input.spendTicket, spendOf(input), now) : true,
  ]);
  const existingReceipt = async () => {
    const [existing] = await tx
      .select()
      .from(purchase)
      .where(and(eq(purchase.storeId, input.storeId), eq(purchase.receiptNumber, input.receiptNumber)));
    if (!existing) return null;
    if (
      existing.memberId !== input.memberId ||
      existing.netAmount !== input.netAmount ||
      existing.pointsSpent !== (input.pointsToSpend ?? 0)
    ) {
      throw new LoyaltyError("receipt_conflict", "This receipt was already booked with other details");
    }
    countLedgerReplay("purchase");
    return {
      purchase: existing,
      pointsEarned: existing.pointsEarned,
      pointsSpent: existing.pointsSpent,
      pointsSpentValue: existing.pointsSpentValue,
      balance: account.balance,
      tier: account.tier,
      replayed: true,
    };
  };
  // A retry of a booked receipt answers its first result, even for a purchase now too old or a member
  // disabled since: the receipt is looked up before those refusals.
  const oldest = new Date(now.getTime() - windowDays * 86_400_000);
  if (input.purchasedAt < oldest || disabled) {
    const replay = await existingReceipt();
    if (replay) return replay;
    if (input.purchasedAt < oldest) {
      throw new LoyaltyError(
        "purchase_too_old",
        `purchasedAt is more than ${windowDays} days ago; such purchases cannot be booked`,
      );
    }
    throw new LoyaltyError("member_disabled", "The member is disabled");
  }
  if (!codeUsed) {
    const replay = await existingReceipt();
    if (replay) return replay;
    throw new LoyaltyError("spend_code_used", "This confirmation code has already been used");
  }
  // Paying with points (ADR 040): the one decision, on the balance read under the lock; a refusal answers a
  // retry of a booked receipt first (its spend has lowered the balance since).
  const spent = decideSpend(rules, account.balance, input.netAmount, input.pointsToSpend ?? 0);
  if (spent.problem) {
    const replay = await existingReceipt();
    if (replay) return replay;
    throw new LoyaltyError(spent.problem, spendRefusal(spent.problem, account.balance, spent.maxByShare));
  }
  // Only the part paid in money earns points; a trade account's own purchases earn the trade multiplier too (ADR 057:
  // the flag came with the account's lock, so it costs no statement).
  const points = pointsForAmount(rules, account.tier, spent.toPay, account.trade);
  // The spend toward the tier with this purchase (ADR 052: the money part only, tierAmountSql's arithmetic).
  const spend =
    spendBefore +
    (input.purchasedAt >= windowStart
      ? tierAmountOf({ netAmount: input.netAmount, pointsSpentValue: spent.value, refundedAmount: 0 })
      : 0);
  const target = tierForSpend(rules, spend);
  const upgrade = TIER_ORDER[target] > TIER_ORDER[account.tier];
  // The row is what was sent plus the id (made here, as gen_random_uuid() would: a v4 UUID) and the columns'
  // defaults (purchase has no BEFORE trigger), so nothing but whether it was inserted comes back: RETURNING the
  // whole row cost the app more to build and map than the rest of the statement.
  const values = {
    id: randomUUID(),
    storeId: input.storeId,
    receiptNumber: input.receiptNumber,
    memberId: input.memberId,
    netAmount: input.netAmount,
    purchasedAt: input.purchasedAt,
    pointsEarned: points,
    pointsSpent: spent.points,
    pointsSpentValue: spent.value,
    staffUserId: input.staffUserId ?? null,
    apiKeyId: input.apiKeyId ?? null,
    createdAt: now,
    idempotencyKey: input.idempotencyKey ?? null,
    requestHash: input.requestHash ?? null,
  };
  const booked: Purchase = { ...values, refundedAmount: 0, pointsReversed: 0, pointsReturned: 0, answer: null };
  // The whole answer before the insert: the balance is the one read under the lock less the spend plus the points
  // (what spendForPurchase and credit write below; checked there), the tier the one this purchase reaches. A
  // referral's qualifying purchase (once in a member's life) is the exception: its decision, after the insert
  // (its rows name the purchase), may credit the member, so its answer is written by an update in the last batch.
  const result: PurchaseResult = {
    purchase: booked,
    pointsEarned: points,
    pointsSpent: spent.points,
    pointsSpentValue: spent.value,
    balance: account.balance - spent.points + points,
    tier: upgrade ? target : account.tier,
    replayed: false,
  };
  const answerWithInsert = answerOf && !account.referralPending ? answerOf(result) : undefined;
  const [created] = rowsOf<{ id: string }>(
    await INSERT_PURCHASE(tx, {
      ...values,
      purchasedAt: values.purchasedAt.toISOString(),
      createdAt: values.createdAt.toISOString(),
      answer: answerWithInsert ?? null,
    }),
  );
  if (!created) {
    // The receipt was booked (or by a transaction we waited for): replay, or conflict.
    const replay = await existingReceipt();
    if (replay) return replay;
    throw new Error("purchase insert returned nothing and no purchase has the receipt");
  }
  // A tier upgrade (a few purchases in a member's life) takes its own round trips, before the rest.
  if (upgrade) {
    await changeTier(tx, account, target, `purchase ${input.storeId}/${input.receiptNumber}`, spend, rules, now);
  }
  const writes: Promise<unknown>[] = [];
  // A referred member's pending referral (ADR 053): the flag came with the account's lock, so a purchase of anyone
  // else sends nothing more; the qualifying purchase takes the decision's one statement (both rewards booked in it),
  // once in the friend's life.
  const referralDecision = account.referralPending
    ? await decideReferral(
        tx,
        account,
        { id: booked.id, netAmount: input.netAmount, purchasedAt: input.purchasedAt },
        rules,
        now,
      )
    : null;
  // The rest needs no answer from the database to go on, so it goes out at once, pipelined on the
  // transaction's connection (ADR 030, "Later (2026-11-27, pipelining)"): the points, the last purchase,
  // the receipt message, the caller's stored answer, and last the audit row, whose statement locks the
  // chain's head to the commit. PostgreSQL runs them in this order (the order they are called in: each
  // function starts its statement at its first await, before control comes back here); the first that
  // fails aborts the transaction and rejects the batch.
  // The spend first (it takes from the lots there were before this purchase), then the points earned.
  if (spent.points > 0) {
    writes.push(
      spendForPurchase(
        tx,
        account,
        {
          kind: "spend-purchase",
          key: `spend:${booked.id}`,
          amount: spent.points,
          purchaseId: booked.id,
          storeId: input.storeId,
          receiptNumber: input.receiptNumber,
          staffUserId: input.staffUserId,
          apiKeyId: input.apiKeyId,
          reason: `paid NT$${spent.value} of NT$${input.netAmount}`,
        },
        now,
      ),
    );
  }
  if (points > 0) {
    writes.push(
      credit(
        tx,
        account,
        {
          kind: "earn-purchase",
          key: `purchase:${booked.id}`,
          amount: points,
          expiresAt: lotExpiry(now),
          purchaseId: booked.id,
          storeId: input.storeId,
          receiptNumber: input.receiptNumber,
          staffUserId: input.staffUserId,
          apiKeyId: input.apiKeyId,
        },
        now,
      ),
    );
  }
  writes.push(recordLastPurchase(tx, input));
  // credit() has already applied the new balance to `account`: the answer said the same, or nothing may commit
  // (thrown before the batch's COMMIT is sent, so the transaction rolls back).
  if (answerWithInsert !== undefined && account.balance !== result.balance) {
    for (const write of writes) write.catch(() => {});
    throw new Error(
      `purchase ${booked.id}: the answer's balance ${result.balance} is not the ledger's ${account.balance}`,
    );
  }
  result.balance = account.balance;
  // The receipt message (issue 16, when switched on), with this commit and once per purchase.
  writes.push(
    recordOccasion(
      tx,
      {
        memberId: input.memberId,
        occasion: `receipt:${booked.id}`,
        kind: "receipt",
        data: {
          storeId: input.storeId,
          amount: input.netAmount,
          points,
          ...(spent.points > 0 ? { pointsSpent: spent.points, pointsSpentValue: spent.value } : {}),
          balance: account.balance,
        },
      },
      now,
    ),
  );
  // The answer, when the insert could not carry it (a referral's qualifying purchase), by an update of the row.
  result.answer = answerWithInsert ?? (answerOf ? answerOf(result) : undefined);
  if (answerWithInsert === undefined && result.answer !== undefined) {
    writes.push(tx.execute(sql`update ${purchase} set answer = ${result.answer}::jsonb where id = ${booked.id}::uuid`));
  }
  // Last: the audit chain's head stays locked from this statement to the commit, for every writer. A referral
  // decided here has its own row, appended in the same statement just before the purchase's (ADR 053).
  const audits: AuditEntry[] = [];
  if (referralDecision) {
    audits.push(
      referralAuditEntry(input.audit, `referral.${referralDecision.state}`, {
        ...referralDecision,
        purchaseId: booked.id,
      }),
    );
  }
  if (input.audit) {
    audits.push({
      context: input.audit,
      action: "purchase.recorded",
      targetType: "purchase",
      targetId: booked.id,
      after: {
        memberId: input.memberId,
        storeId: input.storeId,
        receiptNumber: input.receiptNumber,
        netAmount: input.netAmount,
        pointsEarned: points,
        ...(spent.points > 0 ? { pointsSpent: spent.points, pointsSpentValue: spent.value } : {}),
        ...(input.spendTicket ? { spendCodeId: input.spendTicket.id } : {}),
        tier: account.tier,
      },
    });
  }
  if (audits.length > 0) writes.push(recordAudits(tx, audits, now));
  // Last (the POS API's COMMIT, ADR 039): every statement above must be started without waiting for a round
  // trip, or it would reach PostgreSQL after the COMMIT (the held connection then refuses it, loudly).
  if (afterAudit) writes.push(afterAudit());
  await Promise.all(writes);
  return result;
}

const spendOf = (input: PurchaseInput) => ({
  memberId: input.memberId,
  storeId: input.storeId,
  points: input.pointsToSpend ?? 0,
  netAmount: input.netAmount,
});

function spendRefusal(problem: string, balance: number, maxByShare: number): string {
  if (problem === "points_exceed_balance") return `The member has ${balance} points`;
  if (problem === "points_exceed_share") return `At most ${maxByShare} points may pay for this purchase`;
  return "pointsToSpend must be a whole number, 0 or more";
}

/**
 * The last purchase (the console's "store of last purchase" filter), in one statement: its time on the
 * member's account row (locked by the booking), its store in the member's narrow `member_last_store` row (made at
 * the first purchase, written again only when the store changes; ADR 039 "Later (2026-12-07, the member's last
 * store)": the member row itself is not written). A till catching up with an older receipt does not replace a
 * newer purchase.
 */
async function recordLastPurchase(tx: Tx, input: PurchaseInput): Promise<void> {
  const at = input.purchasedAt.toISOString();
  await tx.execute(sql`
    with newest as (
      update ${loyaltyAccount} set last_purchase_at = ${at}::timestamptz
      where member_id = ${input.memberId}::uuid and (last_purchase_at is null or last_purchase_at <= ${at}::timestamptz)
      returning member_id
    )
    insert into ${memberLastStore} (member_id, store_id, member_created_at)
    select m.id, ${input.storeId}, m.created_at from ${member} m where m.id in (select member_id from newest)
    on conflict (member_id) do update set store_id = excluded.store_id
    where ${memberLastStore}.store_id is distinct from excluded.store_id`);
}

/**
 * Spent points a refund gives back keep the expiry of the lots they came from, but at least this many days from
 * the refund (ADR 040): a return never arrives already expired or about to.
 */
export const RETURNED_POINTS_DAYS = 30;

export type RefundInput = Source & {
  purchaseId: string;
  amount: number;
  /** Unique per refund; a retry with the same key answers the first result. */
  idempotencyKey: string;
  /** Who refunded and from where: an audit row is written in the same transaction (not on a replay). */
  audit?: AuditContext;
};

export type RefundResult = {
  refund: Refund;
  purchase: Purchase;
  pointsReversed: number;
  /** The spent points it gave back (ADR 040). */
  pointsReturned: number;
  balance: number;
  /** True when the balance is below zero after the refund (it is flagged on the account). */
  negative: boolean;
  replayed: boolean;
};

/**
 * A full or partial refund: gives back the points that paid part of the purchase and reverses the points it
 * earned, both in proportion to the refunded share of the purchase (rounded so that refunding everything
 * returns exactly what was spent and reverses exactly what was earned). The points
 * come from the purchase's own lot first; if they were spent, from the other lots; if there are
 * not enough, the balance goes negative and the account is flagged.
 */
export async function refundPurchase(db: Database, input: RefundInput, now = new Date()): Promise<RefundResult> {
  assertAmount(input.amount);
  assertText(input.idempotencyKey, "idempotencyKey");
  const attempt = () =>
    inTransaction(db, async (tx) => {
      const [found] = await tx.select().from(purchase).where(eq(purchase.id, input.purchaseId));
      if (!found) throw new LoyaltyError("purchase_not_found", "Unknown purchase");
      const account = await lockAccount(tx, found.memberId);
      const [current] = await tx.select().from(purchase).where(eq(purchase.id, input.purchaseId)).for("update");
      if (!current) throw new LoyaltyError("purchase_not_found", "Unknown purchase");
      const [previous] = await tx
        .select()
        .from(purchaseRefund)
        .where(eq(purchaseRefund.idempotencyKey, input.idempotencyKey));
      if (previous) {
        if (previous.purchaseId !== input.purchaseId || previous.amount !== input.amount) {
          throw new LoyaltyError("idempotency_conflict", "This idempotency key was used for another refund");
        }
        countLedgerReplay("refund");
        return {
          refund: previous,
          purchase: current,
          pointsReversed: previous.pointsReversed,
          pointsReturned: previous.pointsReturned,
          balance: account.balance,
          negative: account.balance < 0,
          replayed: true,
        };
      }
      const refunded = current.refundedAmount + input.amount;
      if (refunded > current.netAmount) {
        throw new LoyaltyError(
          "refund_exceeds_purchase",
          `Only NT$${current.netAmount - current.refundedAmount} of this purchase can still be refunded`,
        );
      }
      const { reverse, target } = refundReversal(current, input.amount);
      const returned = refundReturn(current, input.amount);
      const [refund] = await tx
        .insert(purchaseRefund)
        .values({
          purchaseId: current.id,
          amount: input.amount,
          pointsReversed: reverse,
          pointsReturned: returned.give,
          idempotencyKey: input.idempotencyKey,
          staffUserId: input.staffUserId ?? null,
          apiKeyId: input.apiKeyId ?? null,
          createdAt: now,
        })
        .returning();
      if (!refund) throw new Error("refund insert returned nothing");
      // The spent points come back first (ADR 040: new lots, the original expiry, at least RETURNED_POINTS_DAYS).
      if (returned.give > 0) {
        const spendEntry = await entryByKey(tx, `spend:${current.id}`);
        if (!spendEntry) throw new Error(`purchase ${current.id} spent points but has no spend entry`);
        await returnSpent(
          tx,
          account,
          spendEntry.id,
          {
            kind: "spend-return",
            key: `spend-return:${refund.id}`,
            amount: returned.give,
            alreadyReturned: current.pointsReturned,
            minExpiry: new Date(now.getTime() + RETURNED_POINTS_DAYS * 86_400_000),
            purchaseId: current.id,
            storeId: current.storeId,
            receiptNumber: current.receiptNumber,
            staffUserId: input.staffUserId,
            apiKeyId: input.apiKeyId,
            reason: `refund of NT$${input.amount}`,
          },
          now,
        );
      }
      if (reverse > 0) {
        const earned = await entryByKey(tx, `purchase:${current.id}`);
        await debit(
          tx,
          account,
          {
            kind: "refund-reversal",
            key: `refund:${refund.id}`,
            amount: reverse,
            allowNegative: true,
            preferLot: earned?.id ?? null,
            purchaseId: current.id,
            storeId: current.storeId,
            receiptNumber: current.receiptNumber,
            staffUserId: input.staffUserId,
            apiKeyId: input.apiKeyId,
            reason: `refund of NT$${input.amount}`,
          },
          now,
        );
      }
      // A refund of a referral's qualifying purchase within its window takes both rewards back (ADR 053).
      const referralReversed = await reverseReferral(tx, account, current.id, now);
      if (referralReversed) {
        await auditReferral(tx, input.audit, now, "referral.reversed", {
          ...referralReversed,
          friendId: current.memberId,
          purchaseId: current.id,
        });
      }
      const [updated] = await tx
        .update(purchase)
        .set({ refundedAmount: refunded, pointsReversed: target, pointsReturned: returned.target })
        .where(eq(purchase.id, current.id))
        .returning();
      if (input.audit) {
        await audited(tx, input.audit, now)("purchase.refunded", ["purchase", current.id], {
          before: {
            refundedAmount: current.refundedAmount,
            pointsReversed: current.pointsReversed,
            ...(current.pointsSpent > 0 ? { pointsReturned: current.pointsReturned } : {}),
          },
          after: {
            refundedAmount: refunded,
            pointsReversed: target,
            ...(current.pointsSpent > 0 ? { pointsReturned: returned.target } : {}),
            refundId: refund.id,
            refundAmount: input.amount,
          },
        });
      }
      return {
        refund,
        purchase: updated ?? current,
        pointsReversed: reverse,
        pointsReturned: returned.give,
        balance: account.balance,
        negative: account.balance < 0,
        replayed: false,
      };
    });
  try {
    return await attempt();
  } catch (error) {
    if (isUniqueViolation(error, "purchase_refund_idempotency_key_unique")) return attempt();
    throw error;
  }
}
