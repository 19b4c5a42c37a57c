import { type Database, rowsOf } from "@platform/db/client";
import { loyaltyAccount, memberLastStore } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MEMBER_PAGE_SIZE, searchMembers } from "../members/console-search.server";
import type { StaffActor } from "../staff/actor";
import { recordPurchase } from "./purchases.server";
import { newMember } from "./testing.server";

/**
 * The member's last purchase (the console's "store of last purchase" filter) after ADR 039 "Later (2026-12-07,
 * statements)": its time on the account, written by the points' statement when the purchase earns points, by its
 * own statement when it earns none, and not at all by a receipt older than the last purchase; its store in
 * member_last_store by a statement of its own (an upsert only when the store changes), not on the member row
 * (migration 0062) (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
let db: Database;
useMigratedTestDatabase("last_purchase", (handle) => {
  db = handle.db;
});

const day = (d: number) => new Date(Date.UTC(2026, 4, d, 4));
let receipt = 0;
const buy = (memberId: string, storeId: string, netAmount: number, at: Date) =>
  recordPurchase(db, { memberId, storeId, receiptNumber: `LP-${++receipt}`, netAmount, purchasedAt: at }, day(20));

async function last(memberId: string) {
  const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId));
  const [row] = await db.select().from(memberLastStore).where(eq(memberLastStore.memberId, memberId));
  return { at: account?.lastPurchaseAt?.toISOString() ?? null, store: row?.storeId ?? null };
}

describe("the last purchase", () => {
  it("moves with a purchase that earns points and with one that earns none, never back to an older receipt", async () => {
    const m = await newMember(db);
    const earned = await buy(m.id, "S01", 5_000, day(10));
    expect(earned.pointsEarned).toBeGreaterThan(0);
    expect(await last(m.id)).toEqual({ at: day(10).toISOString(), store: "S01" });
    // NT$50 earns nothing: the last purchase still moves (its own statement).
    const none = await buy(m.id, "S02", 50, day(12));
    expect(none.pointsEarned).toBe(0);
    expect(await last(m.id)).toEqual({ at: day(12).toISOString(), store: "S02" });
    // An older receipt booked late, with points and without: nothing moves.
    await buy(m.id, "S03", 5_000, day(11));
    await buy(m.id, "S04", 50, day(11));
    expect(await last(m.id)).toEqual({ at: day(12).toISOString(), store: "S02" });
    // The same moment again at another store moves the store (not older).
    await buy(m.id, "S05", 5_000, day(12));
    expect(await last(m.id)).toEqual({ at: day(12).toISOString(), store: "S05" });
    // A later one at the same store moves the time only.
    await buy(m.id, "S05", 5_000, day(15));
    expect(await last(m.id)).toEqual({ at: day(15).toISOString(), store: "S05" });
  }, 60_000);

  it("keeps the store in the member's narrow row: a store change leaves the member row as it was", async () => {
    const m = await newMember(db);
    const version = async () =>
      rowsOf<{ xmin: string }>(await db.execute(sql`select xmin::text as xmin from member where id = ${m.id}`))[0]
        ?.xmin;
    await buy(m.id, "S01", 5_000, day(10));
    const before = await version();
    await buy(m.id, "S02", 5_000, day(11));
    expect(await last(m.id)).toEqual({ at: day(11).toISOString(), store: "S02" });
    expect(await version()).toBe(before);
    const [row] = await db.select().from(memberLastStore).where(eq(memberLastStore.memberId, m.id));
    expect(row?.memberCreatedAt.toISOString()).toBe(m.createdAt.toISOString());
  }, 60_000);

  it("the console's store filter pages through member_last_store newest members first, every member once", async () => {
    const admin: StaffActor = {
      userId: "admin",
      role: "admin",
      displayName: "管理者",
      storeIds: [],
      currentStoreId: null,
      sessionId: "s",
      secondFactorAt: day(20),
    };
    // Five members share each sign-up moment: the cursor's id breaks the ties.
    const members = [];
    for (let i = 0; i < MEMBER_PAGE_SIZE + 2; i++) {
      const m = await newMember(db, { createdAt: new Date(day(1).getTime() - (i % 5) * 60_000) });
      await buy(m.id, "S-OTHER", 50, day(10));
      await buy(m.id, "S-PAGE", 50, day(11));
      members.push(m);
    }
    // Bought at S-PAGE before, last at another store: not in the list.
    const movedAway = await newMember(db);
    await buy(movedAway.id, "S-PAGE", 50, day(10));
    await buy(movedAway.id, "S-OTHER", 50, day(11));
    const expected = [...members]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((m) => m.memberNumber);
    const first = await searchMembers(db, admin, { storeId: "S-PAGE" });
    expect(first.rows).toHaveLength(MEMBER_PAGE_SIZE);
    const second = await searchMembers(db, admin, { storeId: "S-PAGE", after: first.nextAfter });
    expect(second.nextAfter).toBeNull();
    expect([...first.rows, ...second.rows].map((r) => r.memberNumber)).toEqual(expected);
    // With the tier filter (the account joined before the limit) and a sign-up range, the same order.
    const basic = await searchMembers(db, admin, { storeId: "S-PAGE", tier: "basic", signedUpFrom: day(1) });
    const fromDay1 = new Set(members.filter((m) => m.createdAt >= day(1)).map((m) => m.memberNumber));
    expect(fromDay1.size).toBe(6);
    expect(basic.rows.map((r) => r.memberNumber)).toEqual(expected.filter((n) => fromDay1.has(n)));
  }, 120_000);
});
