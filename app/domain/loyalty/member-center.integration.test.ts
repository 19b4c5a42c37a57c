import { type Database, type DatabaseHandle, openDatabase } from "@platform/db/client";
import { member, reward } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "../demo";
import { bookHistory, DEMO_REWARDS, realisticHistory } from "../demo/member-history";
import { couponCodeForMember, memberCenterSummary, pointsHistory } from "./member-center.server";
import { recordPurchase } from "./purchases.server";
import { redeemReward } from "./rewards.server";
import { ledgerTotals, newMember } from "./testing.server";

let testDb: TestDatabase;
let database: DatabaseHandle;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "member-center", migrated: true });
  database = await openDatabase(testDb.config);
  await database.migrate();
  db = database.db;
  await seedCatalog(db);
});

afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

// 2026-11-25 10:15 in Taipei.
const now = new Date("2026-11-25T02:15:00Z");

describe("memberCenterSummary", () => {
  it("shows the balance, the soonest expiry, tier progress, coupons by state and recent activity", async () => {
    const m = await newMember(db);
    const [gift] = await db
      .insert(reward)
      .values({ name: "咖啡禮", kind: "gift", pointsCost: 100, perMemberLimit: 1, couponValidDays: 30 })
      .returning();
    // Earned in 2025 (expires at the end of 2026) and in 2026 (end of 2027).
    await recordPurchase(
      db,
      {
        memberId: m.id,
        storeId: "xinyi-flagship",
        receiptNumber: "MC-1",
        netAmount: 32_000,
        purchasedAt: new Date("2025-12-10T04:00:00Z"),
      },
      new Date("2025-12-10T04:00:00Z"),
    );
    await recordPurchase(
      db,
      {
        memberId: m.id,
        storeId: "banqiao",
        receiptNumber: "MC-2",
        netAmount: 8_000,
        purchasedAt: new Date("2026-06-01T04:00:00Z"),
      },
      new Date("2026-06-01T04:00:00Z"),
    );
    // Redeemed in September with 30 days of validity: expired by now; spends the 2025 lot first.
    await redeemReward(
      db,
      { memberId: m.id, rewardId: gift!.id, idempotencyKey: "k1" },
      new Date("2026-09-01T04:00:00Z"),
    );

    const s = await memberCenterSummary(db, m.id, now);
    expect(s.balance).toBe(320 + 80 - 100);
    expect(s.balance).toBe((await ledgerTotals(db, m.id)).balance);
    expect(s.expiring).toEqual({ points: 220, expiresAt: new Date("2026-12-31T16:00:00Z") });
    expect(s.tier).toBe("basic");
    expect(s.spend12Months).toBe(40_000);
    // NT$50,000 for silver; the oldest counted purchase (2025-12-10) stops counting on 2026-12-10
    // (Taipei), so "by" is the start of that day and the last day to spend is 2026-12-09.
    expect(s.next).toMatchObject({ tier: "silver", threshold: 50_000, amountNeeded: 10_000 });
    expect(s.next?.by.toISOString()).toBe("2026-12-09T16:00:00.000Z");
    expect(s.coupons).toHaveLength(1);
    expect(s.coupons[0]).toMatchObject({ state: "expired", rewardName: "咖啡禮" });
    // The gift's per-member limit is reached; the demo rewards are blocked by points or open.
    expect(s.rewards.find((r) => r.id === gift!.id)?.blocked).toBe("limit");
    expect(s.rewards.find((r) => r.pointsCost === 100 && r.id !== gift!.id)?.blocked).toBeNull();
    expect(s.rewards.find((r) => r.pointsCost === 450)?.blocked).toBe("points");
    expect(s.activity.map((a) => a.kind)).toEqual(["redeem", "earn-purchase", "earn-purchase"]);
    expect(s.activity[1]?.purchase).toMatchObject({ netAmount: 8_000, receiptNumber: "MC-2" });
    expect(s.activity[1]?.purchase?.storeName?.["zh-TW"]).toBeTruthy();
  });

  it("answers a member without any history", async () => {
    const m = await newMember(db);
    const s = await memberCenterSummary(db, m.id, now);
    expect(s).toMatchObject({ balance: 0, tier: "basic", expiring: null, spend12Months: 0, coupons: [], activity: [] });
    expect(s.next).toMatchObject({ tier: "silver", amountNeeded: 50_000 });
  });

  it("books a realistic history (200 entries, 10 coupons) consistent with the ledger, tier synced to the member row", async () => {
    const m = await newMember(db);
    await bookHistory(db, m.id, realisticHistory(now, { entries: 200, coupons: 10 }));
    const s = await memberCenterSummary(db, m.id, now);
    const totals = await ledgerTotals(db, m.id);
    expect(s.balance).toBe(totals.ledgerSum);
    expect(s.coupons).toHaveLength(10);
    expect(new Set(s.coupons.map((c) => c.state))).toEqual(new Set(["used", "expired", "unused"]));
    expect(s.activity).toHaveLength(8);
    expect(s.favourites.length).toBeGreaterThan(0);
    const history = await pointsHistory(db, m.id, 1);
    expect(history.entries).toHaveLength(30);
    expect(history.hasMore).toBe(true);
    const [row] = await db.select({ level: member.memberLevel }).from(member).where(eq(member.id, m.id));
    expect(row?.level).toBe(s.tier);
    expect(s.tier).not.toBe("basic");
  });
});

describe("couponCodeForMember", () => {
  it("gives a coupon's code to its owner only", async () => {
    const owner = await newMember(db);
    const other = await newMember(db);
    await recordPurchase(
      db,
      { memberId: owner.id, storeId: "banqiao", receiptNumber: "MC-3", netAmount: 20_000, purchasedAt: now },
      now,
    );
    const { coupon } = await redeemReward(
      db,
      { memberId: owner.id, rewardId: DEMO_REWARDS[0]!.id, idempotencyKey: "own" },
      now,
    );
    expect(await couponCodeForMember(db, owner.id, coupon.id)).toBe(coupon.code);
    expect(await couponCodeForMember(db, other.id, coupon.id)).toBeNull();
    expect(await couponCodeForMember(db, owner.id, "not-a-uuid")).toBeNull();
  });
});
