import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import {
  coupon,
  loyaltyAccount,
  member,
  pointEntry,
  pointLot,
  type ReferralRewardKind,
  type ReferralState,
  referral,
  reward,
} from "@platform/db/schema";
import { countLedgerEntry } from "@platform/metrics";
import { desc, eq, sql } from "drizzle-orm";
import { addDays, fromTaipeiWallClock, taipeiDate, taipeiParts } from "~/lib/time";
import { type AuditContext, type AuditEntry, recordAudit } from "../audit/audit.server";
import {
  type Account,
  creditLotRemainingSql,
  creditOutcome,
  debit,
  lockAccount,
  type Tx,
} from "../loyalty/ledger.server";
import { newCouponCode } from "../loyalty/rewards.server";
import { type LoyaltyRules, lotExpiry } from "../loyalty/rules.server";
import { normaliseReferralCode } from "./code";

/**
 * Referrals (issue 38, ADR 053). A member's code is `member.referral_code`; a friend who signs up with it is linked
 * (`linkReferral`, in the sign-up's transaction); the friend's first purchase of at least the minimum decides the
 * referral in one statement (`decideReferral`, called by the purchase only when the friend's account is flagged);
 * a refund of that purchase within the window takes both rewards back (`reverseReferral`).
 */

export type LinkOutcome =
  | { linked: true; referralId: string; referrerId: string }
  | { linked: false; reason: "unknown_code" | "referrer_disabled" | "self" | "already_linked" };

/** The device marks a browser keeps of the codes its own members opened on their invite page (see routes). */
export type LinkInput = { friendId: string; code: string; ownCodes?: readonly string[] };

/**
 * Links a new member to the owner of `code`, in the sign-up's transaction. One statement decides it: the referrer
 * exists, is neither disabled nor deleted, is not the friend, shares neither phone, e-mail nor address with the
 * friend, the browser is not one the referrer opened their own invite page on, and the friend has no referral yet
 * (the unique friend_id). Nothing is linked otherwise; the reason is read after, for the message.
 */
export async function linkReferral(tx: Tx, input: LinkInput, now = new Date()): Promise<LinkOutcome> {
  const code = normaliseReferralCode(input.code);
  if (!code) return { linked: false, reason: "unknown_code" };
  if ((input.ownCodes ?? []).some((c) => normaliseReferralCode(c) === code)) return { linked: false, reason: "self" };
  const rows = rowsOf<{ id: string; referrer_id: string }>(
    await tx.execute(sql`
    with friend as (select * from ${member} where id = ${input.friendId}::uuid),
    referrer as (
      select r.id from ${member} r, friend f
       where r.referral_code = ${code} and not r.disabled and r.deleted_at is null and r.id <> f.id
         and r.phone_number <> f.phone_number
         and (r.email is null or coalesce(f.email, f.pending_email) is null or r.email <> coalesce(f.email, f.pending_email))
         and not (r.street is not null and f.street is not null
                  and lower(regexp_replace(coalesce(r.city, '') || coalesce(r.district, '') || r.street, '\\s', '', 'g'))
                    = lower(regexp_replace(coalesce(f.city, '') || coalesce(f.district, '') || f.street, '\\s', '', 'g')))
    ), linked as (
      insert into ${referral} (referrer_id, friend_id, code, created_at)
      select id, ${input.friendId}::uuid, ${code}, ${now.toISOString()}::timestamptz from referrer
      on conflict (friend_id) do nothing
      returning id, referrer_id
    ), flag as (
      insert into ${loyaltyAccount} (member_id, referral_pending)
      select ${input.friendId}::uuid, true from linked
      on conflict (member_id) do update set referral_pending = true
    )
    select id, referrer_id from linked`),
  );
  const [row] = rows;
  if (row) return { linked: true, referralId: row.id, referrerId: row.referrer_id };
  const [already] = await tx.select({ id: referral.id }).from(referral).where(eq(referral.friendId, input.friendId));
  if (already) return { linked: false, reason: "already_linked" };
  const [owner] = await tx
    .select({ disabled: member.disabled, deletedAt: member.deletedAt })
    .from(member)
    .where(eq(member.referralCode, code));
  if (!owner) return { linked: false, reason: "unknown_code" };
  if (owner.disabled || owner.deletedAt) return { linked: false, reason: "referrer_disabled" };
  return { linked: false, reason: "self" };
}

