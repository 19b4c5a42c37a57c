import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { type EntryKind, loyaltyAccount, member, pointEntry, pointLot, pointLotUse } from "@platform/db/schema";
import { type Slots, selectStatement, textStatement } from "@platform/db/statement";
import { countLedgerEntry } from "@platform/metrics";
import { and, asc, desc, eq, gt, lte, type SQL, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { LoyaltyError } from "./errors";

/**
 * The ledger core. Every function here runs inside a caller's transaction, after lockAccount():
 * the member's loyalty_account row is locked (`select … for update`), so all mutations of one
 * member are serialised on every app instance, and the balance column stays equal to the ledger sum.
 */

export type Tx = Database;
export type Account = typeof loyaltyAccount.$inferSelect;
export type Entry = typeof pointEntry.$inferSelect;

/** Where an entry came from (any may be absent). */
export type Source = {
  storeId?: string | null;
  receiptNumber?: string | null;
  staffUserId?: string | null;
  apiKeyId?: string | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function inTransaction<T>(db: Database, run: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => run(tx));
}

/**
 * The member's account row, created on first use, locked until the transaction ends. One statement when
 * the account exists (the join checks that the member does); a first use inserts it and locks it then.
 */
export async function lockAccount(tx: Tx, memberId: string): Promise<Account> {
  return (await lockAccountOf(tx, memberId)).account;
}

/** lockAccount, plus whether the member is disabled (read in the same statement). */
export async function lockAccountOf(tx: Tx, memberId: string): Promise<{ account: Account; disabled: boolean }> {
  const { account, disabled } = await lockAccountThen(tx, memberId, async () => undefined);
  return { account, disabled };
}

/**
 * The account's lock with the member's disabled flag: built once (ADR 060, "Later (2026-12-07, the builders)").
 * `skipLocked`: taken only when no other transaction holds it (no row then, and no wait).
 */
const lockAccountStatement = (skipLocked: boolean) =>
  selectStatement((p: Slots<"memberId">) =>
    new QueryBuilder()
      .select({ account: loyaltyAccount, disabled: member.disabled })
      .from(loyaltyAccount)
      .innerJoin(member, eq(member.id, loyaltyAccount.memberId))
      .where(eq(loyaltyAccount.memberId, p.memberId))
      .for("update", skipLocked ? { of: loyaltyAccount, skipLocked } : { of: loyaltyAccount }),
  );
const LOCK_ACCOUNT = lockAccountStatement(false);
const TRY_LOCK_ACCOUNT = lockAccountStatement(true);

/**
 * lockAccountOf for a transaction that already holds other members' accounts (a grant's or an import's batch):
 * null, at once, when another transaction holds this one (or it has no account yet), so the batch never waits while
 * holding locks. A purchase locks the friend's account, then the referrer's (ADR 053): no one order of members fits
 * both, and a batch that waited deadlocked with it. The caller leaves the member for its next batch, where it is the
 * first lock taken (lockAccountOf, which waits and creates the account): every batch books at least one row.
 */
export async function tryLockAccountOf(
  tx: Tx,
  memberId: string,
): Promise<{ account: Account; disabled: boolean } | null> {
  if (!UUID.test(memberId)) throw new LoyaltyError("member_not_found", "Unknown member");
  const [found] = await TRY_LOCK_ACCOUNT(tx, { memberId }).execute();
  return found ?? null;
}

/**
 * lockAccountOf, and `after`'s statement run once the lock is held: sent right behind the lock's statement, in the
 * same round trip (PostgreSQL runs one connection's statements in order, and in READ COMMITTED a statement sees
 * every commit before it began — so `after` sees everything of this member's transactions that held the lock
 * before us: the purchase's 12-month spend, ADR 039 "Later (2026-12-07, the answer)"). `after` must start its
 * statement at its call with `tx.execute` (or a builder's `.execute()`), as the lock's is started here: both then
 * reach the connection in call order. When the account had to be created, `after` runs again behind the new lock.
 */
export async function lockAccountThen<T>(
  tx: Tx,
  memberId: string,
  after: () => Promise<T>,
): Promise<{ account: Account; disabled: boolean; after: T }> {
  if (!UUID.test(memberId)) throw new LoyaltyError("member_not_found", "Unknown member");
  const lock = () => LOCK_ACCOUNT(tx, { memberId }).execute();
  const locking = lock();
  const following = after();
  following.catch(() => {});
  const [found] = await locking;
  if (found) return { ...found, after: await following };
  await following;
  const [known] = await tx.select({ id: member.id }).from(member).where(eq(member.id, memberId));
  if (!known) throw new LoyaltyError("member_not_found", "Unknown member");
  await tx.insert(loyaltyAccount).values({ memberId }).onConflictDoNothing();
  const relocking = lock();
  const again = after();
  again.catch(() => {});
  const [created] = await relocking;
  if (!created) throw new LoyaltyError("member_not_found", "Unknown member");
  return { ...created, after: await again };
}

/** The member, or member_not_found / member_disabled. */
export async function activeMember(tx: Tx, memberId: string): Promise<typeof member.$inferSelect> {
  const [found] = await tx.select().from(member).where(eq(member.id, memberId));
  if (!found) throw new LoyaltyError("member_not_found", "Unknown member");
  if (found.disabled) throw new LoyaltyError("member_disabled", "The member is disabled");
  return found;
}

export async function entryByKey(tx: Tx, key: string): Promise<Entry | null> {
  const [found] = await tx.select().from(pointEntry).where(eq(pointEntry.idempotencyKey, key));
  return found ?? null;
}

async function setBalance(tx: Tx, account: Account, balance: number, now: Date): Promise<void> {
  const negativeSince = balance < 0 ? (account.negativeSince ?? now) : null;
  await tx
    .update(loyaltyAccount)
    .set({ balance, negativeSince, updatedAt: now })
    .where(eq(loyaltyAccount.memberId, account.memberId));
  account.balance = balance;
  account.negativeSince = negativeSince;
}

type EntryInput = Source & {
  kind: EntryKind;
  key: string;
  reason?: string | null;
  purchaseId?: string | null;
  couponId?: string | null;
};

/** A ledger entry's columns (all but its id) for this account, input, signed amount and lot expiry. */
function entryValues(account: Account, input: EntryInput, amount: number, lotExpiresAt: Date | null, now: Date) {
  return {
    memberId: account.memberId,
    kind: input.kind,
    amount,
    lotExpiresAt,
    storeId: input.storeId ?? null,
    receiptNumber: input.receiptNumber ?? null,
    staffUserId: input.staffUserId ?? null,
    apiKeyId: input.apiKeyId ?? null,
    purchaseId: input.purchaseId ?? null,
    couponId: input.couponId ?? null,
    reason: input.reason ?? null,
    idempotencyKey: input.key,
    createdAt: now,
  };
}

/**
 * What a credit of `amount` does to an account (the one rule, ADR 030): the new balance, whether it is still below
 * zero (since when), and the lot's size — a negative balance (after a refund) is paid off first, so the lot holds
 * only what is left over: max(0, min(amount, new balance)). credit() and the referral's decision (which books the
 * friend's credit in its own statement) use it; `creditLotRemainingSql` is the same rule for a balance only a
 * statement knows (the referrer's, locked by that statement).
 */
export function creditOutcome(
  account: Pick<Account, "balance" | "negativeSince">,
  amount: number,
  now: Date,
): { remaining: number; balance: number; negativeSince: Date | null } {
  const balance = account.balance + amount;
  return {
    remaining: Math.max(0, Math.min(amount, balance)),
    balance,
    negativeSince: balance < 0 ? (account.negativeSince ?? now) : null,
  };
}

/** creditOutcome's lot size in SQL, of `balance` (the balance after the credit) and `amount`. */
export const creditLotRemainingSql = (balance: SQL, amount: SQL): SQL => sql`greatest(0, least(${amount}, ${balance}))`;

/**
 * credit()'s one statement, built once (ADR 060, "Later (2026-12-07, the builders)"): the entry, its lot (when it
 * expires: `lotExpiresAt`, the entry's and the lot's expiry, which credit() takes from one input) and the balance.
 */
const CREDIT = textStatement(
  (
    p: Slots<
      | "id"
      | "memberId"
      | "kind"
      | "amount"
      | "lotExpiresAt"
      | "storeId"
      | "receiptNumber"
      | "staffUserId"
      | "apiKeyId"
      | "purchaseId"
      | "couponId"
      | "reason"
      | "key"
      | "now"
      | "remaining"
      | "balance"
      | "negativeSince"
    >,
  ) => sql`
    with entry as (
      insert into ${pointEntry} (id, member_id, kind, amount, lot_expires_at, store_id, receipt_number, staff_user_id,
        api_key_id, purchase_id, coupon_id, reason, idempotency_key, created_at)
      values (${p.id}::uuid, ${p.memberId}::uuid, ${p.kind}, ${p.amount}::int,
        ${p.lotExpiresAt}::timestamptz, ${p.storeId}, ${p.receiptNumber}, ${p.staffUserId},
        ${p.apiKeyId}, ${p.purchaseId}::uuid, ${p.couponId}::uuid, ${p.reason}, ${p.key},
        ${p.now}::timestamptz)
      returning id
    ), lot as (
      insert into ${pointLot} (entry_id, member_id, remaining, expires_at)
      select id, ${p.memberId}::uuid, ${p.remaining}::int, ${p.lotExpiresAt}::timestamptz from entry
      where ${p.lotExpiresAt}::timestamptz is not null
    )
    update ${loyaltyAccount} set balance = ${p.balance}::int, negative_since = ${p.negativeSince}::timestamptz,
      updated_at = ${p.now}::timestamptz
    where member_id = ${p.memberId}::uuid and exists (select 1 from entry)`,
);

/**
 * Books a credit. With `expiresAt` it creates a lot; a negative balance (after a refund) is paid
 * off first, so the lot holds only what is left over.
 */
export async function credit(
  tx: Tx,
  account: Account,
  input: EntryInput & { amount: number; expiresAt: Date | null },
  now: Date,
): Promise<Entry> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error("credit needs a positive integer");
  countLedgerEntry(input.kind);
  const entry: Entry = { id: randomUUID(), ...entryValues(account, input, input.amount, input.expiresAt, now) };
  const { remaining, balance, negativeSince } = creditOutcome(account, input.amount, now);
  const at = (date: Date | null) => (date ? date.toISOString() : null);
  // One statement, one round trip (ADR 030): the entry, its lot (when it expires) and the balance. The
  // entry's id is made here, so nothing has to come back. The statement is sent at this function's only
  // await (Drizzle's query runs when awaited), within the caller's call, and `account` already shows the new
  // balance then: a caller may pipeline its next statements without waiting (the purchase does); if the
  // statement fails, the caller's transaction rolls back.
  const written = CREDIT(tx, {
    id: entry.id,
    memberId: entry.memberId,
    kind: entry.kind,
    amount: entry.amount,
    lotExpiresAt: at(entry.lotExpiresAt),
    storeId: entry.storeId,
    receiptNumber: entry.receiptNumber,
    staffUserId: entry.staffUserId,
    apiKeyId: entry.apiKeyId,
    purchaseId: entry.purchaseId,
    couponId: entry.couponId,
    reason: entry.reason,
    key: entry.idempotencyKey,
    now: at(now),
    remaining,
    balance,
    negativeSince: at(negativeSince),
  });
  account.balance = balance;
  account.negativeSince = negativeSince;
  await written;
  return entry;
}

