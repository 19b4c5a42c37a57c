import { type DatabaseHandle, rowsOf } from "@platform/db/client";
import { member } from "@platform/db/schema";
import { insertBulkMembers } from "@platform/testing/members";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { isNotNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LoyaltyError } from "../loyalty/errors";
import { checkLedger } from "../loyalty/ledger-check.server";
import { recordPurchase } from "../loyalty/purchases.server";
import { newMember } from "../loyalty/testing.server";
import { refreshRfm } from "../segments/rfm.server";
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

describe("an account deleted while others write", () => {
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
  it("a deletion while the nightly RFM summary is replaced never deadlocks", { timeout: 60_000 }, async () => {
    // 5,000 members who bought last month, so each has a row of the summary: the job re-inserts them all (each row's
    // foreign key a share lock on its member) under its exclusive lock, which the member-state trigger takes shared.
    await insertBulkMembers(one.db, { prefix: "rfm-del-", count: 5000, numbers: "RD", phones: "+88696" });
    await one.db.execute(sql`
      insert into purchase (store_id, receipt_number, member_id, net_amount, purchased_at)
      select 'S01', 'RD-' || id, id, 1000, now() - interval '30 days' from member where user_id like 'rfm-del-%'`);
    const users = rowsOf<{ user_id: string }>(
      await one.db.execute(sql`select user_id from member where user_id like 'rfm-del-%' order by user_id limit 120`),
    ).map((r) => r.user_id);
    const failures: string[] = [];
    let deleting = true;
    let refreshes = 0;
    const refreshing = (async () => {
      while (deleting) {
        try {
          await refreshRfm(one.db);
          refreshes++;
        } catch (error) {
          failures.push(`refresh: ${(error as Error).cause ?? error}`);
        }
      }
    })();
    await Promise.all(
      Array.from({ length: 4 }, async (_, lane) => {
        for (let i = lane; i < users.length; i += 4) {
          try {
            await deleteMemberAccount(two.db, { userId: users[i] as string, ip: null, revokers: [] });
          } catch (error) {
            failures.push(`deletion: ${(error as Error).cause ?? error}`);
          }
        }
      }),
    );
    deleting = false;
    await refreshing;
    expect(failures).toEqual([]);
    expect(refreshes).toBeGreaterThan(0);
    const [left] = rowsOf<{ n: number }>(
      await one.db.execute(
        sql`select count(*)::int as n from member where user_id like 'rfm-del-%' and deleted_at is null`,
      ),
    );
    expect(left?.n).toBe(5000 - users.length);
  });
});
