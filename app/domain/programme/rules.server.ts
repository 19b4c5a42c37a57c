import { createHash } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { loyaltyAccount, loyaltyRules, purchase, type Tier } from "@platform/db/schema";
import { desc, eq, gt, sql } from "drizzle-orm";
import { taipeiIsoDate } from "~/lib/time";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import type { EarnRules } from "../loyalty/earn";
import { currentRules, type LoyaltyRules, spendWindowStart } from "../loyalty/rules.server";
import { tierSpendSql } from "../loyalty/tier-amount.server";
import { Refusal, VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { effectiveInstant, type RuleFields } from "./rules-form";

/**
 * Programme rules in the console (issue 14 item 6, ADR 029). Rules are versions (`loyalty_rules`
 * rows); the engine reads the newest one whose effective_from has passed (currentRules), so a new
 * version applies from its date and the old ones stay as history. Admins only (`programme.edit`).
 */

export type RulesVersion = LoyaltyRules;

/** Every version, newest first (a programme has a handful a year). */
export async function rulesHistory(db: Database): Promise<RulesVersion[]> {
  return db.select().from(loyaltyRules).orderBy(desc(loyaltyRules.effectiveFrom), desc(loyaltyRules.id)).limit(200);
}

/** The latest version not yet in force, if any. */
export async function latestScheduled(db: Database, now: Date): Promise<RulesVersion | null> {
  const [row] = await db
    .select()
    .from(loyaltyRules)
    .where(gt(loyaltyRules.effectiveFrom, now))
    .orderBy(desc(loyaltyRules.effectiveFrom), desc(loyaltyRules.id))
    .limit(1);
  return row ?? null;
}

/** The id of the newest version saved (the form's base: a save over an older base is a conflict). */
export async function newestVersionId(db: Database): Promise<number> {
  const [row] = await db.select({ id: sql<number>`coalesce(max(${loyaltyRules.id}), 0)::int` }).from(loyaltyRules);
  return row?.id ?? 0;
}

/** A version already takes effect at that instant (one version per effective date). */
export class RulesDateTaken extends Refusal<"rules"> {
  constructor(
    readonly existingId: number,
    readonly effectiveFrom: Date,
  ) {
    super("rules", "date_taken", {
      field: "effectiveDate",
      // The date as the console writes dates (2026/12/28).
      params: { max: taipeiIsoDate(effectiveFrom).replaceAll("-", "/") },
      message: "A rules version already takes effect on that date",
    });
    this.name = "RulesDateTaken";
  }
}

/**
 * The note the first migration seeded on the default version (drizzle/0002): developers' words, shown to the
 * brand as 預設規則 / Default rules instead (rulesNoteIsDefaults). The built-in fallback (DEFAULT_RULES) has no note.
 */
export const SEEDED_RULES_NOTE = "defaults from PRODUCT.md §4";

/** Whether a version is the programme's default one, whose note is shown as 預設規則 rather than as stored. */
export function rulesNoteIsDefaults(version: Pick<RulesVersion, "createdBy" | "note">): boolean {
  return version.createdBy === null && version.note === SEEDED_RULES_NOTE;
}

/**
 * Saves a new version from its Taipei day (at once when that day is today). The table is locked for
 * the check-then-insert, so of two admins saving over the same version the later one is told. One
 * version per effective date: a date already taken (a version scheduled for that day starts at its
 * 00:00, so the same date is the same instant) is refused with RulesDateTaken, under the same lock —
 * `share row exclusive` conflicts with itself, so of two saves at once the second reads the first's row.
 */
export async function scheduleRules(
  db: Database,
  actor: StaffActor,
  input: { rules: RuleFields; effectiveDate: { year: number; month: number; day: number }; note: string },
  baseVersionId: number,
  audit: AuditContext,
  now = new Date(),
): Promise<RulesVersion> {
  requirePermission(actor, "programme.edit");
  return auditedTx(db, audit, now, async (t, record) => {
    await t.execute(sql`lock table ${loyaltyRules} in share row exclusive mode`);
    const newest = await newestVersionId(t);
    if (newest !== baseVersionId) throw new VersionConflict("rules", newest, { id: String(newest) });
    const before = await currentRules(t, now);
    const effectiveFrom = effectiveInstant(input.effectiveDate, now);
    const [taken] = await t
      .select({ id: loyaltyRules.id })
      .from(loyaltyRules)
      .where(eq(loyaltyRules.effectiveFrom, effectiveFrom))
      .limit(1);
    if (taken) throw new RulesDateTaken(taken.id, effectiveFrom);
    const [row] = await t
      .insert(loyaltyRules)
      .values({
        // The kept-visit rule (issue 37) carries over when the form did not send it.
        keptVisitEnabled: before.keptVisitEnabled,
        keptVisitPoints: before.keptVisitPoints,
        // The referral programme (issue 38, ADR 053) carries over the same way.
        referralEnabled: before.referralEnabled,
        referralPoints: before.referralPoints,
        referralMinAmount: before.referralMinAmount,
        referralMonthlyCap: before.referralMonthlyCap,
        referralWindowDays: before.referralWindowDays,
        // So does the trade accounts' multiplier (issue 38 part 2, ADR 057).
        tradeMultiplierPermille: before.tradeMultiplierPermille,
        referralRewardKind: before.referralRewardKind,
        referralRewardId: before.referralRewardId,
        ...input.rules,
        effectiveFrom,
        createdBy: actor.userId,
        note: input.note || null,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error("rules insert returned nothing");
    const { id: _a, createdAt: _b, effectiveFrom: _c, createdBy: _d, note: _e, ...beforeFields } = before;
    await record("rules.scheduled", ["loyalty_rules", String(row.id)], {
      before: beforeFields,
      after: { ...input.rules, effectiveFrom: effectiveFrom.toISOString(), note: row.note },
    });
    return row;
  });
}

/** Ties a save to the preview the admin saw: the same rules and date, or the preview is shown again. */
export function previewToken(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 22);
}

// ---------------------------------------------------------------------------------------------
// Impact preview

export type TierMove = { from: Tier; to: Tier; members: number };
export type Impact = {
  /** Tier changes the next evaluation would make with the proposed rules, and with the rules in force. */
  proposed: TierMove[];
  current: TierMove[];
  /** Purchases of the last 30 days: points under the rules in force and under the proposed ones. */
  purchases: number;
  pointsCurrent: number;
  pointsProposed: number;
};

type Thresholds = Pick<LoyaltyRules, "silverSpend" | "goldSpend">;

/**
 * What a rules change would do, set-based over every account, with the engine's own definitions:
 * the 12-month spend and window of evaluateTiers (spendWindowStart, the same join), tierForSpend's
 * thresholds (≥ gold → gold, ≥ silver → silver), tierDecision's rule (up at once, down only a year
 * after the last downgrade — oneYearAfter's Taipei calendar arithmetic, day overflow included), and
 * pointsForAmount's arithmetic (floor(amount / amountPerPoint) × multiplier ‰, rounded down) at the
 * member's tier today. The property test cross-checks it against those functions member by member.
 */
export async function rulesImpact(db: Database, proposed: Thresholds & EarnRules, now = new Date()): Promise<Impact> {
  const inForce = await currentRules(db, now);
  const at = now.toISOString();
  const windowStart = spendWindowStart(now).toISOString();
  const tierSql = (r: Thresholds) =>
    sql`case when s.spend >= ${r.goldSpend}::int then 'gold' when s.spend >= ${r.silverSpend}::int then 'silver' else 'basic' end`;
  const rows = rowsOf<{ from: Tier; to: Tier; which: "proposed" | "current"; members: number }>(
    await db.execute(sql`
    with s as (
      select a.tier,
             a.last_downgrade_at is null or (
               (make_timestamp(extract(year from l.local)::int + 1, extract(month from l.local)::int, 1,
                               extract(hour from l.local)::int, extract(minute from l.local)::int,
                               floor(extract(second from l.local)))
                + (extract(day from l.local)::int - 1) * interval '1 day') at time zone 'Asia/Taipei'
               <= ${at}::timestamptz) as may_downgrade,
             ${tierSpendSql("p")} as spend
        from ${loyaltyAccount} a
        cross join lateral (select a.last_downgrade_at at time zone 'Asia/Taipei' as local) l
        left join ${purchase} p on p.member_id = a.member_id
             and p.purchased_at >= ${windowStart}::timestamptz and p.purchased_at <= ${at}::timestamptz
       group by a.member_id, a.tier, a.last_downgrade_at, l.local
    ), targets as (
      select s.tier, s.may_downgrade, ${tierSql(proposed)} as proposed, ${tierSql(inForce)} as current from s
    ), ranked as (
      select tier, may_downgrade, proposed, current,
             array_position(array['basic','silver','gold'], tier) as r,
             array_position(array['basic','silver','gold'], proposed) as rp,
             array_position(array['basic','silver','gold'], current) as rc
        from targets
    )
    select tier as "from", proposed as "to", 'proposed' as which, count(*)::int as members from ranked
     where rp > r or (rp < r and may_downgrade) group by tier, proposed
    union all
    select tier as "from", current as "to", 'current' as which, count(*)::int as members from ranked
     where rc > r or (rc < r and may_downgrade) group by tier, current
  `),
  );
  const since = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const pointsSql = (r: EarnRules) => sql`
    sum(((p.net_amount / ${r.amountPerPoint}::int)::bigint *
         case a.tier when 'gold' then ${r.goldMultiplierPermille}::int
                     when 'silver' then ${r.silverMultiplierPermille}::int
                     else ${r.basicMultiplierPermille}::int end) / 1000)`;
  const [p] = rowsOf<{ purchases: number; current: string | null; proposed: string | null }>(
    await db.execute(sql`
    select count(*)::int as purchases, ${pointsSql(inForce)} as current, ${pointsSql(proposed)} as proposed
      from ${purchase} p join ${loyaltyAccount} a on a.member_id = p.member_id
     where p.purchased_at > ${since}::timestamptz and p.purchased_at <= ${at}::timestamptz
  `),
  );
  const order = (m: TierMove) => `${m.from}${m.to}`;
  const pick = (which: "proposed" | "current") =>
    rows
      .filter((m) => m.which === which)
      .map((m) => ({ from: m.from, to: m.to, members: Number(m.members) }))
      .sort((a, b) => order(a).localeCompare(order(b)));
  return {
    proposed: pick("proposed"),
    current: pick("current"),
    purchases: Number(p?.purchases ?? 0),
    pointsCurrent: Number(p?.current ?? 0),
    pointsProposed: Number(p?.proposed ?? 0),
  };
}