/**
 * Books a debit, taking points from the lots that expire first (a preferred lot first, e.g. the
 * purchase's own lot on a refund). Without `allowNegative` too few points fail with
 * insufficient_points; with it (refunds only) the shortfall makes the balance negative (flagged).
 */
export async function debit(
  tx: Tx,
  account: Account,
  input: EntryInput & { amount: number; allowNegative?: boolean; preferLot?: string | null },
  now: Date,
): Promise<Entry> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error("debit needs a positive integer");
  // Lots past their expiry are booked as expired first, so the balance is what may be spent.
  await expireDueLots(tx, account, now);
  if (!input.allowNegative && account.balance < input.amount) {
    throw new LoyaltyError("insufficient_points", `The member has ${account.balance} points, ${input.amount} needed`);
  }
  const lots = await tx
    .select()
    .from(pointLot)
    .where(and(eq(pointLot.memberId, account.memberId), gt(pointLot.remaining, 0), gt(pointLot.expiresAt, now)))
    .orderBy(
      desc(sql`${pointLot.entryId} = ${input.preferLot ?? null}::uuid`),
      asc(pointLot.expiresAt),
      asc(pointLot.entryId),
    );
  const entry = await insertEntry(tx, account, input, -input.amount, null, now);
  let left = input.amount;
  for (const lot of lots) {
    if (left === 0) break;
    const take = Math.min(left, lot.remaining);
    left -= take;
    await tx
      .update(pointLot)
      .set({ remaining: lot.remaining - take })
      .where(eq(pointLot.entryId, lot.entryId));
    await tx.insert(pointLotUse).values({ debitEntryId: entry.id, lotEntryId: lot.entryId, points: take });
  }
  await setBalance(tx, account, account.balance - input.amount, now);
  return entry;
}

