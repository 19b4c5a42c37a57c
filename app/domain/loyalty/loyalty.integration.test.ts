import { randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import { loyaltyAccount, reward, tierChange } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { issueCardToken, resolveCardToken } from "./card-tokens.server";
import { LoyaltyError } from "./errors";
import {
  adjustPoints,
  expirePoints,
  grantBirthdayPoints,
  grantWelcomePoints,
  memberPoints,
  pointsExpiringSoon,
} from "./points.server";
import { recordPurchase, refundPurchase } from "./purchases.server";
import { cancelCoupon, redeemReward, useCoupon } from "./rewards.server";
import { changeRules } from "./rules.server";
import { ledgerTotals, newMember } from "./testing.server";
import { evaluateTiers, tierProgress } from "./tiers.server";

let db: Database;
useMigratedTestDatabase("loyalty", (handle) => {
  db = handle.db;
});

async function checkInvariants(memberId: string) {
  const { balance, ledgerSum, lotsRemaining } = await ledgerTotals(db, memberId);
  expect(ledgerSum).toBe(balance);
  expect(lotsRemaining).toBe(Math.max(0, balance));
  return balance;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LoyaltyError) return error.code;
    throw error;
  }
  throw new Error("expected a LoyaltyError");
}

const t0 = new Date("2026-03-10T04:00:00Z");

