import { CACHED_COLUMNS } from "@platform/cache/cached-columns";
import { rowsOf } from "@platform/db/client";
import { loyaltyAccount, member, memberLastStore, pointEntry, pointLot, purchase } from "@platform/db/schema";
import { listenToCacheNotifications } from "@platform/testing/notification-listener";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";

/**
 * Migration 0057 (ADR 039 "Later (2026-12-07, statements)"): the purchase's tables notify the caches per row, and on
 * an update only when a column a cache reads changed. Every column of each table is named cached or not cached
 * (platform/cache/cached-columns.ts), the triggers' WHEN clauses name exactly the cached ones, a purchase sends its
 * member's m:<id> and nothing else, and a statement over many members still ends in one m:* (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL).
 */
const listening = listenToCacheNotifications("cache_columns");

/** The cache payloads (members' m:, users' u:) one write sends. */
const heardFrom = async (write: () => Promise<unknown>) =>
  (await listening.heardFrom(write)).filter((p) => p.startsWith("m:") || p.startsWith("u:")).sort();

const t0 = new Date("2026-05-12T04:00:00Z");
let receipt = 0;
const buy = (memberId: string, storeId = "S01", netAmount = 1_000) =>
  recordPurchase(listening.db, { memberId, storeId, receiptNumber: `CC-${++receipt}`, netAmount, purchasedAt: t0 }, t0);