/** The owner of a code who may refer (the landing page's check; the link itself decides again at sign-up). */
export async function referrerByCode(
  db: Database,
  raw: string,
): Promise<{ id: string; nameZh: string; usable: boolean } | null> {
  const code = normaliseReferralCode(raw);
  if (!code) return null;
  const [owner] = await db
    .select({ id: member.id, nameZh: member.nameZh, disabled: member.disabled, deletedAt: member.deletedAt })
    .from(member)
    .where(eq(member.referralCode, code));
  if (!owner) return null;
  return { id: owner.id, nameZh: owner.nameZh, usable: !owner.disabled && !owner.deletedAt };
}

/** A Taipei month, YYYY-MM: the monthly limit's period. */
export function taipeiMonth(at: Date): string {
  const p = taipeiParts(at);
  return `${p.year}-${String(p.month).padStart(2, "0")}`;
}

export type ReferralDecision = {
  id: string;
  referrerId: string;
  friendId: string;
  state: Extract<ReferralState, "rewarded" | "capped">;
  points: number;
  /** What was given (ADR 053): points (`points` to each), or a coupon of `rewardId` to each (`coupons`). */
  rewardKind: ReferralRewardKind;
  rewardId: string | null;
  coupons: { id: string; memberId: string }[];
};

/** The programme rules' referral fields: what decides a referral, and what the rules page shows of it. */
export type ReferralRules = Pick<
  LoyaltyRules,
  | "referralEnabled"
  | "referralPoints"
  | "referralMinAmount"
  | "referralMonthlyCap"
  | "referralWindowDays"
  | "referralRewardKind"
  | "referralRewardId"
>;

/**
 * The coupon a referral would give now: the rules' reward when they choose a coupon and that reward still issues
 * one (its validity has not ended; a retired reward's coupons stay valid, ADR 029, so `active` is not asked), with
 * the coupon's end as a redemption's (the end of the Taipei day couponValidDays ahead, never past validUntil).
 * Null: points (the rules say so, or the reward chosen can no longer issue a coupon: the points of the rule then).
 */
async function referralCoupon(
  tx: Tx,
  rules: ReferralRules,
  now: Date,
): Promise<{ rewardId: string; expiresAt: Date } | null> {
  if (rules.referralRewardKind !== "coupon" || !rules.referralRewardId) return null;
  const [item] = await tx
    .select({ id: reward.id, validUntil: reward.validUntil, couponValidDays: reward.couponValidDays })
    .from(reward)
    .where(eq(reward.id, rules.referralRewardId));
  if (!item || (item.validUntil && item.validUntil <= now)) return null;
  let expiresAt = fromTaipeiWallClock(addDays(taipeiDate(now), item.couponValidDays + 1));
  if (item.validUntil && item.validUntil < expiresAt) expiresAt = item.validUntil;
  return { rewardId: item.id, expiresAt };
}

/**
 * The friend's purchase decides their pending referral, when it reaches the minimum (called by the purchase under
 * the friend's account lock, only when that account is flagged). One statement claims the referral (still
 * pending), claims a slot of the referrer's Taipei month (`rewarded < cap`, on conflict do update), clears the flag
 * and writes the outcome: of two purchases at once the second finds nothing pending, of two friends at once the
 * month's last slot goes to one. A points reward is booked by that same statement to both sides (ledger entries of
 * kind `referral` with their lots, the usual expiry, and both balances); a coupon reward by one statement after it.
 *
 * Locks (ADR 053): the friend's account (held by the purchase), the referral row, the referrer's month row, then
 * the referrer's account — taken by the statement's upsert of that account, which reads the month's claimed slot
 * and so runs after it (a referrer signed up before the friend, so locks always go from the newer member to the
 * older: no cycle). The upsert adds to the newest balance (read committed re-reads the row it waited for), and the
 * referrer's lot is sized from the balance it returns (`creditLotRemainingSql`); the friend's balance was read under
 * the purchase's lock, so its credit is computed here (`creditOutcome`).
 *
 * Round trips and statements (ADR 053, "Speed"): one of each for a rewarded points referral (four statements in two
 * round trips before 2026-12-07); its audit row goes with the purchase's in one append (`referralAuditEntry`).
 */
