import type { Database } from "@platform/db/client";
import { reward } from "@platform/db/schema";
import { inArray } from "drizzle-orm";
import { adjustPoints, grantWelcomePoints } from "../loyalty/points.server";
import { recordPurchase } from "../loyalty/purchases.server";
import { redeemReward, useCoupon } from "../loyalty/rewards.server";
import { saveFavourite } from "../materials/favourites.server";
import { SEED_MATERIALS } from "./materials";
import { SEED_STORES } from "./stores";

/**
 * Demo rewards and a member's history, booked through the loyalty engine itself (purchases,
 * welcome points, adjustments, redemptions, coupon use), each at its own instant in the past, so the
 * balance, lots, tier and coupons are exactly what the real rules make of them. Used by the demo
 * seed (the demo member), the APP_ENV=test hooks (browser tests) and the bench.
 */

/** Demo rewards (fixed ids: seeding again updates them in place). */
export const DEMO_REWARDS = [
  {
    id: "7d1f5a10-0000-4000-8000-000000000001",
    name: "NT$100 折價券",
    kind: "amount-off" as const,
    amountOff: 100,
    pointsCost: 100,
    couponValidDays: 90,
  },
  {
    id: "7d1f5a10-0000-4000-8000-000000000002",
    name: "NT$500 折價券",
    kind: "amount-off" as const,
    amountOff: 500,
    pointsCost: 450,
    couponValidDays: 90,
  },
  {
    id: "7d1f5a10-0000-4000-8000-000000000003",
    name: "天然木蠟油保養組",
    kind: "gift" as const,
    amountOff: null,
    pointsCost: 800,
    couponValidDays: 60,
    stock: 40,
  },
  {
    id: "7d1f5a10-0000-4000-8000-000000000004",
    name: "到府丈量與配色諮詢",
    kind: "gift" as const,
    amountOff: null,
    pointsCost: 1200,
    couponValidDays: 120,
    perMemberLimit: 1,
  },
  {
    id: "7d1f5a10-0000-4000-8000-000000000005",
    name: "NT$2,000 折價券",
    kind: "amount-off" as const,
    amountOff: 2000,
    pointsCost: 1800,
    couponValidDays: 90,
  },
];

export async function seedDemoRewards(db: Database): Promise<number> {
  for (const r of DEMO_REWARDS) {
    const row = { stock: null, perMemberLimit: null, ...r };
    await db.insert(reward).values(row).onConflictDoUpdate({ target: reward.id, set: row });
  }
  return DEMO_REWARDS.length;
}

export type HistoryPlan = {
  welcomeAt?: Date | null;
  purchases: { storeId: string; receiptNumber: string; netAmount: number; at: Date }[];
  adjustments: { amount: number; reason: string; at: Date }[];
  /** `usedAt`: the coupon was used at the counter then. */
  redemptions: { rewardId: string; at: Date; usedAt?: Date | null; storeId?: string }[];
  favourites: string[];
};

const DAY = 86_400_000;

/** A small deterministic generator (the demo and the bench get the same history every time). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * A realistic history over the last `months` months: mostly purchases in the showrooms (a renovation
 * is a few large receipts and many small ones), a welcome gift, a few adjustments, and `coupons`
 * redemptions (some used, some expired, the newest unused). `entries` is the number of ledger
 * entries it books (purchases, welcome, adjustments and redemptions; using a coupon books none).
 */
