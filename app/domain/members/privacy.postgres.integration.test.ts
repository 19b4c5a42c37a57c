import type { DatabaseHandle } from "@platform/db/client";
import { member } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LoyaltyError } from "../loyalty/errors";
import { checkLedger } from "../loyalty/ledger-check.server";
import { recordPurchase } from "../loyalty/purchases.server";
import { newMember } from "../loyalty/testing.server";
import { deleteMemberAccount } from "./privacy.server";

/**
 * A member deleting their account while the counter rings up a purchase for them, over two instances (ADR 015).
 * Only on PostgreSQL.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;

useTwoPostgresInstances("privacy_conc", (pair) => {
  ({ one, two } = pair);
});

let receipt = 0;
const buy = (db: DatabaseHandle["db"], memberId: string) =>
  recordPurchase(db, {
    memberId,
    storeId: "S01",
    receiptNumber: `PV-${++receipt}`,
    netAmount: 1_000,
    purchasedAt: new Date(),
  });

describe("an account deleted during a purchase", () => {
  it("a deletion and a purchase of the same member at once never deadlock", { timeout: 60_000 }, async () => {
    // The purchase locks the member's account, then its rows point at the member (each foreign key a share lock on
    // the member row); the deletion rewrites the member's unique columns (an exclusive lock), then its account.
    const members: Awaited<ReturnType<typeof newMember>>[] = [];
    for (let i = 0; i < 120; i++) {
      const m = await newMember(one.db);
      await buy(one.db, m.id);
      members.push(m);
    }
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let i = lane; i < members.length; i += 4) {
          const m = members[i] as (typeof members)[number];
          const settled = await Promise.allSettled([
            deleteMemberAccount(one.db, { userId: m.userId, ip: null, revokers: [] }),
            new Promise((r) => setTimeout(r, i % 3)).then(() => buy(two.db, m.id)),
          ]);
          for (const s of settled) {
            if (s.status === "fulfilled") continue;
            // Bought after the deletion: refused, as it should be.
            if (!(s.reason instanceof LoyaltyError && s.reason.code === "member_disabled"))
              failures.push(String((s.reason as Error).cause ?? s.reason));
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    const deleted = await one.db.select({ id: member.id }).from(member).where(isNotNull(member.deletedAt));
    expect(deleted).toHaveLength(members.length);
    expect((await checkLedger(one.db)).mismatches).toEqual([]);
  });
});