export async function decideReferral(
  tx: Tx,
  friendAccount: Account,
  purchaseInfo: { id: string; netAmount: number; purchasedAt: Date },
  rules: ReferralRules,
  now: Date,
): Promise<ReferralDecision | null> {
  if (!rules.referralEnabled || purchaseInfo.netAmount < rules.referralMinAmount) return null;
  const until = new Date(purchaseInfo.purchasedAt.getTime() + rules.referralWindowDays * 86_400_000);
  const gift = await referralCoupon(tx, rules, now);
  const points = gift ? 0 : Math.max(0, rules.referralPoints);
  const rewardKind: ReferralRewardKind = gift ? "coupon" : "points";
  const at = now.toISOString();
  const expiresAt = lotExpiry(now).toISOString();
  // The friend's credit, if the statement rewards (computed on the balance read under the purchase's lock).
  const friend = creditOutcome(friendAccount, points, now);
  const friendEntry = randomUUID();
  const referrerEntry = randomUUID();
  const [decided] = rowsOf<{
    id: string;
    referrer_id: string;
    state: "rewarded" | "capped";
    points: number;
    friend_credited: boolean;
  }>(
    await tx.execute(sql`
    with r as (
      select id, referrer_id from ${referral}
       where friend_id = ${friendAccount.memberId}::uuid and state = 'pending' for update
    ), slot as (
      insert into referral_month (referrer_id, month, rewarded)
      select referrer_id, ${taipeiMonth(now)}, 1 from r
       where ${rules.referralMonthlyCap}::int > 0 and (${points}::int > 0 or ${gift !== null}::boolean)
      on conflict (referrer_id, month) do update set rewarded = referral_month.rewarded + 1
       where referral_month.rewarded < ${rules.referralMonthlyCap}::int
      returning referrer_id
    ), paid as (
      -- A row only when this statement rewards the referral with points: both credits hang on it.
      select r.id, r.referrer_id from r, slot where ${points}::int > 0
    ), friend_account as (
      update ${loyaltyAccount} set referral_pending = false,
        balance = case when exists (select 1 from paid) then ${friend.balance}::int else balance end,
        negative_since = case when exists (select 1 from paid)
          then ${friend.negativeSince?.toISOString() ?? null}::timestamptz else negative_since end,
        updated_at = case when exists (select 1 from paid) then ${at}::timestamptz else updated_at end
       where member_id = ${friendAccount.memberId}::uuid
      returning balance
    ), referrer_account as (
      insert into ${loyaltyAccount} (member_id, balance, updated_at)
      select referrer_id, ${points}::int, ${at}::timestamptz from paid
      on conflict (member_id) do update set
        balance = ${loyaltyAccount}.balance + excluded.balance,
        negative_since = case when ${loyaltyAccount}.balance + excluded.balance < 0
          then coalesce(${loyaltyAccount}.negative_since, excluded.updated_at) end,
        updated_at = excluded.updated_at
      returning member_id, balance
    ), entries as (
      insert into ${pointEntry} (id, member_id, kind, amount, lot_expires_at, purchase_id, reason, idempotency_key,
        created_at)
      select ${friendEntry}::uuid, ${friendAccount.memberId}::uuid, 'referral', ${points}::int,
        ${expiresAt}::timestamptz, ${purchaseInfo.id}::uuid, 'referral: friend', 'referral:' || id || ':friend',
        ${at}::timestamptz from paid
      union all
      select ${referrerEntry}::uuid, referrer_id, 'referral', ${points}::int, ${expiresAt}::timestamptz,
        ${purchaseInfo.id}::uuid, 'referral: referrer', 'referral:' || id || ':referrer', ${at}::timestamptz from paid
      returning id
    ), lots as (
      insert into ${pointLot} (entry_id, member_id, remaining, expires_at)
      select ${friendEntry}::uuid, ${friendAccount.memberId}::uuid, ${friend.remaining}::int, ${expiresAt}::timestamptz
        from entries where id = ${friendEntry}::uuid
      union all
      select ${referrerEntry}::uuid, a.member_id, ${creditLotRemainingSql(sql`a.balance`, sql`${points}::int`)},
        ${expiresAt}::timestamptz
        from referrer_account a, entries where entries.id = ${referrerEntry}::uuid
    )
    update ${referral} set
      state = case when exists (select 1 from slot) then 'rewarded' else 'capped' end,
      points = case when exists (select 1 from slot) then ${points}::int else 0 end,
      reward_kind = ${rewardKind},
      reward_id = case when exists (select 1 from slot) then ${gift?.rewardId ?? null}::uuid end,
      purchase_id = ${purchaseInfo.id}::uuid,
      reversible_until = ${until.toISOString()}::timestamptz,
      decided_at = ${at}::timestamptz
     where id in (select id from r)
    returning id, referrer_id, state, points, exists (select 1 from paid) as friend_credited`),
  );
  friendAccount.referralPending = false;
  if (!decided) return null;
  if (decided.friend_credited) {
    // The statement booked both credits (kind `referral`); the friend's account shows its new balance at once, as
    // credit() leaves it (the purchase's own credit follows on it).
    countLedgerEntry("referral");
    countLedgerEntry("referral");
    friendAccount.balance = friend.balance;
    friendAccount.negativeSince = friend.negativeSince;
  }
  const decision: ReferralDecision = {
    id: decided.id,
    referrerId: decided.referrer_id,
    friendId: friendAccount.memberId,
    state: decided.state,
    points: Number(decided.points),
    rewardKind,
    rewardId: decided.state === "rewarded" ? (gift?.rewardId ?? null) : null,
    coupons: [],
  };
  if (decision.state === "rewarded" && gift) {
    // A points-free coupon to each side, in one statement; the unique (referral_id, member_id) issues it once.
    decision.coupons = await issueReferralCoupons(tx, decision, gift, now);
  }
  return decision;
}

