import { type Database, rowsOf } from "@platform/db/client";
import { type AutomaticKind, coupon, member, memberMessage, pointLot, reward } from "@platform/db/schema";
import { type Slots, textStatement } from "@platform/db/statement";
import { sql } from "drizzle-orm";
import { addDays, fromTaipeiWallClock, taipeiDate } from "~/lib/time";

/**
 * The moments that send an automatic message (issue 16 item 2, ADR 034). Each is recorded as one
 * `member_message` row keyed by member and occasion — `insert … on conflict do nothing` — in the transaction of
 * what caused it where there is one (the purchase, the tier change, the birthday points), so a message exists if
 * and only if its cause committed, and a job that runs twice, on two instances, or after a retry records it once.
 * The delivery (delivery.server.ts) picks rows up; whether the kind is switched on is checked there, when it goes.
 */

/** Any handle that runs Drizzle statements: the database or a transaction. */
type Db = Pick<Database, "insert" | "execute">;

export type OccasionInput = {
  memberId: string;
  occasion: string;
  kind: AutomaticKind;
  data?: Record<string, string | number>;
  /** Not before (default: at once). */
  dueAt?: Date;
};

/** Records an automatic message for a member, once per occasion. True when this call recorded it. */
export async function recordOccasion(db: Db, input: OccasionInput, now = new Date()): Promise<boolean> {
  // One statement written as text: every purchase sends it (the receipt message), and the query builder cost the
  // app more than the statement itself (bench/README.md, "the app's share").
  const at = now.toISOString();
  const result = await RECORD_OCCASION(db, {
    memberId: input.memberId,
    occasion: input.occasion,
    kind: input.kind,
    data: JSON.stringify(input.data ?? {}),
    dueAt: (input.dueAt ?? now).toISOString(),
    at,
  });
  return rowsOf(result).length > 0;
}

/** recordOccasion's statement, built once (ADR 060, "Later (2026-12-07, the builders)"). */
const RECORD_OCCASION = textStatement(
  (p: Slots<"memberId" | "occasion" | "kind" | "data" | "dueAt" | "at">) => sql`
    insert into ${memberMessage} (member_id, occasion, kind, purpose, data, due_at, created_at, updated_at)
    values (${p.memberId}::uuid, ${p.occasion}, ${p.kind}, 'service', ${p.data}::jsonb,
      ${p.dueAt}::timestamptz, ${p.at}::timestamptz, ${p.at}::timestamptz)
    on conflict (member_id, occasion) do nothing
    returning id`,
);

/** The first instant of the Taipei day `days` after today's. */
function taipeiDayStart(now: Date, days: number): Date {
  return fromTaipeiWallClock(addDays(taipeiDate(now), days));
}

/**
 * Points about to expire (PRODUCT.md §4 and §11): one reminder 30 days before the last day the points are good
 * (sent when 8–30 days are left) and one 7 days before (0–7 days left), per member and expiry date, with the
 * points and the date. Set-based: one statement per window, whatever the number of members. Run daily.
 */
export async function recordExpiringPoints(db: Database, now = new Date()): Promise<{ d30: number; d7: number }> {
  const windows = [
    { kind: "points-expiring-30", from: taipeiDayStart(now, 8), to: taipeiDayStart(now, 31) },
    { kind: "points-expiring-7", from: now, to: taipeiDayStart(now, 8) },
  ] as const;
  const counts: number[] = [];
  for (const w of windows) {
    // The occasion names the last day the points are good (the day before the expiry instant, in Taipei).
    const result = await db.execute<{ id: string }>(sql`
      insert into ${memberMessage} (member_id, occasion, kind, purpose, data, due_at, created_at, updated_at)
      select l.member_id,
             ${`${w.kind}:`} || to_char((l.expires_at - interval '1 millisecond') at time zone 'Asia/Taipei', 'YYYY-MM-DD'),
             ${w.kind}, 'service',
             jsonb_build_object('points', sum(l.remaining)::int, 'expiresAt', l.expires_at),
             ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
        from ${pointLot} l
        join ${member} m on m.id = l.member_id and not m.disabled and m.deleted_at is null
       where l.remaining > 0
         and l.expires_at > ${w.from.toISOString()}::timestamptz
         and l.expires_at <= ${w.to.toISOString()}::timestamptz
       group by l.member_id, l.expires_at
      on conflict (member_id, occasion) do nothing
      returning id`);
    counts.push(rowsOf(result).length);
  }
  return { d30: counts[0] ?? 0, d7: counts[1] ?? 0 };
}

/** Coupons about to expire: one reminder per unused coupon when 7 days or fewer are left. Run daily. */
export async function recordExpiringCoupons(db: Database, now = new Date()): Promise<number> {
  const result = await db.execute<{ id: string }>(sql`
    insert into ${memberMessage} (member_id, occasion, kind, purpose, data, due_at, created_at, updated_at)
    select c.member_id, 'coupon-expiring:' || c.id::text, 'coupon-expiring', 'service',
           jsonb_build_object('reward', r.name, 'expiresAt', c.expires_at),
           ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from ${coupon} c
      join ${reward} r on r.id = c.reward_id
      join ${member} m on m.id = c.member_id and not m.disabled and m.deleted_at is null
     where c.status = 'issued'
       and c.expires_at > ${now.toISOString()}::timestamptz
       and c.expires_at <= ${taipeiDayStart(now, 8).toISOString()}::timestamptz
    on conflict (member_id, occasion) do nothing
    returning id`);
  return rowsOf(result).length;
}