describe("cache-invalidation triggers by column (migration 0057)", () => {
  it("names every column of each table as cached or not cached, and the update triggers' WHEN exactly the cached", async () => {
    for (const [table, spec] of Object.entries(CACHED_COLUMNS)) {
      const columns = rowsOf<{ name: string }>(
        await listening.db.execute(
          sql`select column_name as name from information_schema.columns
               where table_schema = current_schema() and table_name = ${table}`,
        ),
      ).map((r) => r.name);
      const cached: readonly string[] = spec.cached;
      const notCached = Object.keys(spec.notCached);
      expect(
        cached.filter((c) => notCached.includes(c)),
        `${table}: named both ways`,
      ).toEqual([]);
      expect([...cached, ...notCached].sort(), `${table}: every column named once`).toEqual([...columns].sort());
      const [trigger] = rowsOf<{ def: string; rowLevel: boolean }>(
        await listening.db.execute(
          sql`select pg_get_triggerdef(t.oid) as def, (t.tgtype & 1) = 1 as "rowLevel"
                from pg_trigger t join pg_class c on c.oid = t.tgrelid
               where c.relname = ${table} and t.tgname = ${spec.trigger}`,
        ),
      );
      if (!trigger) throw new Error(`${table}: no trigger ${spec.trigger}`);
      expect(trigger.rowLevel).toBe(true);
      const inWhen = (side: "old" | "new") =>
        [...new Set([...trigger.def.matchAll(new RegExp(`\\b${side}\\.("?)(\\w+)\\1`, "gi"))].map((m) => m[2]))].sort();
      expect(inWhen("old"), `${table}: the WHEN clause`).toEqual([...cached].sort());
      expect(inWhen("new"), `${table}: the WHEN clause`).toEqual([...cached].sort());
    }
  });

  it("a purchase sends its member's m:<id> only, at one store or moving to another", async () => {
    const m = await newMember(listening.db);
    expect(await heardFrom(() => buy(m.id, "S01"))).toEqual([`m:${m.id}`]);
    // The second purchase moves the member's last store (member_last_store, not the member row: migration 0062): no u:.
    expect(await heardFrom(() => buy(m.id, "S02"))).toEqual([`m:${m.id}`]);
    const [row] = await listening.db.select().from(memberLastStore).where(eq(memberLastStore.memberId, m.id));
    expect(row?.storeId).toBe("S02");
  }, 60_000);

  it("an update of columns no cache reads sends nothing; a cached column's change notifies its member or user", async () => {
    const db = listening.db;
    const m = await newMember(db);
    const bought = await buy(m.id);
    const purchaseId = bought.purchase.id;
    const [entry] = await db.select().from(pointEntry).where(eq(pointEntry.purchaseId, purchaseId));
    if (!entry) throw new Error("the purchase's entry");
    const quiet = [
      () =>
        db
          .update(purchase)
          .set({ answer: { replay: true } })
          .where(eq(purchase.id, purchaseId)),
      () =>
        db
          .update(loyaltyAccount)
          .set({ lastPurchaseAt: t0, updatedAt: new Date() })
          .where(eq(loyaltyAccount.memberId, m.id)),
      () => db.update(memberLastStore).set({ storeId: "S09" }).where(eq(memberLastStore.memberId, m.id)),
      () => db.update(pointEntry).set({ receiptNumber: "其他" }).where(eq(pointEntry.id, entry.id)),
      () => db.update(pointLot).set({ expired: 1 }).where(eq(pointLot.entryId, entry.id)),
      // A statement that changes nothing of anything.
      () => db.update(member).set({ nameZh: "無" }).where(sql`false`),
    ];
    for (const write of quiet) expect(await heardFrom(write)).toEqual([]);
    const loud: [() => Promise<unknown>, string][] = [
      [() => db.update(purchase).set({ refundedAmount: 100 }).where(eq(purchase.id, purchaseId)), `m:${m.id}`],
      [
        () =>
          db
            .update(loyaltyAccount)
            .set({ balance: sql`${loyaltyAccount.balance} + 1` })
            .where(eq(loyaltyAccount.memberId, m.id)),
        `m:${m.id}`,
      ],
      [() => db.update(pointEntry).set({ reason: "更正" }).where(eq(pointEntry.id, entry.id)), `m:${m.id}`],
      [() => db.update(pointLot).set({ remaining: 1 }).where(eq(pointLot.entryId, entry.id)), `m:${m.id}`],
      [() => db.update(member).set({ nameZh: "改名" }).where(eq(member.id, m.id)), `u:${m.userId}`],
    ];
    for (const [write, payload] of loud) expect(await heardFrom(write)).toEqual([payload]);
    // A row moved to another member notifies both.
    const other = await newMember(db);
    expect(
      await heardFrom(() => db.update(purchase).set({ memberId: other.id }).where(eq(purchase.id, purchaseId))),
    ).toEqual([`m:${m.id}`, `m:${other.id}`].sort());
  }, 60_000);

  it("one statement over many members: each up to 100, then one m:* (a transaction's 101st member)", async () => {
    const db = listening.db;
    const made = await Promise.all(Array.from({ length: 105 }, () => newMember(db)));
    await db
      .insert(loyaltyAccount)
      .values(made.map((m) => ({ memberId: m.id })))
      .onConflictDoNothing();
    const two = await heardFrom(() =>
      db
        .update(loyaltyAccount)
        .set({ balance: sql`${loyaltyAccount.balance} + 1` })
        .where(inArray(loyaltyAccount.memberId, [made[0]?.id ?? "", made[1]?.id ?? ""])),
    );
    expect(two).toEqual([`m:${made[0]?.id}`, `m:${made[1]?.id}`].sort());
    const all = await heardFrom(() =>
      db
        .update(loyaltyAccount)
        .set({ balance: sql`${loyaltyAccount.balance} + 1` })
        .where(
          inArray(
            loyaltyAccount.memberId,
            made.map((m) => m.id),
          ),
        ),
    );
    expect(all).toContain("m:*");
    expect(all.filter((p) => p !== "m:*").length).toBeLessThanOrEqual(100);
    // The counter is per transaction: the next one notifies one member again.
    const one = await heardFrom(() =>
      db
        .update(loyaltyAccount)
        .set({ balance: sql`${loyaltyAccount.balance} + 1` })
        .where(eq(loyaltyAccount.memberId, made[3]?.id ?? "")),
    );
    expect(one).toEqual([`m:${made[3]?.id}`]);
  }, 120_000);
});