/** The referral's coupons, one to the friend and one to the referrer (no ledger entry, no stock: ADR 053). */
async function issueReferralCoupons(
  tx: Tx,
  decision: Pick<ReferralDecision, "id" | "friendId" | "referrerId">,
  gift: { rewardId: string; expiresAt: Date },
  now: Date,
): Promise<{ id: string; memberId: string }[]> {
  const rows = rowsOf<{ id: string; member_id: string }>(
    await tx.execute(sql`
    insert into ${coupon} (code, reward_id, member_id, points_cost, referral_id, issued_at, expires_at)
    values
      (${newCouponCode()}, ${gift.rewardId}::uuid, ${decision.friendId}::uuid, 0, ${decision.id}::uuid,
       ${now.toISOString()}::timestamptz, ${gift.expiresAt.toISOString()}::timestamptz),
      (${newCouponCode()}, ${gift.rewardId}::uuid, ${decision.referrerId}::uuid, 0, ${decision.id}::uuid,
       ${now.toISOString()}::timestamptz, ${gift.expiresAt.toISOString()}::timestamptz)
    on conflict (referral_id, member_id) where referral_id is not null do nothing
    returning id, member_id`),
  );
  return rows.map((r) => ({ id: r.id, memberId: r.member_id }));
}

export type ReferralReversal = {
  id: string;
  referrerId: string;
  points: number;
  rewardKind: ReferralRewardKind;
  /** Coupons revoked now (unused ones), and coupons already used, which stay used: nothing more is taken. */
  revokedCoupons: string[];
  keptCoupons: string[];
};

/**
 * A refund of a referral's qualifying purchase before its window ends takes both rewards back, once: one statement
 * moves the referral from rewarded to reversed; then each side's points are debited as a refund reverses earned
 * points (the reward's own lot first, the balance may go below zero and is flagged). Called under the friend's
 * account lock (the refund's); the referrer's is locked after it.
 */