describe("purchases and refunds", () => {
  it("earns points once per receipt, upgrades on the crossing purchase and reverses refunds proportionally", async () => {
    const m = await newMember(db);
    const first = await recordPurchase(
      db,
      { memberId: m.id, storeId: "S01", receiptNumber: "R-1", netAmount: 12_345, purchasedAt: t0 },
      t0,
    );
    expect(first).toMatchObject({ pointsEarned: 123, balance: 123, tier: "basic", replayed: false });
    const again = await recordPurchase(
      db,
      { memberId: m.id, storeId: "S01", receiptNumber: "R-1", netAmount: 12_345, purchasedAt: t0 },
      t0,
    );
    expect(again).toMatchObject({ pointsEarned: 123, balance: 123, replayed: true });
    expect(
      await refusal(
        recordPurchase(
          db,
          { memberId: m.id, storeId: "S01", receiptNumber: "R-1", netAmount: 999, purchasedAt: t0 },
          t0,
        ),
      ),
    ).toBe("receipt_conflict");

    // NT$40,000 more crosses silver (50,000): earned at basic, upgraded at once.
    const crossing = await recordPurchase(
      db,
      { memberId: m.id, storeId: "S01", receiptNumber: "R-2", netAmount: 40_000, purchasedAt: t0 },
      t0,
    );
    expect(crossing).toMatchObject({ pointsEarned: 400, tier: "silver" });
    const changes = await db.select().from(tierChange).where(eq(tierChange.memberId, m.id));
    expect(changes).toMatchObject([{ fromTier: "basic", toTier: "silver", spend12Months: 52_345 }]);
    const third = await recordPurchase(
      db,
      { memberId: m.id, storeId: "S02", receiptNumber: "R-1", netAmount: 10_000, purchasedAt: t0 },
      t0,
    );
    expect(third.pointsEarned).toBe(120);

    // Half of R-2 refunded: 200 points back; a retry with the same key books nothing.
    const half = await refundPurchase(
      db,
      { purchaseId: crossing.purchase.id, amount: 20_000, idempotencyKey: "rf-1" },
      t0,
    );
    expect(half).toMatchObject({ pointsReversed: 200, balance: 443, replayed: false });
    expect(
      await refundPurchase(db, { purchaseId: crossing.purchase.id, amount: 20_000, idempotencyKey: "rf-1" }, t0),
    ).toMatchObject({ pointsReversed: 200, balance: 443, replayed: true });
    expect(
      await refusal(
        refundPurchase(db, { purchaseId: crossing.purchase.id, amount: 20_001, idempotencyKey: "rf-2" }, t0),
      ),
    ).toBe("refund_exceeds_purchase");
    expect(await refusal(refundPurchase(db, { purchaseId: randomUUID(), amount: 1, idempotencyKey: "rf-3" }, t0))).toBe(
      "purchase_not_found",
    );
    const rest = await refundPurchase(
      db,
      { purchaseId: crossing.purchase.id, amount: 20_000, idempotencyKey: "rf-4" },
      t0,
    );
    expect(rest.pointsReversed).toBe(200);
    expect(await checkInvariants(m.id)).toBe(243);
  });

  it("refuses bad amounts and disabled or unknown members, booking nothing", async () => {
    const m = await newMember(db);
    const base = { memberId: m.id, storeId: "S01", receiptNumber: "BAD", purchasedAt: t0 };
    for (const netAmount of [0, -5, 1.5, Number.NaN, 1e12, "100" as unknown as number]) {
      expect(await refusal(recordPurchase(db, { ...base, netAmount }, t0))).toBe("invalid_amount");
    }
    const disabled = await newMember(db, { disabled: true });
    expect(await refusal(recordPurchase(db, { ...base, memberId: disabled.id, netAmount: 100 }, t0))).toBe(
      "member_disabled",
    );
    expect(await refusal(recordPurchase(db, { ...base, memberId: randomUUID(), netAmount: 100 }, t0))).toBe(
      "member_not_found",
    );
    expect((await memberPoints(db, m.id)).entries).toHaveLength(0);
  });

  it("refuses purchases older than the booking window (90 days unless configured), but still replays a booked receipt", async () => {
    const m = await newMember(db);
    const day = 86_400_000;
    const at = (daysAgo: number) => new Date(t0.getTime() - daysAgo * day);
    const base = { memberId: m.id, storeId: "S-WIN", netAmount: 1_000 };
    expect(await refusal(recordPurchase(db, { ...base, receiptNumber: "W-1970", purchasedAt: new Date(0) }, t0))).toBe(
      "purchase_too_old",
    );
    expect(await refusal(recordPurchase(db, { ...base, receiptNumber: "W-91", purchasedAt: at(91) }, t0))).toBe(
      "purchase_too_old",
    );
    const edge = await recordPurchase(db, { ...base, receiptNumber: "W-90", purchasedAt: at(90) }, t0);
    expect(edge.pointsEarned).toBe(10);
    // A shorter window from the configuration.
    expect(
      await refusal(recordPurchase(db, { ...base, receiptNumber: "W-8", purchasedAt: at(8) }, t0, { windowDays: 7 })),
    ).toBe("purchase_too_old");
    // The booked receipt, retried after its window closed, is still the same purchase.
    const later = new Date(t0.getTime() + 30 * day);
    const retry = await recordPurchase(db, { ...base, receiptNumber: "W-90", purchasedAt: at(90) }, later);
    expect(retry).toMatchObject({ replayed: true, pointsEarned: 10 });
    expect(await checkInvariants(m.id)).toBe(10);
  });

  it("lets only a refund take the balance below zero, flagged, and pays the debt from the next points", async () => {
    const m = await newMember(db);
    await db.insert(reward).values({ id: randomUUID(), name: "x", kind: "gift", pointsCost: 100 });
    const p = await recordPurchase(
      db,
      { memberId: m.id, storeId: "S01", receiptNumber: "NEG-1", netAmount: 10_000, purchasedAt: t0 },
      t0,
    );
    await adjustPoints(db, { memberId: m.id, amount: -80, reason: "spent at counter", idempotencyKey: "a1" }, t0);
    const refund = await refundPurchase(db, { purchaseId: p.purchase.id, amount: 10_000, idempotencyKey: "neg" }, t0);
    expect(refund).toMatchObject({ balance: -80, negative: true });
    const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
    expect(account?.negativeSince).not.toBeNull();
    await checkInvariants(m.id);
    await recordPurchase(
      db,
      { memberId: m.id, storeId: "S01", receiptNumber: "NEG-2", netAmount: 10_000, purchasedAt: t0 },
      t0,
    );
    expect(await checkInvariants(m.id)).toBe(20);
  });
});

