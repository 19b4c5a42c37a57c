import { type Database, rowsOf } from "@platform/db/client";
import { auditLog, coupon, pointEntry, referral, reward } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { isRedemption } from "../loyalty/coupon-state";
import { checkLedger } from "../loyalty/ledger-check.server";
import { memberCenterSummary } from "../loyalty/member-center.server";
import { recordPurchase, refundPurchase } from "../loyalty/purchases.server";
import { cancelCoupon, redeemReward, useCoupon } from "../loyalty/rewards.server";
import { changeRules } from "../loyalty/rules.server";
import { ledgerTotals, newMember } from "../loyalty/testing.server";
import { stockHistory } from "../programme/rewards.server";
import { loadDashboard } from "../reports/dashboard.server";
import { linkReferral, referralSummary, referralsOf } from "./referrals.server";
import { referralImpact, referralRewardTerms } from "./rules.server";

/**
 * A referral's coupon reward (ADR 053, "Later (coupon reward)") on PGlite, and on PostgreSQL when TEST_DATABASE_URL
 * is set: a points-free coupon to each side in the decision's transaction, once; a refund within the window revokes
 * the unused ones; a used one stays used and nothing more is taken.
 */
let db: Database;
useMigratedTestDatabase("referral_coupons", (handle) => {
  db = handle.db;
});

const t0 = new Date("2026-05-12T04:00:00Z");
let receipt = 0;
let rewardId = "";
const buy = (memberId: string, netAmount: number, now = t0) =>
  recordPurchase(db, { memberId, storeId: "S01", receiptNumber: `RC-${++receipt}`, netAmount, purchasedAt: now }, now);
const refund = (purchaseId: string, amount: number, now = t0) =>
  refundPurchase(db, { purchaseId, amount, idempotencyKey: `rc-refund-${++receipt}` }, now);

async function pair() {
  const referrer = await newMember(db);
  const friend = await newMember(db);
  const outcome = await db.transaction((tx) =>
    linkReferral(tx, { friendId: friend.id, code: referrer.referralCode }, t0),
  );
  expect(outcome.linked).toBe(true);
  return { referrer, friend };
}

const couponsOf = (memberId: string) => db.select().from(coupon).where(eq(coupon.memberId, memberId));
const wallet = async (memberId: string, now = t0) =>
  (await memberCenterSummary(db, memberId, now, { fresh: true })).coupons;

/** An audit row's value of a field after the change. */
const changed = (row: typeof auditLog.$inferSelect | undefined, field: string) => row?.changes?.[field]?.after;

beforeAll(async () => {
  const [created] = await db
    .insert(reward)
    .values({ name: "推薦禮 NT$200 折價券", kind: "amount-off", amountOff: 200, pointsCost: 500, stock: 3 })
    .returning();
  rewardId = created?.id ?? "";
  await changeRules(
    db,
    { referralRewardKind: "coupon", referralRewardId: rewardId },
    new Date(t0.getTime() - 86_400_000),
  );
});

