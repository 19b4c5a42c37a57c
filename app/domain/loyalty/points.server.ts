import type { Database } from "@platform/db/client";
import { loyaltyAccount, member, pointEntry, pointLot } from "@platform/db/schema";
import { and, asc, desc, eq, gt, lte, sql } from "drizzle-orm";
import { fromTaipeiWallClock, taipeiDate, taipeiParts } from "~/lib/time";
import { recordOccasion } from "../member-messages/occasions.server";
import { birthdayPointsWithheld } from "../members/birthday.server";
import { LoyaltyError } from "./errors";
import {
  activeMember,
  credit,
  debit,
  type Entry,
  entryByKey,
  expireDueLots,
  inTransaction,
  lockAccount,
  type Source,
  type Tx,
} from "./ledger.server";
import { currentRules, lotExpiry } from "./rules.server";

/** Welcome points at sign-up, once per member (null when the rules turn them off). */
export async function grantWelcomePoints(db: Database, memberId: string, now = new Date()): Promise<Entry | null> {
  const rules = await currentRules(db, now);
  if (!rules.welcomeEnabled || rules.welcomePoints <= 0) return null;
  const key = `welcome:${memberId}`;
  return inTransaction(db, async (tx) => {
    const account = await lockAccount(tx, memberId);
    const previous = await entryByKey(tx, key);
    if (previous) return previous;
    await activeMember(tx, memberId);
    return credit(
      tx,
      account,
      { kind: "welcome", key, amount: rules.welcomePoints, expiresAt: lotExpiry(now), reason: "welcome" },
      now,
    );
  });
}

/** 10:00 Taipei of the day of `now`, or `now` when later: nightly jobs' messages wait for a decent hour. */
function courtesyHour(now: Date): Date {
  const ten = fromTaipeiWallClock(taipeiDate(now), 10);
  return ten > now ? ten : now;
}

/**
 * Birthday points for every active member whose birthday falls in the current Taipei month, once
 * per member and year (the key `birthday:<member>:<year>`), except a birthday entered less than 30
 * days before it falls (app/domain/members/birthday.server.ts). Safe to run every night.
 */
export async function grantBirthdayPoints(db: Database, now = new Date()): Promise<{ granted: number }> {
  const rules = await currentRules(db, now);
  if (!rules.birthdayEnabled || rules.birthdayPoints <= 0) return { granted: 0 };
  const { year, month } = taipeiParts(now);
  const due = await db
    .select({ id: member.id, birthday: member.birthday, birthdayChangedAt: member.birthdayChangedAt })
    .from(member)
    .where(
      and(
        eq(member.disabled, false),
        sql`extract(month from ${member.birthday}) = ${month}`,
        // Qualified by hand: Drizzle leaves columns unqualified in a single-table select, and an
        // unqualified "id" inside this subquery would be point_entry's own id.
        sql`not exists (select 1 from ${pointEntry} where ${pointEntry.idempotencyKey} = 'birthday:' || "member"."id"::text || ':' || ${String(year)})`,
      ),
    );
  let granted = 0;
  for (const { id, birthday, birthdayChangedAt } of due) {
    // A birthday entered less than 30 days before it falls earns nothing until next year.
    if (birthday && birthdayPointsWithheld(birthday, birthdayChangedAt, year)) continue;
    const key = `birthday:${id}:${year}`;
    await inTransaction(db, async (tx) => {
      const account = await lockAccount(tx, id);
      if (await entryByKey(tx, key)) return;
      await credit(
        tx,
        account,
        { kind: "birthday", key, amount: rules.birthdayPoints, expiresAt: lotExpiry(now), reason: `birthday ${year}` },
        now,
      );
      // The birthday message, with its points (issue 16), at 10:00 Taipei rather than at midnight.
      await recordOccasion(
        tx,
        {
          memberId: id,
          occasion: `birthday:${year}`,
          kind: "birthday",
          data: { points: rules.birthdayPoints },
          dueAt: courtesyHour(now),
        },
        now,
      );
      granted++;
    });
  }
  return { granted };
}