export async function reverseReferral(
  tx: Tx,
  friendAccount: Account,
  purchaseId: string,
  now: Date,
): Promise<ReferralReversal | null> {
  const [reversed] = rowsOf<{ id: string; referrer_id: string; points: number; reward_kind: ReferralRewardKind }>(
    await tx.execute(sql`
    update ${referral} set state = 'reversed', reversed_at = ${now.toISOString()}::timestamptz
     where purchase_id = ${purchaseId}::uuid and state = 'rewarded'
       and reversible_until > ${now.toISOString()}::timestamptz
    returning id, referrer_id, points, reward_kind`),
  );
  if (!reversed) return null;
  const points = Number(reversed.points);
  if (reversed.reward_kind === "coupon") {
    // One statement revokes each side's coupon that is not used (a use beside it waits on the row and then finds
    // it revoked, or this finds it used); a used coupon stays used and nothing more is taken (ADR 053).
    const rows = rowsOf<{ id: string; revoked: boolean }>(
      await tx.execute(sql`
      with revoked as (
        update ${coupon} set status = 'revoked', revoked_at = ${now.toISOString()}::timestamptz,
               revoked_reason = 'referral_refund'
         where referral_id = ${reversed.id}::uuid and status = 'issued'
        returning id
      )
      select id, true as revoked from revoked
      union all
      select id, false from ${coupon}
       where referral_id = ${reversed.id}::uuid and status = 'used' and id not in (select id from revoked)`),
    );
    return {
      id: reversed.id,
      referrerId: reversed.referrer_id,
      points: 0,
      rewardKind: "coupon",
      revokedCoupons: rows.filter((r) => r.revoked).map((r) => r.id),
      keptCoupons: rows.filter((r) => !r.revoked).map((r) => r.id),
    };
  }
  if (points > 0) {
    for (const [account, side] of [
      [friendAccount, "friend"],
      [await lockAccount(tx, reversed.referrer_id), "referrer"],
    ] as const) {
      const [earned] = await tx
        .select({ id: pointEntry.id })
        .from(pointEntry)
        .where(eq(pointEntry.idempotencyKey, `referral:${reversed.id}:${side}`));
      await debit(
        tx,
        account,
        {
          kind: "referral-reversal",
          key: `referral-reversal:${reversed.id}:${side}`,
          amount: points,
          allowNegative: true,
          preferLot: earned?.id ?? null,
          purchaseId,
          reason: `referral reversed: ${side}`,
        },
        now,
      );
    }
  }
  return {
    id: reversed.id,
    referrerId: reversed.referrer_id,
    points,
    rewardKind: "points",
    revokedCoupons: [],
    keptCoupons: [],
  };
}

/** The audit row of a referral's decision or reversal, in its purchase's or refund's transaction. */
export function auditReferral(
  tx: Tx,
  context: AuditContext | undefined,
  now: Date,
  action: ReferralAuditAction,
  target: ReferralAuditTarget,
): Promise<unknown> {
  return recordAudit(tx, referralAuditEntry(context, action, target), now);
}

type ReferralAuditAction = "referral.rewarded" | "referral.capped" | "referral.reversed";
type ReferralAuditTarget = Parameters<typeof referralAuditEntry>[2];

/**
 * The audit entry of a referral's decision or reversal: the purchase's or refund's actor (`system` without one),
 * target the referral. The purchase appends it with its own row in one statement (`recordAudits`, ADR 053).
 */