describe("a referral's coupon reward", () => {
  it("issues one points-free coupon to each side with the qualifying purchase, audited, shown as unused", async () => {
    const { referrer, friend } = await pair();
    const bought = await buy(friend.id, 3_000);
    const [mine] = await couponsOf(referrer.id);
    const [theirs] = await couponsOf(friend.id);
    const [row] = await db.select().from(referral).where(eq(referral.friendId, friend.id));
    expect(row).toMatchObject({ state: "rewarded", points: 0, rewardKind: "coupon", rewardId });
    for (const c of [mine, theirs]) {
      expect(c).toMatchObject({ rewardId, status: "issued", pointsCost: 0, redeemEntryId: null, referralId: row?.id });
    }
    // No points for the referral (the friend earns the purchase's 30 only), no stock taken.
    expect((await ledgerTotals(db, referrer.id)).balance).toBe(0);
    expect((await ledgerTotals(db, friend.id)).balance).toBe(30);
    const [item] = await db.select({ stock: reward.stock }).from(reward).where(eq(reward.id, rewardId));
    expect(item?.stock).toBe(3);
    // The member center's wallet: the one coupon-state function says "unused".
    expect(await wallet(friend.id)).toMatchObject([{ state: "unused", fromReferral: true, pointsCost: 0 }]);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "referral.rewarded"), eq(auditLog.targetId, row?.id ?? "")));
    expect(changed(audit, "couponIds")).toEqual(expect.arrayContaining([mine?.id, theirs?.id]));
    expect(changed(audit, "rewardKind")).toBe("coupon");
    expect((await referralsOf(db, referrer.id)).referred[0]).toMatchObject({
      rewardKind: "coupon",
      rewardName: "推薦禮 NT$200 折價券",
    });
    expect(referralSummary((await referralsOf(db, referrer.id)).referred)).toEqual({
      friends: 1,
      rewarded: 1,
      points: 0,
      coupons: 1,
    });
    expect(bought.purchase.id).toBe(row?.purchaseId);
  });

  it("issues them once: a later purchase, a replayed purchase and a second insert give no second coupon", async () => {
    const { referrer, friend } = await pair();
    const first = await recordPurchase(
      db,
      { memberId: friend.id, storeId: "S01", receiptNumber: "RC-REPLAY", netAmount: 3_200, purchasedAt: t0 },
      t0,
    );
    const again = await recordPurchase(
      db,
      { memberId: friend.id, storeId: "S01", receiptNumber: "RC-REPLAY", netAmount: 3_200, purchasedAt: t0 },
      t0,
    );
    expect(again.purchase.id).toBe(first.purchase.id);
    await buy(friend.id, 9_000);
    expect(await couponsOf(referrer.id)).toHaveLength(1);
    expect(await couponsOf(friend.id)).toHaveLength(1);
    const [row] = await db.select().from(referral).where(eq(referral.friendId, friend.id));
    // The unique (referral_id, member_id) refuses a second coupon of the same referral to the same member.
    await expect(
      db.insert(coupon).values({
        code: `DUP${Date.now()}`,
        rewardId,
        memberId: referrer.id,
        pointsCost: 0,
        referralId: row?.id,
        expiresAt: new Date(t0.getTime() + 86_400_000),
      }),
    ).rejects.toThrow();
  });

  it("a refund within the window revokes both unused coupons, once, with the reason", async () => {
    const { referrer, friend } = await pair();
    const bought = await buy(friend.id, 3_000);
    await refund(bought.purchase.id, 500);
    for (const id of [referrer.id, friend.id]) {
      expect(await couponsOf(id)).toMatchObject([{ status: "revoked", revokedReason: "referral_refund" }]);
      expect(await wallet(id)).toMatchObject([{ state: "revoked", revokedReason: "referral_refund" }]);
    }
    const [row] = await db.select().from(referral).where(eq(referral.friendId, friend.id));
    expect(row?.state).toBe("reversed");
    // A second refund revokes nothing more (one audit row).
    await refund(bought.purchase.id, 500);
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "referral.reversed"), eq(auditLog.targetId, row?.id ?? "")));
    expect(audits).toHaveLength(1);
    expect(changed(audits[0], "revokedCouponIds")).toHaveLength(2);
    // A revoked coupon cannot be used at the till nor cancelled.
    const [revoked] = await couponsOf(referrer.id);
    await expect(useCoupon(db, { code: revoked?.code ?? "", storeId: "S01" }, t0)).rejects.toMatchObject({
      code: "coupon_revoked",
    });
    await expect(cancelCoupon(db, { couponId: revoked?.id ?? "" }, t0)).rejects.toMatchObject({
      code: "coupon_revoked",
    });
    expect((await checkLedger(db)).mismatches).toEqual([]);
  });

  it("a coupon used before the refund stays used, nothing more is taken; the unused one is revoked", async () => {
    const { referrer, friend } = await pair();
    const bought = await buy(friend.id, 3_000);
    const [mine] = await couponsOf(referrer.id);
    await useCoupon(db, { code: mine?.code ?? "", storeId: "S01" }, t0);
    const balanceBefore = (await ledgerTotals(db, referrer.id)).balance;
    await refund(bought.purchase.id, 3_000);
    expect(await couponsOf(referrer.id)).toMatchObject([{ status: "used", revokedReason: null }]);
    expect(await couponsOf(friend.id)).toMatchObject([{ status: "revoked" }]);
    expect((await ledgerTotals(db, referrer.id)).balance).toBe(balanceBefore);
    const reversals = await db
      .select()
      .from(pointEntry)
      .where(and(eq(pointEntry.memberId, referrer.id), eq(pointEntry.kind, "referral-reversal")));
    expect(reversals).toEqual([]);
    const [row] = await db.select().from(referral).where(eq(referral.friendId, friend.id));
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "referral.reversed"), eq(auditLog.targetId, row?.id ?? "")));
    expect(changed(audit, "usedCouponIdsKept")).toEqual([mine?.id]);
    expect(changed(audit, "revokedCouponIds")).toHaveLength(1);
  });

  it("a refund after the window revokes nothing", async () => {
    const { referrer, friend } = await pair();
    const bought = await buy(friend.id, 3_000);
    await refund(bought.purchase.id, 3_000, new Date(t0.getTime() + 31 * 86_400_000));
    expect(await couponsOf(referrer.id)).toMatchObject([{ status: "issued" }]);
  });

  it("a reward whose validity has ended gives the rule's points instead", async () => {
    const [ended] = await db
      .insert(reward)
      .values({ name: "過期禮", kind: "gift", pointsCost: 100, validUntil: new Date(t0.getTime() - 1000) })
      .returning();
    const at = new Date(t0.getTime() + 2 * 86_400_000);
    await changeRules(db, { referralRewardId: ended?.id ?? null }, new Date(at.getTime() - 1000));
    try {
      const { referrer, friend } = await pair();
      await buy(friend.id, 3_000, at);
      expect(await couponsOf(referrer.id)).toEqual([]);
      expect((await ledgerTotals(db, referrer.id)).balance).toBe(300);
      const [row] = await db.select().from(referral).where(eq(referral.friendId, friend.id));
      expect(row).toMatchObject({ state: "rewarded", rewardKind: "points", points: 300 });
    } finally {
      await changeRules(db, { referralRewardId: rewardId }, new Date(at.getTime() - 500));
    }
  });

  it("a referral's coupon does not count toward the reward's per-member limit; a redeemed one does", async () => {
    await db.update(reward).set({ perMemberLimit: 1 }).where(eq(reward.id, rewardId));
    try {
      const { friend } = await pair();
      await buy(friend.id, 3_000);
      await buy(friend.id, 60_000);
      expect(await couponsOf(friend.id)).toMatchObject([{ referralId: expect.any(String) }]);
      const before = await memberCenterSummary(db, friend.id, t0, { fresh: true });
      expect(before.rewards.find((r) => r.id === rewardId)?.blocked).toBeNull();
      const first = await redeemReward(db, { memberId: friend.id, rewardId, idempotencyKey: "limit-1" }, t0);
      expect(first.coupon).toMatchObject({ referralId: null, pointsCost: 500 });
      const after = await memberCenterSummary(db, friend.id, t0, { fresh: true });
      expect(after.rewards.find((r) => r.id === rewardId)?.blocked).toBe("limit");
      await expect(
        redeemReward(db, { memberId: friend.id, rewardId, idempotencyKey: "limit-2" }, t0),
      ).rejects.toMatchObject({ code: "limit_reached" });
    } finally {
      await db.update(reward).set({ perMemberLimit: null }).where(eq(reward.id, rewardId));
    }
  });

  it("the impact preview counts coupons when the reward is a coupon, points when it is points", async () => {
    const at = new Date(t0.getTime() + 3 * 86_400_000);
    const asCoupon = await referralImpact(db, {}, at);
    expect(asCoupon.rewardCurrent).toBe("推薦禮 NT$200 折價券");
    expect(asCoupon.couponsCurrent).toBe(asCoupon.rewardedCurrent * 2);
    expect(asCoupon.pointsCurrent).toBe(0);
    const asPoints = await referralImpact(db, { referralRewardKind: "points", referralRewardId: null }, at);
    expect(asPoints.rewardProposed).toBeNull();
    expect(asPoints.couponsProposed).toBe(0);
    expect(asPoints.pointsProposed).toBe(asPoints.rewardedProposed * 600);
    expect(
      await referralRewardTerms(db, { referralRewardKind: "points", referralRewardId: null, referralPoints: 5 }),
    ).toEqual({ kind: "points", points: 5 });
  });

  it("the reward reports count a revoked coupon apart, on its day, live and rebuilt; the reward's counts too; 兌換張數 only redemptions", async () => {
    // A reward of its own, chosen from a later day on, so this test's coupons are the only ones counted.
    const later = new Date(t0.getTime() + 30 * 86_400_000);
    const [own] = await db
      .insert(reward)
      .values({ name: "報表禮", kind: "gift", pointsCost: 300, couponValidDays: 30 })
      .returning();
    const ownId = own?.id ?? "";
    await changeRules(db, { referralRewardKind: "coupon", referralRewardId: ownId }, later);
    const { friend } = await pair();
    const bought = await buy(friend.id, 3_000, new Date(later.getTime() + 3600_000));
    await refund(bought.purchase.id, 3_000, new Date(later.getTime() + 86_400_000 + 3600_000));
    const day = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    const from = day(later);
    const to = day(new Date(later.getTime() + 2 * 86_400_000));
    const input = { from, to, today: to, now: new Date(later.getTime() + 2 * 86_400_000), scope: { kind: "all" } };
    const rewardsNow = async () =>
      (await loadDashboard(db, input as Parameters<typeof loadDashboard>[1])).rewards.filter(
        (r) => r.rewardId === ownId,
      );
    // A member who redeems the same reward with points (NT$30,000 earns 300 points): the one redemption.
    const buyer = await newMember(db);
    await buy(buyer.id, 30_000, new Date(later.getTime() + 3600_000));
    await redeemReward(
      db,
      { memberId: buyer.id, rewardId: ownId, idempotencyKey: "report-redeem" },
      new Date(later.getTime() + 2 * 3600_000),
    );
    // 兌換張數 (issued) counts the redemption, not the referral's two gifts (isRedemption decides; ADR 058 Later);
    // the gifts' revocation is still counted in its own column.
    const coupons = await db.select().from(coupon).where(eq(coupon.rewardId, ownId));
    expect(coupons).toHaveLength(3);
    const redemptions = coupons.filter(isRedemption).length;
    expect(redemptions).toBe(1);
    const expected = [
      { rewardId: ownId, name: "報表禮", issued: redemptions, used: 0, cancelled: 0, revoked: 2, points: 300 },
    ];
    expect(await rewardsNow()).toEqual(expected);
    await db.execute(sql`select report_rebuild()`);
    expect(await rewardsNow()).toEqual(expected);
    // Revoked on the refund's day, not on the issue's.
    const days = rowsOf<{ day: string }>(
      await db.execute(
        sql`select day::text as day from report_reward_day where reward_id = ${ownId}::uuid and revoked > 0`,
      ),
    );
    expect(days.map((d) => d.day)).toEqual([day(new Date(later.getTime() + 86_400_000))]);
    expect(await stockHistory(db, ownId)).toMatchObject({ issued: 1, used: 0, cancelled: 0, revoked: 2 });
  });
});