/** Gives back the points of a debit to the very lots it took them from (a cancelled coupon). */
export async function reverseDebit(
  tx: Tx,
  account: Account,
  debitEntry: Entry,
  input: EntryInput,
  now: Date,
): Promise<Entry> {
  const amount = -debitEntry.amount;
  const entry = await insertEntry(tx, account, input, amount, null, now);
  // A negative balance (refund) is paid off first; only the rest goes back into lots.
  let toLots = Math.max(0, Math.min(amount, amount + Math.min(0, account.balance)));
  const uses = await tx
    .select()
    .from(pointLotUse)
    .where(eq(pointLotUse.debitEntryId, debitEntry.id))
    .orderBy(asc(pointLotUse.id));
  for (const use of uses) {
    if (toLots === 0) break;
    const give = Math.min(toLots, use.points);
    toLots -= give;
    await tx
      .update(pointLot)
      .set({ remaining: sql`${pointLot.remaining} + ${give}` })
      .where(eq(pointLot.entryId, use.lotEntryId));
  }
  await setBalance(tx, account, account.balance + amount, now);
  return entry;
}

async function insertEntry(
  tx: Tx,
  account: Account,
  input: EntryInput,
  amount: number,
  lotExpiresAt: Date | null,
  now: Date,
): Promise<Entry> {
  countLedgerEntry(input.kind);
  const [entry] = await tx
    .insert(pointEntry)
    .values(entryValues(account, input, amount, lotExpiresAt, now))
    .returning();
  if (!entry) throw new Error("ledger insert returned nothing");
  return entry;
}