/** The largest adjustment, either way, in one go (a typo guard, not a business limit). */
export const MAX_ADJUSTMENT_POINTS = 10_000_000;

export function isValidAdjustmentAmount(amount: number): boolean {
  return Number.isSafeInteger(amount) && amount !== 0 && Math.abs(amount) <= MAX_ADJUSTMENT_POINTS;
}

type AdjustmentInput = Source & { memberId: string; amount: number; reason: string; idempotencyKey: string };

/** A manual correction by staff (positive: a new lot; negative: spent like a redemption). */
export async function adjustPoints(db: Database, input: AdjustmentInput, now = new Date()): Promise<Entry> {
  return inTransaction(db, (tx) => bookAdjustment(tx, input, now));
}

/**
 * The same, inside the caller's transaction (the console books its audit row in it too). A negative
 * adjustment never takes the balance below zero (insufficient_points). Idempotent per key.
 */
export async function bookAdjustment(tx: Tx, input: AdjustmentInput, now: Date): Promise<Entry> {
  if (!isValidAdjustmentAmount(input.amount)) {
    throw new LoyaltyError("invalid_amount", "The adjustment must be a non-zero whole number of points");
  }
  if (!input.reason.trim()) throw new LoyaltyError("invalid_input", "A reason is required");
  const key = `adjust:${input.memberId}:${input.idempotencyKey}`;
  const account = await lockAccount(tx, input.memberId);
  const previous = await entryByKey(tx, key);
  if (previous) return previous;
  await activeMember(tx, input.memberId);
  const entry = { ...input, kind: "adjust" as const, key, reason: input.reason };
  return input.amount > 0
    ? credit(tx, account, { ...entry, expiresAt: lotExpiry(now) }, now)
    : debit(tx, account, { ...entry, amount: -input.amount }, now);
}

/**
 * Nightly: books the expiry of every lot whose expiry has passed, member by member under the
 * account lock. Idempotent: a second run (or a second instance) finds nothing left to expire.
 */
export async function expirePoints(db: Database, now = new Date()): Promise<{ entries: number; points: number }> {
  const members = await db
    .selectDistinct({ memberId: pointLot.memberId })
    .from(pointLot)
    .where(and(gt(pointLot.remaining, 0), lte(pointLot.expiresAt, now)));
  let entries = 0;
  let points = 0;
  for (const { memberId } of members) {
    const result = await inTransaction(db, async (tx) => expireDueLots(tx, await lockAccount(tx, memberId), now));
    entries += result.entries;
    points += result.points;
  }
  return { entries, points };
}

/** "N points expire on date", soonest first (for the member center). */
export async function pointsExpiringSoon(
  db: Database,
  memberId: string,
  now = new Date(),
): Promise<{ expiresAt: Date; points: number }[]> {
  const rows = await db
    .select({ expiresAt: pointLot.expiresAt, points: sql<string>`sum(${pointLot.remaining})` })
    .from(pointLot)
    .where(and(eq(pointLot.memberId, memberId), gt(pointLot.remaining, 0), gt(pointLot.expiresAt, now)))
    .groupBy(pointLot.expiresAt)
    .orderBy(asc(pointLot.expiresAt));
  return rows.map((r) => ({ expiresAt: r.expiresAt, points: Number(r.points) }));
}

/** The balance, tier and the newest ledger entries of a member. */
export async function memberPoints(
  db: Database,
  memberId: string,
  limit = 20,
): Promise<{ balance: number; tier: string; negative: boolean; entries: Entry[] }> {
  const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId));
  const entries = await db
    .select()
    .from(pointEntry)
    .where(eq(pointEntry.memberId, memberId))
    .orderBy(desc(pointEntry.createdAt), desc(pointEntry.id))
    .limit(limit);
  const balance = account?.balance ?? 0;
  return { balance, tier: account?.tier ?? "basic", negative: balance < 0, entries };
}
