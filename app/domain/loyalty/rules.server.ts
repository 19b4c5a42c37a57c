import type { Database } from "@platform/db/client";
import { loyaltyRules, type Tier } from "@platform/db/schema";
import { type Slots, selectStatement } from "@platform/db/statement";
import { desc, lte } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";

export { multiplierPermille, pointsForAmount } from "./earn";

import { addDays, endOfTaipeiYear, fromTaipeiWallClock, taipeiDate, taipeiParts } from "~/lib/time";

export type LoyaltyRules = typeof loyaltyRules.$inferSelect;

/** PRODUCT.md §4 defaults, used only if the rules table were empty (the migration seeds one row). */
export const DEFAULT_RULES: LoyaltyRules = {
  id: 0,
  amountPerPoint: 100,
  silverSpend: 50_000,
  goldSpend: 200_000,
  basicMultiplierPermille: 1000,
  silverMultiplierPermille: 1200,
  goldMultiplierPermille: 1500,
  welcomeEnabled: true,
  welcomePoints: 100,
  birthdayEnabled: true,
  birthdayPoints: 200,
  pointValueCents: 100,
  maxSpendPercent: 50,
  keptVisitEnabled: false,
  keptVisitPoints: 50,
  referralEnabled: true,
  referralPoints: 300,
  referralMinAmount: 3000,
  referralMonthlyCap: 5,
  referralWindowDays: 30,
  tradeMultiplierPermille: 1000,
  referralRewardKind: "points",
  referralRewardId: null,
  effectiveFrom: new Date(0),
  createdBy: null,
  note: null,
  createdAt: new Date(0),
};

/** The rules in force at `now`: the newest version whose effectiveFrom has passed. */
export async function currentRules(db: Database, now = new Date()): Promise<LoyaltyRules> {
  const [row] = await CURRENT_RULES(db, { now: now.toISOString() });
  return row ?? DEFAULT_RULES;
}

/** currentRules' select, built once: every purchase reads the rules (ADR 060, "Later (2026-12-07, the builders)"). */
const CURRENT_RULES = selectStatement((p: Slots<"now">) =>
  new QueryBuilder()
    .select()
    .from(loyaltyRules)
    .where(lte(loyaltyRules.effectiveFrom, p.now))
    .orderBy(desc(loyaltyRules.effectiveFrom), desc(loyaltyRules.id))
    .limit(1),
);

/** A new version of the rules (the old ones stay as history); it applies at the next evaluation. */
export async function changeRules(
  db: Database,
  changes: Partial<Omit<LoyaltyRules, "id" | "createdAt">>,
  now = new Date(),
): Promise<LoyaltyRules> {
  const base = await currentRules(db, now);
  const { id: _id, createdAt: _createdAt, ...rest } = base;
  const [row] = await db
    .insert(loyaltyRules)
    .values({ ...rest, effectiveFrom: now, createdBy: null, note: null, ...changes })
    .returning();
  if (!row) throw new Error("rules insert returned nothing");
  return row;
}

export const TIER_ORDER: Record<Tier, number> = { basic: 0, silver: 1, gold: 2 };

export function tierForSpend(rules: LoyaltyRules, spend: number): Tier {
  if (spend >= rules.goldSpend) return "gold";
  if (spend >= rules.silverSpend) return "silver";
  return "basic";
}

export function tierThreshold(rules: LoyaltyRules, tier: Tier): number {
  return tier === "gold" ? rules.goldSpend : tier === "silver" ? rules.silverSpend : 0;
}

/** Lots expire at the end of the calendar year after the year they were earned (Taipei). */
export function lotExpiry(earnedAt: Date): Date {
  return endOfTaipeiYear(taipeiParts(earnedAt).year + 1);
}

/** Start of the 12-month spend window ending at `now`: the Taipei day after the same date last year. */
export function spendWindowStart(now: Date): Date {
  const today = taipeiDate(now);
  return fromTaipeiWallClock(addDays({ ...today, year: today.year - 1 }, 1));
}

/** The same instant-ish one year later (Taipei calendar), for "downgrade at most once a year". */
export function oneYearAfter(instant: Date): Date {
  const p = taipeiParts(instant);
  return fromTaipeiWallClock({ year: p.year + 1, month: p.month, day: p.day }, p.hour, p.minute, p.second);
}