/**
 * Books an `expire` entry for every lot of the member whose expiry has passed and that still holds
 * points. The key includes how much of the lot expired so far, so a repeat (another instance, a
 * retried job) finds nothing left to expire and a lot refilled by a cancelled coupon expires again.
 */
export async function expireDueLots(tx: Tx, account: Account, now: Date): Promise<{ entries: number; points: number }> {
  const due = await tx
    .select()
    .from(pointLot)
    .where(and(eq(pointLot.memberId, account.memberId), gt(pointLot.remaining, 0), lte(pointLot.expiresAt, now)))
    .orderBy(asc(pointLot.expiresAt), asc(pointLot.entryId));
  let points = 0;
  for (const lot of due) {
    const expired = lot.expired + lot.remaining;
    const entry = await insertEntry(
      tx,
      account,
      { kind: "expire", key: `expire:${lot.entryId}:${expired}`, reason: `lot expired ${lot.expiresAt.toISOString()}` },
      -lot.remaining,
      null,
      now,
    );
    await tx.update(pointLot).set({ remaining: 0, expired }).where(eq(pointLot.entryId, lot.entryId));
    await tx.insert(pointLotUse).values({ debitEntryId: entry.id, lotEntryId: lot.entryId, points: lot.remaining });
    points += lot.remaining;
  }
  if (points > 0) await setBalance(tx, account, account.balance - points, now);
  return { entries: due.length, points };
}

/**
 * spendForPurchase()'s one statement, built once (ADR 060, "Later (2026-12-07, the builders)").
 */
const SPEND_FOR_PURCHASE = textStatement(
  (
    p: Slots<
      | "memberId"
      | "at"
      | "amount"
      | "id"
      | "kind"
      | "entryAmount"
      | "storeId"
      | "receiptNumber"
      | "staffUserId"
      | "apiKeyId"
      | "purchaseId"
      | "reason"
      | "key"
      | "balance"
    >,
  ) => sql`
    with lots as (
      select entry_id, remaining,
        sum(remaining) over (order by expires_at, entry_id) - remaining as before
      from ${pointLot}
      where member_id = ${p.memberId}::uuid and remaining > 0 and expires_at > ${p.at}::timestamptz
    ), take as (
      select entry_id, least(remaining, ${p.amount}::int - before)::int as points
      from lots where before < ${p.amount}::int
    ), enough as (
      select 1 from ${loyaltyAccount}
      where member_id = ${p.memberId}::uuid and balance >= ${p.amount}::int
        and (select coalesce(sum(points), 0) from take) = ${p.amount}::int
    ), entry as (
      insert into ${pointEntry} (id, member_id, kind, amount, store_id, receipt_number, staff_user_id, api_key_id,
        purchase_id, reason, idempotency_key, created_at)
      select ${p.id}::uuid, ${p.memberId}::uuid, ${p.kind}, ${p.entryAmount}::int, ${p.storeId},
        ${p.receiptNumber}, ${p.staffUserId}, ${p.apiKeyId}, ${p.purchaseId}::uuid, ${p.reason},
        ${p.key}, ${p.at}::timestamptz
      where exists (select 1 from enough)
      returning id
    ), taken as (
      update ${pointLot} l set remaining = l.remaining - take.points
      from take where l.entry_id = take.entry_id and exists (select 1 from entry)
    ), uses as (
      insert into ${pointLotUse} (debit_entry_id, lot_entry_id, points)
      select (select id from entry), entry_id, points from take where exists (select 1 from entry)
    )
    update ${loyaltyAccount} set balance = ${p.balance}::int, updated_at = ${p.at}::timestamptz
    where member_id = ${p.memberId}::uuid and exists (select 1 from entry)
    returning balance`,
);

