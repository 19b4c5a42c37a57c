import type { DatabaseHandle } from "@platform/db/client";
import { coupon, reward } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AuditContext } from "../audit/audit.server";
import { LoyaltyError } from "../loyalty/errors";
import { adjustPoints } from "../loyalty/points.server";
import { redeemReward } from "../loyalty/rewards.server";
import { newMember } from "../loyalty/testing.server";
import type { StaffActor } from "../staff/actor";
import { adjustStock, createReward } from "./rewards.server";

/**
 * A reward made in the console, its last 3 in stock, 20 members redeeming at once over two instances
 * (PostgreSQL only: PGlite has one connection): exactly 3 coupons, the stock at 0, never below; a
 * stock adjustment racing the redemptions adds up with them instead of overwriting.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
const actor: StaffActor = {
  userId: "admin-test",
  role: "admin",
  displayName: "Admin",
  storeIds: [],
  currentStoreId: null,
  sessionId: "s",
  secondFactorAt: new Date(),
};
const audit: AuditContext = {
  actorType: "staff",
  userId: "admin-test",
  role: "admin",
  storeId: null,
  ip: null,
  userAgent: null,
  requestId: null,
};

useTwoPostgresInstances("programme_stock", (pair) => {
  ({ one, two } = pair);
});

const fields = {
  name: "最後三個",
  kind: "gift" as const,
  amountOff: null,
  pointsCost: 100,
  perMemberLimit: 1,
  validFrom: null,
  validUntil: null,
  storeIds: null,
  couponValidDays: 30,
  image: null,
  imageId: null,
};

async function redeemers(n: number) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const m = await newMember(one.db);
      await adjustPoints(one.db, { memberId: m.id, amount: 500, reason: "seed", idempotencyKey: `seed-${m.id}-${i}` });
      return m.id;
    }),
  );
}

function redeemAll(memberIds: string[], rewardId: string) {
  return memberIds.map((memberId, i) =>
    redeemReward((i % 2 ? two : one).db, { memberId, rewardId, idempotencyKey: `race-${i}` }).then(
      () => "ok" as const,
      (error: unknown) => {
        if (error instanceof LoyaltyError && error.code === "out_of_stock") return "out" as const;
        throw error;
      },
    ),
  );
}

describe("reward stock under concurrency (PostgreSQL)", () => {
  it("20 simultaneous redemptions of the last 3 in stock: exactly 3 succeed", { timeout: 120_000 }, async () => {
    const created = await createReward(one.db, actor, { ...fields, stock: 3 }, audit);
    const results = await Promise.all(redeemAll(await redeemers(20), created.id));
    expect(results.filter((r) => r === "ok")).toHaveLength(3);
    expect(results.filter((r) => r === "out")).toHaveLength(17);
    const [row] = await one.db.select().from(reward).where(eq(reward.id, created.id));
    expect(row?.stock).toBe(0);
    expect(await one.db.select().from(coupon).where(eq(coupon.rewardId, created.id))).toHaveLength(3);
  });

  it("a stock adjustment racing redemptions adds up with them", { timeout: 120_000 }, async () => {
    const created = await createReward(one.db, actor, { ...fields, name: "補貨競賽", stock: 10 }, audit);
    const members = await redeemers(8);
    const [adjusted, ...results] = await Promise.all([
      adjustStock(two.db, actor, created.id, { kind: "delta", delta: 5 }, "補貨", audit),
      ...redeemAll(members, created.id),
    ]);
    expect(adjusted.id).toBe(created.id);
    expect(results.every((r) => r === "ok")).toBe(true);
    const [row] = await one.db.select().from(reward).where(eq(reward.id, created.id));
    expect(row?.stock).toBe(10 + 5 - 8);
  });
});
