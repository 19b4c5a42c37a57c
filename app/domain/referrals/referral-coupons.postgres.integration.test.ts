import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, coupon, referral, reward } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPurchase, refundPurchase } from "../loyalty/purchases.server";
import { changeRules } from "../loyalty/rules.server";
import { newMember } from "../loyalty/testing.server";
import { linkReferral } from "./referrals.server";

/**
 * The coupon reward's races on PostgreSQL (ADR 053), two handles standing in for two app instances: two qualifying
 * purchases at once issue the coupons once; two refunds of the qualifying purchase at once revoke them once.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("referral_coupons_race", (pair) => {
  ({ one, two } = pair);
});

let receipt = 0;
const buy = (handle: DatabaseHandle, memberId: string, netAmount: number) =>
  recordPurchase(handle.db, {
    memberId,
    storeId: "S01",
    receiptNumber: `RCR-${++receipt}`,
    netAmount,
    purchasedAt: new Date(),
  });

async function pair() {
  const referrer = await newMember(one.db);
  const friend = await newMember(one.db);
  const linked = await one.db.transaction((tx) =>
    linkReferral(tx, { friendId: friend.id, code: referrer.referralCode }),
  );
  expect(linked.linked).toBe(true);
  return { referrer, friend };
}

const couponsOf = (memberId: string) => one.db.select().from(coupon).where(eq(coupon.memberId, memberId));

beforeAll(async () => {
  const [created] = await one.db.insert(reward).values({ name: "推薦禮", kind: "gift", pointsCost: 100 }).returning();
  await changeRules(
    one.db,
    { referralRewardKind: "coupon", referralRewardId: created?.id ?? null },
    new Date(Date.now() - 1000),
  );
});

describe("referral coupon races on PostgreSQL", () => {
  it("two qualifying purchases at once over two instances: the coupons are issued once", {
    timeout: 60_000,
  }, async () => {
    for (let round = 0; round < 5; round++) {
      const { referrer, friend } = await pair();
      await Promise.all([buy(one, friend.id, 3_000), buy(two, friend.id, 3_000)]);
      expect(await couponsOf(referrer.id)).toHaveLength(1);
      expect(await couponsOf(friend.id)).toHaveLength(1);
      const rows = await one.db.select().from(referral).where(eq(referral.friendId, friend.id));
      expect(rows).toMatchObject([{ state: "rewarded", rewardKind: "coupon" }]);
    }
  });

  it("two refunds of the qualifying purchase at once: revoked once, one reversal audited", {
    timeout: 60_000,
  }, async () => {
    for (let round = 0; round < 5; round++) {
      const { referrer, friend } = await pair();
      const bought = await buy(one, friend.id, 4_000);
      const refund = (handle: DatabaseHandle, key: string) =>
        refundPurchase(handle.db, { purchaseId: bought.purchase.id, amount: 1_000, idempotencyKey: key });
      await Promise.all([refund(one, `rcr-a-${round}-${receipt}`), refund(two, `rcr-b-${round}-${receipt}`)]);
      for (const id of [referrer.id, friend.id]) {
        expect(await couponsOf(id)).toMatchObject([{ status: "revoked", revokedReason: "referral_refund" }]);
      }
      const [row] = await one.db.select().from(referral).where(eq(referral.friendId, friend.id));
      expect(row?.state).toBe("reversed");
      const audits = await one.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "referral.reversed"), eq(auditLog.targetId, row?.id ?? "")));
      expect(audits).toHaveLength(1);
      expect(audits[0]?.changes?.revokedCouponIds?.after).toHaveLength(2);
    }
  });
});