export function referralAuditEntry(
  context: AuditContext | undefined,
  action: ReferralAuditAction,
  target: {
    id: string;
    referrerId: string;
    friendId: string;
    points: number;
    purchaseId: string;
    rewardKind?: ReferralRewardKind;
    rewardId?: string | null;
    coupons?: { id: string; memberId: string }[];
    revokedCoupons?: string[];
    keptCoupons?: string[];
  },
): AuditEntry {
  const ctx: AuditContext = context ?? {
    actorType: "system",
    label: "referrals",
    ip: null,
    userAgent: null,
    requestId: null,
  };
  return {
    context: ctx,
    action,
    targetType: "referral",
    targetId: target.id,
    after: {
      referrerId: target.referrerId,
      friendId: target.friendId,
      points: target.points,
      purchaseId: target.purchaseId,
      ...(target.rewardKind === "coupon"
        ? {
            rewardKind: "coupon",
            ...(target.rewardId === undefined ? {} : { rewardId: target.rewardId }),
            ...(target.coupons ? { couponIds: target.coupons.map((c) => c.id) } : {}),
            ...(target.revokedCoupons ? { revokedCouponIds: target.revokedCoupons } : {}),
            // Used before the refund: they stay used and nothing more is taken (ADR 053).
            ...(target.keptCoupons ? { usedCouponIdsKept: target.keptCoupons } : {}),
          }
        : {}),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading

export type ReferralRow = {
  id: string;
  friendId: string;
  friendName: string;
  friendNumber: string;
  referrerId: string;
  referrerName: string;
  referrerNumber: string;
  state: ReferralState;
  points: number;
  /** A coupon reward's catalogue name (rewardKind "coupon"); points otherwise. */
  rewardKind: ReferralRewardKind;
  rewardName: string | null;
  createdAt: Date;
  decidedAt: Date | null;
};

/** A member's referrals as referrer (newest first) and who referred them, if anyone. */
export async function referralsOf(
  db: Database,
  memberId: string,
): Promise<{ referred: ReferralRow[]; referredBy: ReferralRow | null }> {
  const rows = rowsOf<{
    id: string;
    friend_id: string;
    friend_name: string;
    friend_number: string;
    referrer_id: string;
    referrer_name: string;
    referrer_number: string;
    state: ReferralState;
    points: number;
    reward_kind: ReferralRewardKind;
    reward_name: string | null;
    created_at: string | Date;
    decided_at: string | Date | null;
  }>(
    await db.execute(sql`
    select x.id, x.friend_id, f.name_zh as friend_name, f.member_number as friend_number,
           x.referrer_id, r.name_zh as referrer_name, r.member_number as referrer_number,
           x.state, x.points, x.reward_kind, rw.name as reward_name, x.created_at, x.decided_at
      from ${referral} x join ${member} f on f.id = x.friend_id join ${member} r on r.id = x.referrer_id
      left join ${reward} rw on rw.id = x.reward_id
     where x.referrer_id = ${memberId}::uuid or x.friend_id = ${memberId}::uuid
     order by x.created_at desc limit 500`),
  );
  const mapped = rows.map(
    (r): ReferralRow => ({
      id: r.id,
      friendId: r.friend_id,
      friendName: r.friend_name,
      friendNumber: r.friend_number,
      referrerId: r.referrer_id,
      referrerName: r.referrer_name,
      referrerNumber: r.referrer_number,
      state: r.state,
      points: Number(r.points),
      rewardKind: r.reward_kind,
      rewardName: r.reward_name,
      createdAt: new Date(r.created_at),
      decidedAt: r.decided_at ? new Date(r.decided_at) : null,
    }),
  );
  return {
    referred: mapped.filter((r) => r.referrerId === memberId),
    referredBy: mapped.find((r) => r.friendId === memberId) ?? null,
  };
}

/**
 * What the member center shows: the count of friends linked, rewarded, and what the rewards brought (points, and
 * coupons: one per rewarded referral whose reward was a coupon).
 */
export function referralSummary(rows: readonly ReferralRow[]): {
  friends: number;
  rewarded: number;
  points: number;
  coupons: number;
} {
  const rewarded = rows.filter((r) => r.state === "rewarded");
  return {
    friends: rows.length,
    rewarded: rewarded.length,
    points: rewarded.reduce((n, r) => n + r.points, 0),
    coupons: rewarded.filter((r) => r.rewardKind === "coupon").length,
  };
}

export type TopReferrer = { memberId: string; name: string; memberNumber: string; friends: number; rewarded: number };

/** Members by rewarded referrals (then linked friends), for the console's list. */
export async function topReferrers(db: Database, limit = 50): Promise<TopReferrer[]> {
  const rows = await db
    .select({
      memberId: referral.referrerId,
      name: member.nameZh,
      memberNumber: member.memberNumber,
      friends: sql<number>`count(*)::int`,
      rewarded: sql<number>`(count(*) filter (where ${referral.state} = 'rewarded'))::int`,
    })
    .from(referral)
    .innerJoin(member, eq(member.id, referral.referrerId))
    .groupBy(referral.referrerId, member.nameZh, member.memberNumber)
    .orderBy(
      desc(sql`count(*) filter (where ${referral.state} = 'rewarded')`),
      desc(sql`count(*)`),
      member.memberNumber,
    )
    .limit(limit);
  return rows.map((r) => ({ ...r, friends: Number(r.friends), rewarded: Number(r.rewarded) }));
}

/** The member's own code. */
export async function referralCodeOf(db: Database, memberId: string): Promise<string | null> {
  const [row] = await db.select({ code: member.referralCode }).from(member).where(eq(member.id, memberId));
  return row?.code ?? null;
}

/** The console member page's section: the member's code, who referred them and whom they referred. */
export async function memberReferralView(db: Database, memberId: string) {
  const [code, rows] = await Promise.all([referralCodeOf(db, memberId), referralsOf(db, memberId)]);
  if (!code) return null;
  const by = rows.referredBy;
  return {
    code,
    referredBy: by
      ? {
          memberId: by.referrerId,
          name: by.referrerName,
          number: by.referrerNumber,
          state: by.state,
          points: by.points,
          rewardName: by.rewardKind === "coupon" ? by.rewardName : null,
        }
      : null,
    friends: rows.referred.map((r) => ({
      id: r.id,
      memberId: r.friendId,
      name: r.friendName,
      number: r.friendNumber,
      state: r.state,
      points: r.points,
      rewardName: r.rewardKind === "coupon" ? r.rewardName : null,
      at: r.createdAt.toISOString(),
    })),
  };
}