export function realisticHistory(
  now: Date,
  { entries = 200, coupons = 10, months = 14, seed = 7, prefix = "R", amountScale = 1 } = {},
): HistoryPlan {
  const next = random(seed);
  const stores = SEED_STORES.filter((s) => s.published).map((s) => s.id);
  const start = now.getTime() - months * 30 * DAY;
  const span = now.getTime() - start;
  const adjustments = Math.min(6, Math.max(0, entries - coupons - 2));
  const purchases = Math.max(0, entries - 1 - adjustments - coupons);
  const at = (fraction: number) => new Date(start + Math.floor(fraction * span));
  const plan: HistoryPlan = {
    welcomeAt: new Date(start - DAY),
    purchases: [],
    adjustments: [],
    redemptions: [],
    favourites: SEED_MATERIALS.filter((m) => m.published !== false)
      .filter((_, i) => i % 7 === 3)
      .map((m) => m.id)
      .slice(0, 5),
  };
  for (let i = 0; i < purchases; i++) {
    const big = next() < 0.12;
    const amount = big ? 18_000 + Math.floor(next() * 60_000) : 300 + Math.floor(next() * 2_400);
    plan.purchases.push({
      storeId: stores[Math.floor(next() * stores.length)] ?? "xinyi-flagship",
      receiptNumber: `${prefix}${String(i + 1).padStart(5, "0")}-${seed}`,
      netAmount: Math.max(10, Math.round((amount * amountScale) / 10) * 10),
      at: at(((i + 0.5) / purchases) * 0.98),
    });
  }
  for (let i = 0; i < adjustments; i++) {
    plan.adjustments.push({
      amount: i % 3 === 2 ? -20 : 50,
      reason: i % 3 === 2 ? "重複累點更正" : "門市活動加贈",
      at: at((i + 0.7) / (adjustments + 1)),
    });
  }
  const cheap = DEMO_REWARDS.filter((r) => r.pointsCost <= 450);
  for (let i = 0; i < coupons; i++) {
    const fraction = 0.25 + (0.74 * (i + 1)) / (coupons + 1);
    const when = at(fraction);
    const reward = cheap[i % cheap.length] ?? DEMO_REWARDS[0];
    // The older half was used a week later; of the rest, the ones past 90 days simply expired.
    const used = i < Math.floor(coupons / 2);
    plan.redemptions.push({
      rewardId: reward?.id ?? "",
      at: when,
      usedAt: used ? new Date(Math.min(when.getTime() + 7 * DAY, now.getTime() - DAY)) : null,
      storeId: stores[i % stores.length],
    });
  }
  return plan;
}

/**
 * Books a plan for a member, in time order, through the engine (so tiers upgrade on the way and
 * redemptions spend the lots that expire first). Returns what it booked.
 */
export async function bookHistory(
  db: Database,
  memberId: string,
  plan: HistoryPlan,
): Promise<{ purchases: number; redemptions: number; adjustments: number }> {
  type Step = { at: Date; run: () => Promise<unknown> };
  const steps: Step[] = [];
  if (plan.welcomeAt) {
    const when = plan.welcomeAt;
    steps.push({ at: when, run: () => grantWelcomePoints(db, memberId, when) });
  }
  for (const p of plan.purchases) {
    steps.push({
      at: p.at,
      run: () =>
        recordPurchase(
          db,
          { memberId, storeId: p.storeId, receiptNumber: p.receiptNumber, netAmount: p.netAmount, purchasedAt: p.at },
          p.at,
        ),
    });
  }
  plan.adjustments.forEach((a, i) => {
    steps.push({
      at: a.at,
      run: () =>
        adjustPoints(db, { memberId, amount: a.amount, reason: a.reason, idempotencyKey: `history-${i}` }, a.at),
    });
  });
  plan.redemptions.forEach((r, i) => {
    steps.push({
      at: r.at,
      run: async () => {
        const { coupon } = await redeemReward(
          db,
          { memberId, rewardId: r.rewardId, idempotencyKey: `history-${i}` },
          r.at,
        );
        if (r.usedAt) {
          const usedAt = r.usedAt;
          steps.push({
            at: usedAt,
            run: () => useCoupon(db, { code: coupon.code, storeId: r.storeId ?? "xinyi-flagship" }, usedAt),
          });
          steps.sort((a, b) => a.at.getTime() - b.at.getTime());
        }
      },
    });
  });
  steps.sort((a, b) => a.at.getTime() - b.at.getTime());
  // Steps may add later steps (a coupon's use), so walk the list as it grows.
  for (let i = 0; i < steps.length; i++) {
    await steps[i]?.run();
  }
  for (const id of plan.favourites) await saveFavourite(db, memberId, id);
  return {
    purchases: plan.purchases.length,
    redemptions: plan.redemptions.length,
    adjustments: plan.adjustments.length,
  };
}

/** True when every demo reward is in the database (the history's redemptions need them). */
export async function demoRewardsPresent(db: Database): Promise<boolean> {
  const rows = await db
    .select({ id: reward.id })
    .from(reward)
    .where(
      inArray(
        reward.id,
        DEMO_REWARDS.map((r) => r.id),
      ),
    );
  return rows.length === DEMO_REWARDS.length;
}