describe("rewards and coupons", () => {
  it("redeems FIFO by expiry, issues a unique coupon once, uses it once, cancels with points back", async () => {
    const m = await newMember(db);
    const rewardId = randomUUID();
    await db.insert(reward).values({
      id: rewardId,
      name: "NT$100 off",
      kind: "amount-off",
      amountOff: 100,
      pointsCost: 150,
      stock: 2,
      perMemberLimit: 5,
      storeIds: ["S01"],
    });
    expect(await refusal(redeemReward(db, { memberId: m.id, rewardId, idempotencyKey: "k0" }, t0))).toBe(
      "insufficient_points",
    );
    // 100 points earned in 2026 (expire end of 2027), 100 in 2027 (expire end of 2028).
    await adjustPoints(db, { memberId: m.id, amount: 100, reason: "goodwill", idempotencyKey: "g1" }, t0);
    const t1 = new Date("2027-02-01T04:00:00Z");
    await adjustPoints(db, { memberId: m.id, amount: 100, reason: "goodwill", idempotencyKey: "g2" }, t1);
    const first = await redeemReward(db, { memberId: m.id, rewardId, idempotencyKey: "k1" }, t1);
    expect(first.balance).toBe(50);
    expect(first.coupon.code).toMatch(/^[A-Z2-9]{26}$/);
    expect(await redeemReward(db, { memberId: m.id, rewardId, idempotencyKey: "k1" }, t1)).toMatchObject({
      replayed: true,
      coupon: { id: first.coupon.id },
    });
    expect(await pointsExpiringSoon(db, m.id, t1)).toEqual([
      { expiresAt: new Date("2028-12-31T16:00:00Z"), points: 50 },
    ]);

    expect(await refusal(useCoupon(db, { code: first.coupon.code, storeId: "S02" }, t1))).toBe("coupon_wrong_store");
    expect(await refusal(useCoupon(db, { code: "NOPE", storeId: "S01" }, t1))).toBe("coupon_not_found");
    const used = await useCoupon(db, { code: first.coupon.code.toLowerCase(), storeId: "S01" }, t1);
    expect(used.status).toBe("used");
    expect(await refusal(useCoupon(db, { code: first.coupon.code, storeId: "S01" }, t1))).toBe("coupon_used");
    expect(await refusal(cancelCoupon(db, { couponId: first.coupon.id }, t1))).toBe("coupon_used");

    await adjustPoints(db, { memberId: m.id, amount: 200, reason: "goodwill", idempotencyKey: "g3" }, t1);
    const second = await redeemReward(db, { memberId: m.id, rewardId, idempotencyKey: "k2" }, t1);
    expect(await refusal(redeemReward(db, { memberId: m.id, rewardId, idempotencyKey: "k3" }, t1))).toBe(
      "out_of_stock",
    );
    const cancelled = await cancelCoupon(db, { couponId: second.coupon.id }, t1);
    expect(cancelled).toMatchObject({ balance: 250, replayed: false });
    expect((await cancelCoupon(db, { couponId: second.coupon.id }, t1)).replayed).toBe(true);
    expect(await refusal(useCoupon(db, { code: second.coupon.code, storeId: "S01" }, t1))).toBe("coupon_cancelled");
    const late = await redeemReward(db, { memberId: m.id, rewardId, idempotencyKey: "k4" }, t1);
    expect(
      await refusal(useCoupon(db, { code: late.coupon.code, storeId: "S01" }, new Date("2027-06-01T00:00:00Z"))),
    ).toBe("coupon_expired");
    // An expired coupon gives no points back (the member center shows it as expired).
    const balance = (await memberPoints(db, m.id)).balance;
    expect(await refusal(cancelCoupon(db, { couponId: late.coupon.id }, new Date("2027-06-01T00:00:00Z")))).toBe(
      "coupon_expired",
    );
    expect((await memberPoints(db, m.id)).balance).toBe(balance);
    await checkInvariants(m.id);
  });
});

