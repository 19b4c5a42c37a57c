import type { DatabaseHandle } from "@platform/db/client";
import { pointEntry, referral } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordPurchase } from "../loyalty/purchases.server";
import { changeRules } from "../loyalty/rules.server";
import { ledgerTotals, newMember } from "../loyalty/testing.server";
import { linkReferral } from "./referrals.server";

/**
 * Referral races on PostgreSQL (issue 38, ADR 053), two handles standing in for two app instances: two qualifying
 * purchases at once give one reward; friends buying at once at the monthly limit get exactly the limit's rewards.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("referrals_race", (pair) => {
  ({ one, two } = pair);
});

let receipt = 0;
const buy = (handle: DatabaseHandle, memberId: string, netAmount: number) =>
  recordPurchase(handle.db, {
    memberId,
    storeId: "S01",
    receiptNumber: `RR-${++receipt}`,
    netAmount,
    purchasedAt: new Date(),
  });

const link = (friendId: string, code: string) => one.db.transaction((tx) => linkReferral(tx, { friendId, code }));

describe("referral races on PostgreSQL", () => {
  it("two qualifying purchases at once over two instances: one reward", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 5; round++) {
      const referrer = await newMember(one.db);
      const friend = await newMember(one.db);
      expect((await link(friend.id, referrer.referralCode)).linked).toBe(true);
      await Promise.all([buy(one, friend.id, 3_000), buy(two, friend.id, 3_000)]);
      const rewards = await one.db
        .select()
        .from(pointEntry)
        .where(and(eq(pointEntry.kind, "referral"), eq(pointEntry.memberId, referrer.id)));
      expect(rewards).toHaveLength(1);
      const totals = await ledgerTotals(one.db, referrer.id);
      expect(totals).toEqual({ balance: 300, ledgerSum: 300, lotsRemaining: 300 });
      const friendTotals = await ledgerTotals(one.db, friend.id);
      expect(friendTotals.balance).toBe(300 + 30 + 30);
    }
  });

  it("the monthly limit holds with simultaneous purchases of many friends", { timeout: 60_000 }, async () => {
    await changeRules(one.db, { referralMonthlyCap: 3 }, new Date(Date.now() - 1000));
    const referrer = await newMember(one.db);
    const friends = await Promise.all(Array.from({ length: 8 }, () => newMember(one.db)));
    for (const f of friends) await link(f.id, referrer.referralCode);
    await Promise.all(friends.map((f, i) => buy(i % 2 === 0 ? one : two, f.id, 3_000)));
    const rows = await one.db.select().from(referral).where(eq(referral.referrerId, referrer.id));
    expect(rows.filter((r) => r.state === "rewarded")).toHaveLength(3);
    expect(rows.filter((r) => r.state === "capped")).toHaveLength(5);
    const totals = await ledgerTotals(one.db, referrer.id);
    expect(totals).toEqual({ balance: 900, ledgerSum: 900, lotsRemaining: 900 });
  });
});