/**
 * Points paying part of a purchase (issue 36, ADR 040), in one statement, one round trip (ADR 030): the
 * `spend-purchase` entry, the points taken from the lots that expire first (still valid at `now`), the lot uses
 * (a refund gives them back with their expiry) and the balance. Only when the valid lots hold `amount` points and
 * the balance covers it; otherwise nothing is written and it fails with points_exceed_balance (the caller's
 * transaction rolls back). Like credit(), `account` shows the new balance as soon as the statement is sent, so the
 * caller may pipeline its next statements.
 */
export async function spendForPurchase(
  tx: Tx,
  account: Account,
  input: EntryInput & { amount: number },
  now: Date,
): Promise<Entry> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error("spend needs a positive integer");
  if (account.balance < input.amount) {
    throw new LoyaltyError("points_exceed_balance", `The member has ${account.balance} points, ${input.amount} asked`);
  }
  countLedgerEntry(input.kind);
  const entry: Entry = { id: randomUUID(), ...entryValues(account, input, -input.amount, null, now) };
  const balance = account.balance - input.amount;
  const at = now.toISOString();
  const written = SPEND_FOR_PURCHASE(tx, {
    memberId: account.memberId,
    at,
    amount: input.amount,
    id: entry.id,
    kind: entry.kind,
    entryAmount: entry.amount,
    storeId: entry.storeId,
    receiptNumber: entry.receiptNumber,
    staffUserId: entry.staffUserId,
    apiKeyId: entry.apiKeyId,
    purchaseId: entry.purchaseId,
    reason: entry.reason,
    key: entry.idempotencyKey,
    balance,
  });
  account.balance = balance;
  const rows = rowsOf<{ balance: number }>(await written);
  if (rows.length === 0) {
    throw new LoyaltyError("points_exceed_balance", `The member's valid points do not cover ${input.amount}`);
  }
  return entry;
}

/**
 * Gives back `amount` of the points a purchase's spend took (its refund, ADR 040), as new lots with the expiry of
 * the lots they came from, at least `minExpiry`: the points taken last (the latest expiry) come back first, and
 * `alreadyReturned` (the purchase's earlier refunds) says where this return starts. One `spend-return` entry per
 * original expiry. A negative balance is paid off first, as by every credit.
 */
export async function returnSpent(
  tx: Tx,
  account: Account,
  spendEntryId: string,
  input: EntryInput & { amount: number; alreadyReturned: number; minExpiry: Date },
  now: Date,
): Promise<Entry[]> {
  const uses = await tx
    .select({ points: pointLotUse.points, expiresAt: pointLot.expiresAt })
    .from(pointLotUse)
    .innerJoin(pointLot, eq(pointLot.entryId, pointLotUse.lotEntryId))
    .where(eq(pointLotUse.debitEntryId, spendEntryId))
    .orderBy(desc(pointLotUse.id));
  // Skip what earlier refunds gave back, then take `amount` from the newest uses on.
  let skip = input.alreadyReturned;
  let left = input.amount;
  const byExpiry = new Map<number, number>();
  for (const use of uses) {
    if (left === 0) break;
    const skipped = Math.min(skip, use.points);
    skip -= skipped;
    const give = Math.min(left, use.points - skipped);
    if (give <= 0) continue;
    left -= give;
    const expiry = Math.max(use.expiresAt.getTime(), input.minExpiry.getTime());
    byExpiry.set(expiry, (byExpiry.get(expiry) ?? 0) + give);
  }
  // Lot uses missing (they cannot be, but the ledger must still balance): the rest at the minimum expiry.
  if (left > 0) byExpiry.set(input.minExpiry.getTime(), (byExpiry.get(input.minExpiry.getTime()) ?? 0) + left);
  const entries: Entry[] = [];
  for (const [expiry, points] of [...byExpiry.entries()].sort((a, b) => a[0] - b[0])) {
    entries.push(
      await credit(
        tx,
        account,
        {
          ...input,
          key: `${input.key}:${new Date(expiry).toISOString()}`,
          amount: points,
          expiresAt: new Date(expiry),
        },
        now,
      ),
    );
  }
  return entries;
}