describe("expiry, tiers, welcome and birthday points", () => {
  it("expires lots once at the end of the following year", async () => {
    const m = await newMember(db);
    await adjustPoints(db, { memberId: m.id, amount: 300, reason: "x", idempotencyKey: "e1" }, t0);
    expect(await expirePoints(db, new Date("2027-12-31T15:59:59Z"))).toMatchObject({ points: 0 });
    const after = new Date("2027-12-31T16:00:00Z");
    const result = await expirePoints(db, after);
    expect(result.points).toBeGreaterThanOrEqual(300);
    expect((await expirePoints(db, after)).points).toBe(0);
    expect(await checkInvariants(m.id)).toBe(0);
  });

  it("grants welcome points once, birthday points once a year, and follows rule changes", async () => {
    const m = await newMember(db, { birthday: "1990-03-15" });
    expect((await grantWelcomePoints(db, m.id, t0))?.amount).toBe(100);
    expect((await grantWelcomePoints(db, m.id, t0))?.amount).toBe(100);
    expect((await grantBirthdayPoints(db, t0)).granted).toBeGreaterThanOrEqual(1);
    expect((await grantBirthdayPoints(db, t0)).granted).toBe(0);
    expect(await checkInvariants(m.id)).toBe(300);
    const later = new Date(t0.getTime() + 1000);
    await changeRules(db, { welcomeEnabled: false }, later);
    const other = await newMember(db);
    expect(await grantWelcomePoints(db, other.id, later)).toBeNull();
  });

  it("reports tier progress and downgrades in the nightly evaluation at most once a year", async () => {
    const m = await newMember(db);
    await recordPurchase(
      db,
      { memberId: m.id, storeId: "S09", receiptNumber: "T-1", netAmount: 210_000, purchasedAt: t0 },
      t0,
    );
    expect(await tierProgress(db, m.id, t0)).toMatchObject({ tier: "gold", next: null });
    // 13 months later nothing counts any more: gold → basic, once.
    const later = new Date("2027-04-20T04:00:00Z");
    expect(await tierProgress(db, m.id, later)).toMatchObject({ spend12Months: 0 });
    const evaluated = await evaluateTiers(db, later);
    expect(evaluated.downgraded).toBeGreaterThanOrEqual(1);
    const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
    expect(account?.tier).toBe("basic");
    const fresh = await newMember(db);
    await recordPurchase(
      db,
      { memberId: fresh.id, storeId: "S09", receiptNumber: "T-2", netAmount: 20_000, purchasedAt: t0 },
      t0,
    );
    expect(await tierProgress(db, fresh.id, t0)).toMatchObject({
      tier: "basic",
      spend12Months: 20_000,
      next: { tier: "silver", amountNeeded: 30_000 },
    });
  });
});

describe("member card tokens", () => {
  it("resolves a fresh token to the member and refuses expired ones and disabled members", async () => {
    const secret = "k".repeat(40);
    const m = await newMember(db);
    const { token } = issueCardToken(secret, m.id, t0);
    expect(await resolveCardToken(db, secret, token, t0)).toMatchObject({ ok: true, member: { id: m.id } });
    expect(await resolveCardToken(db, secret, token, new Date(t0.getTime() + 60_000))).toEqual({
      ok: false,
      reason: "expired",
    });
    const d = await newMember(db, { disabled: true });
    expect(await resolveCardToken(db, secret, issueCardToken(secret, d.id, t0).token, t0)).toEqual({
      ok: false,
      reason: "member_disabled",
    });
  });
});
