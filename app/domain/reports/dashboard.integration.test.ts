import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { loyaltyAccount, pointLot, reward } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expirePoints, grantWelcomePoints } from "~/domain/loyalty/points.server";
import { recordPurchase, refundPurchase } from "~/domain/loyalty/purchases.server";
import { cancelCoupon, redeemReward, useCoupon } from "~/domain/loyalty/rewards.server";
import { newMember } from "~/domain/loyalty/testing.server";
import { panelRows } from "./csv";
import { type Dashboard, loadDashboard } from "./dashboard.server";
import { compactReports } from "./housekeeping.server";

/**
 * A small known history booked through the real domain functions; every panel is checked against figures worked
 * out here from the events themselves (and, for balances and lots, from the base tables), then again after
 * report_rebuild() recomputed the summaries from scratch (the triggers and the rebuild must agree).
 */
let db: Database;
useMigratedTestDatabase("dashboard", (handle) => {
  db = handle.db;
});

const taipei = (local: string) => new Date(`${local}+08:00`);
const today = "2026-03-05";
const now = taipei("2026-03-05T10:00:00");
const range = { from: "2026-01-01", to: today, today, now };

type P = { member: string; store: string; amount: number; at: Date; points?: number; id?: string };

describe("dashboard figures for a known data set", () => {
  it("match the events, for all stores and for one store, and survive a rebuild", async () => {
    // An old member whose welcome points expire on 1 January 2026 (not in the range's sign-ups).
    const old = await newMember(db, { createdAt: taipei("2024-03-01T12:00:00") });
    await grantWelcomePoints(db, old.id, taipei("2024-03-01T12:00:00"));
    await expirePoints(db, taipei("2026-01-02T03:00:00"));

    const m1 = await newMember(db, { createdAt: taipei("2026-01-05T09:00:00"), signupMethod: "phone" });
    const m2 = await newMember(db, { createdAt: taipei("2026-01-20T21:00:00"), signupMethod: "line" });
    const m3 = await newMember(db, { createdAt: taipei("2026-02-03T08:00:00"), signupMethod: "phone" });
    for (const m of [m1, m2, m3]) await grantWelcomePoints(db, m.id, m.createdAt);

    const purchases: P[] = [
      { member: m1.id, store: "S01", amount: 12_345, at: taipei("2026-01-10T15:00:00") },
      { member: m1.id, store: "S02", amount: 5_000, at: taipei("2026-02-15T11:00:00") },
      { member: m2.id, store: "S01", amount: 20_000, at: taipei("2026-02-16T19:00:00") },
      // 00:30 on 1 March in Taipei (still 28 February in UTC): a March purchase.
      { member: m3.id, store: "S02", amount: 3_000, at: new Date("2026-02-28T16:30:00Z") },
    ];
    for (const [i, p] of purchases.entries()) {
      const r = await recordPurchase(
        db,
        { memberId: p.member, storeId: p.store, receiptNumber: `R-${i}`, netAmount: p.amount, purchasedAt: p.at },
        p.at,
      );
      p.points = r.pointsEarned;
      p.id = r.purchase.id;
    }
    const refund = await refundPurchase(
      db,
      { purchaseId: purchases[2]?.id as string, amount: 5_000, idempotencyKey: "refund-1" },
      taipei("2026-02-20T12:00:00"),
    );
    const rewardId = randomUUID();
    await db
      .insert(reward)
      .values({ id: rewardId, name: "NT$100 折價券", kind: "amount-off", amountOff: 100, pointsCost: 150 });
    const used = await redeemReward(
      db,
      { memberId: m2.id, rewardId, idempotencyKey: "r1", storeId: "S01" },
      taipei("2026-02-21T12:00:00"),
    );
    await useCoupon(db, { code: used.coupon.code, storeId: "S01" }, taipei("2026-02-22T12:00:00"));
    const cancelled = await redeemReward(
      db,
      { memberId: m1.id, rewardId, idempotencyKey: "r2" },
      taipei("2026-02-23T12:00:00"),
    );
    await cancelCoupon(db, { couponId: cancelled.coupon.id }, taipei("2026-02-24T12:00:00"));

    // ---- Expected figures, from the events above.
    const earned = purchases.reduce((a, p) => a + (p.points ?? 0), 0);
    const welcome = 100 * 3;
    // m2 spent 150 of what was left after the refund.
    expect(await balanceOf(m2.id)).toBe(refund.balance - 150);
    const expectedAll = {
      purchases: 4,
      netSales: 12_345 + 5_000 + 20_000 + 3_000 - 5_000,
      signups: 3,
      signupsPhone: 2,
      signupsLine: 1,
      issued: earned + welcome,
      redeemed: 300,
      cancelled: 150,
      expired: 100,
      active30: 3, // last purchases 15 Feb, 16 Feb, 1 Mar — all on or after 4 Feb
      active90: 3,
    };
    const balances = await db
      .select({ tier: loyaltyAccount.tier, balance: loyaltyAccount.balance })
      .from(loyaltyAccount);
    const outstanding = balances.reduce((a, b) => a + b.balance, 0);
    const [lotsDue] = await db
      .select({ s: sql<string>`coalesce(sum(${pointLot.remaining}), 0)` })
      .from(pointLot)
      .where(
        and(
          gte(pointLot.expiresAt, taipei("2026-03-05T00:00:00")),
          lt(pointLot.expiresAt, taipei("2026-06-05T00:00:00")),
        ),
      );

    const check = async (label: string) => {
      const all = await loadDashboard(db, { ...range, scope: { kind: "all" } });
      expect(all.totals, label).toMatchObject(expectedAll);
      // Two coupons of 150 points redeemed, one cancelled (counted apart): 300 points redeemed per point issued.
      expect(all.totals.redemptionRate).toBeCloseTo(300 / (earned + welcome), 12);
      expect(all.stores.map((s) => [s.storeId, s.purchases, s.sales, s.refunds, s.netSales])).toEqual([
        ["S01", 2, 32_345, 5_000, 27_345],
        ["S02", 2, 8_000, 0, 8_000],
      ]);
      expect(dayOf(all, "2026-03-01")).toMatchObject({ purchases: 1, netSales: 3_000 });
      expect(dayOf(all, "2026-02-28")).toBeUndefined();
      expect(dayOf(all, "2026-01-20")).toMatchObject({ signupsLine: 1, signupsPhone: 0 });
      expect(all.months.map((m) => [m.month, m.issued, m.redeemed, m.cancelled, m.expired])).toEqual([
        ["2026-01-01", 200 + (purchases[0]?.points ?? 0), 0, 0, 100],
        ["2026-02-01", 100 + (purchases[1]?.points ?? 0) + (purchases[2]?.points ?? 0), 300, 150, 0],
        ["2026-03-01", purchases[3]?.points ?? 0, 0, 0, 0],
      ]);
      expect(all.months[1]?.reversed).toBeGreaterThan(0);
      expect(all.liability?.points).toBe(outstanding);
      expect(all.liability?.ntd).toBe(outstanding); // default rules: one point = NT$1
      expect(all.liability?.expiringPoints).toBe(Number(lotsDue?.s));
      const tierCount = (t: string) => balances.filter((b) => b.tier === t).length;
      expect(all.tiers?.map((t) => [t.tier, t.members])).toEqual([
        ["basic", tierCount("basic")],
        ["silver", tierCount("silver")],
        ["gold", tierCount("gold")],
      ]);
      expect(all.rewards).toEqual([
        { rewardId, name: "NT$100 折價券", issued: 2, used: 1, cancelled: 1, revoked: 0, points: 300 },
      ]);
      // Cohorts: January (m1, m2) bought in Jan: m1; Feb: m1, m2; Mar: none. February (m3): Mar: m3.
      expect(all.cohorts.rows.map((r) => [r.signupMonth, r.size, r.active])).toEqual([
        ["2026-01-01", 2, [1, 2, 0]],
        ["2026-02-01", 1, [0, 1, null]],
        ["2026-03-01", 0, [0, null, null]],
      ]);

      const s01 = await loadDashboard(db, { ...range, scope: { kind: "stores", storeIds: ["S01"] } });
      expect(s01.programme).toBe(false);
      expect(s01.liability).toBeNull();
      expect(s01.tiers).toBeNull();
      expect(s01.totals).toMatchObject({ purchases: 2, netSales: 27_345, signups: 0, active30: 1, active90: 2 });
      expect(s01.stores.map((s) => s.storeId)).toEqual(["S01"]);
      expect(s01.rewards).toEqual([
        { rewardId, name: "NT$100 折價券", issued: 1, used: 1, cancelled: 0, revoked: 0, points: 150 },
      ]);
      expect(s01.cohorts.rows.map((r) => r.active)).toEqual([
        [1, 1, 0],
        [0, 0, null],
        [0, null, null],
      ]);
      // Two stores at once: a member buying at both in one month counts once.
      const both = await loadDashboard(db, { ...range, scope: { kind: "stores", storeIds: ["S01", "S02"] } });
      expect(both.cohorts.rows.map((r) => r.active)).toEqual(all.cohorts.rows.map((r) => r.active));
      expect(both.totals).toMatchObject({ purchases: 4, active30: 3, active90: 3 });
      return all;
    };

    const before = await check("kept by the triggers");
    // The nightly compaction folds the days before yesterday into shard 0; the figures stay the same.
    await compactReports(db, taipei("2026-03-02T09:00:00"));
    const unfolded = await db.execute(
      sql`select count(*)::int as n from report_day_store where day < '2026-03-01' and shard <> 0
          union all select count(*)::int from report_reward_day where day < '2026-03-01' and shard <> 0`,
    );
    expect(rowsOf<{ n: number }>(unfolded).map((r) => Number(r.n))).toEqual([0, 0]);
    expect(await check("after report_compact()")).toEqual(before);
    await db.execute(sql`select report_rebuild()`);
    const after = await check("after report_rebuild()");
    expect(after).toEqual(before);
  });

  it("counts a coupon cancelled in the range apart: redeemed never goes below zero (issue 33 item 11)", async () => {
    const m = await newMember(db, { createdAt: taipei("2025-06-01T09:00:00") });
    await grantWelcomePoints(db, m.id, m.createdAt);
    const rewardId = randomUUID();
    await db
      .insert(reward)
      .values({ id: rewardId, name: "NT$50 折價券", kind: "amount-off", amountOff: 50, pointsCost: 50 });
    // Redeemed before the range, cancelled inside it.
    const coupon = await redeemReward(
      db,
      { memberId: m.id, rewardId, idempotencyKey: "before-range" },
      taipei("2025-07-01T12:00:00"),
    );
    await cancelCoupon(db, { couponId: coupon.coupon.id }, taipei("2025-08-10T12:00:00"));
    const d = await loadDashboard(db, {
      from: "2025-08-01",
      to: "2025-08-31",
      today: "2025-08-31",
      now: taipei("2025-08-31T10:00:00"),
      scope: { kind: "all" },
    });
    expect(d.totals).toMatchObject({ redeemed: 0, cancelled: 50 });
    expect(d.totals.redemptionRate).toBeNull(); // nothing issued in August
    expect(d.months).toEqual([
      { month: "2025-08-01", issued: 0, redeemed: 0, cancelled: 50, expired: 0, reversed: 0, adjustedOut: 0 },
    ]);
    expect(dayOf(d, "2025-08-10")).toMatchObject({ redeemed: 0, cancelled: 50 });
    expect(panelRows(d, "points", (id) => id)).toEqual([
      ["month", "issued", "redeemed", "cancelled", "expired", "reversed_by_refunds"],
      ["2025-08", 0, 0, 50, 0, 0],
    ]);
  });

  it("counts points paying for a purchase as redeemed and those a refund gives back as cancelled, live and rebuilt (issue 36)", async () => {
    const m = await newMember(db, { createdAt: taipei("2025-09-01T09:00:00") });
    await grantWelcomePoints(db, m.id, m.createdAt);
    const start = await balanceOf(m.id);
    await recordPurchase(
      db,
      {
        memberId: m.id,
        storeId: "S09",
        receiptNumber: "P-1",
        netAmount: 10_000,
        purchasedAt: taipei("2025-10-02T12:00:00"),
      },
      taipei("2025-10-02T12:00:00"),
    );
    const paid = await recordPurchase(
      db,
      {
        memberId: m.id,
        storeId: "S09",
        receiptNumber: "P-2",
        netAmount: 1_000,
        pointsToSpend: 80,
        purchasedAt: taipei("2025-10-10T12:00:00"),
      },
      taipei("2025-10-10T12:00:00"),
    );
    // Half the purchase refunded: half the points spent come back.
    const refund = await refundPurchase(
      db,
      { purchaseId: paid.purchase.id, amount: 500, idempotencyKey: "points-refund" },
      taipei("2025-10-12T12:00:00"),
    );
    expect(refund.pointsReturned).toBe(40);
    const window = {
      from: "2025-10-01",
      to: "2025-10-31",
      today: "2025-10-31",
      now: taipei("2025-10-31T10:00:00"),
      scope: { kind: "all" as const },
    };
    const live = await loadDashboard(db, window);
    expect(live.totals).toMatchObject({ redeemed: 80, cancelled: 40 });
    expect(dayOf(live, "2025-10-10")).toMatchObject({ redeemed: 80 });
    expect(dayOf(live, "2025-10-12")).toMatchObject({ cancelled: 40 });
    // October's flows add up to October's change of the balance: issued − redeemed + cancelled − reversed.
    const month = live.months[0];
    expect(month ? month.issued - month.redeemed + month.cancelled - month.reversed : null).toBe(
      (await balanceOf(m.id)) - start,
    );
    await db.execute(sql`select report_rebuild()`);
    expect(await loadDashboard(db, window)).toEqual(live);
  });

  it("shows nothing of stores outside the scope", async () => {
    const none = await loadDashboard(db, { ...range, scope: { kind: "stores", storeIds: ["S99"] } });
    expect(none.totals).toMatchObject({ purchases: 0, netSales: 0, active30: 0, active90: 0 });
    expect(none.stores).toEqual([]);
    expect(none.rewards).toEqual([]);
  });
});

function dayOf(d: Dashboard, day: string) {
  return d.days.find((x) => x.day === day);
}

async function balanceOf(memberId: string): Promise<number> {
  const [row] = await db
    .select({ balance: loyaltyAccount.balance })
    .from(loyaltyAccount)
    .where(eq(loyaltyAccount.memberId, memberId));
  return row?.balance ?? 0;
}
