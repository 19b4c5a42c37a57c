import type { Database } from "@platform/db/client";
import { loyaltyAccount, member } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordPurchase } from "./purchases.server";
import { newMember } from "./testing.server";

/**
 * The member's last purchase (the console's "store of last purchase" filter) after ADR 039 "Later (2026-12-07,
 * statements)": written by the points' statement when the purchase earns points, by its own statement when it earns
 * none, and not at all by a receipt older than the last purchase (PGlite, or PostgreSQL with TEST_DATABASE_URL).
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
  const [row] = await db.select().from(member).where(eq(member.id, memberId));
  return { at: account?.lastPurchaseAt?.toISOString() ?? null, store: row?.lastPurchaseStoreId ?? null };
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
});
