import { rowsOf } from "@platform/db/client";
import { authUser, loyaltyAccount, member } from "@platform/db/schema";
import { listenToCacheNotifications } from "@platform/testing/notification-listener";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newMember } from "~/domain/loyalty/testing.server";

/**
 * Migration 0036 (ADR 039, "What a purchase's triggers cost"): the cache-invalidation trigger function reads its
 * transition table with static statements for `member_id`, `user_id` and `id`, and the dashboard's loyalty_account
 * triggers fire on an update only when the tier, the balance or the member changed. The notifications and the
 * dashboard's figures must be exactly what they were (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
const listening = listenToCacheNotifications("notify_triggers");
const { heardFrom } = listening;

const accountFigures = async () =>
  rowsOf<{ members: string; points: string }>(
    await listening.db.execute(
      sql`select coalesce(sum(members), 0)::text as members, coalesce(sum(points), 0)::text as points from report_account`,
    ),
  );
const byTier = async () =>
  Object.fromEntries(
    rowsOf<{ tier: string; members: string; points: string }>(
      await listening.db.execute(
        sql`select tier, sum(members)::text as members, sum(points)::text as points from report_account group by tier`,
      ),
    ).map((r) => [r.tier, r]),
  );

/** Members with their loyalty account (made lazily by the ledger otherwise). */
async function membersWithAccounts(n: number) {
  const made = await Promise.all(Array.from({ length: n }, () => newMember(listening.db)));
  await listening.db
    .insert(loyaltyAccount)
    .values(made.map((m) => ({ memberId: m.id })))
    .onConflictDoNothing();
  return made;
}

describe("cache-invalidation and summary triggers (migration 0036)", () => {
  it("notifies each changed member, user and session owner, and one '*' above 100 rows", async () => {
    const db = listening.db;
    const [a, b] = await membersWithAccounts(2);
    if (!a || !b) throw new Error("two members");
    // member_id (loyalty_account), one statement over two members: one payload each. (A column a cache reads:
    // since migration 0057 an update of updated_at alone notifies nothing, server/cache-columns.integration.test.ts.)
    const accounts = await heardFrom(() =>
      db
        .update(loyaltyAccount)
        .set({ balance: sql`${loyaltyAccount.balance} + 1` })
        .where(inArray(loyaltyAccount.memberId, [a.id, b.id])),
    );
    expect(accounts).toEqual(expect.arrayContaining([`m:${a.id}`, `m:${b.id}`]));
    // id (auth_user) and user_id (member) columns.
    const users = await heardFrom(() => db.update(authUser).set({ name: "改名" }).where(eq(authUser.id, a.userId)));
    expect(users).toContain(`u:${a.userId}`);
    const members = await heardFrom(() => db.update(member).set({ nameZh: "改名" }).where(eq(member.id, b.id)));
    expect(members).toEqual(expect.arrayContaining([`u:${b.userId}`]));
    // A statement that changes no row notifies nothing.
    expect(await heardFrom(() => db.update(member).set({ nameZh: "無" }).where(sql`false`))).toEqual([]);
    // Above 100 ids: one notification for all (since migration 0057 the first 100 ids may come too).
    const many = await membersWithAccounts(101);
    const all = await heardFrom(() =>
      db
        .update(loyaltyAccount)
        .set({ balance: sql`${loyaltyAccount.balance} + 1` })
        .where(
          inArray(
            loyaltyAccount.memberId,
            many.map((m) => m.id),
          ),
        ),
    );
    expect(all).toContain("m:*");
    expect(all.filter((p) => p.startsWith("m:") && p !== "m:*").length).toBeLessThanOrEqual(100);
  }, 120_000);

  it("keeps the dashboard's account figures exact: no-op updates skip, balance and tier changes count", async () => {
    const db = listening.db;
    const [m] = await membersWithAccounts(1);
    if (!m) throw new Error("a member");
    const before = await accountFigures();
    // An update that changes neither tier nor balance (a last purchase, a date): nothing moves.
    await db.update(loyaltyAccount).set({ lastPurchaseAt: new Date() }).where(eq(loyaltyAccount.memberId, m.id));
    expect(await accountFigures()).toEqual(before);
    // A balance change counts its difference; a tier change moves the member and the points.
    await db
      .update(loyaltyAccount)
      .set({ balance: sql`${loyaltyAccount.balance} + 70` })
      .where(eq(loyaltyAccount.memberId, m.id));
    const [afterBalance] = await accountFigures();
    expect(Number(afterBalance?.points) - Number(before[0]?.points)).toBe(70);
    expect(afterBalance?.members).toBe(before[0]?.members);
    await db.update(loyaltyAccount).set({ tier: "gold" }).where(eq(loyaltyAccount.memberId, m.id));
    const live = await byTier();
    // The same figures as the rebuild from the base tables.
    await listening.db.execute(sql`select report_rebuild()`);
    expect(await byTier()).toEqual(live);
    expect(Number(live.gold?.points)).toBeGreaterThanOrEqual(70);
  }, 120_000);
});
