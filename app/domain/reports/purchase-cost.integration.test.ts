import { type DatabaseHandle, openDatabase, rowsOf } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantWelcomePoints } from "~/domain/loyalty/points.server";
import { recordPurchase, refundPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";

/**
 * Migration 0054 (ADR 039, "Later (2026-12-07)"): the summary triggers take the summaries' advisory lock themselves
 * (no a_report_serialize triggers) and write the purchase's member × store and member × month rows in fewer
 * statements. The figures must be what report_rebuild() computes from the base tables, and a commit that writes
 * summaries must still wait for the lock (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "purchase_cost", migrated: true });
  handle = await openDatabase(testDb.config);
  await handle.migrate();
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await testDb?.drop();
});

const taipei = (local: string) => new Date(`${local}+08:00`);
const REPORTS_LOCK = 2025112501;

/** Every summary's rows, summed over shards (the rebuild compacts past days into shard 0). */
async function summaries() {
  const q = async (query: ReturnType<typeof sql>) => rowsOf<Record<string, string>>(await handle.db.execute(query));
  return {
    dayStore: await q(sql`select day::text, store_id, sum(purchases)::text p, sum(sales)::text s, sum(refunds)::text r,
      sum(points_earned)::text e, sum(points_bonus)::text b, sum(points_reversed)::text v, sum(points_redeemed)::text d,
      sum(points_returned)::text t, sum(signups_phone + signups_line)::text u
      from report_day_store group by 1, 2 order by 1, 2`),
    memberStore: await q(sql`select member_id::text, store_id, last_day::text from report_member_store order by 1, 2`),
    memberMonth: await q(
      sql`select store_id, month::text, member_id::text, signup_month::text from report_member_month order by 1, 2, 3`,
    ),
    cohort: await q(sql`select store_id, signup_month::text, month::text, sum(members)::text m from report_cohort
      group by 1, 2, 3 having sum(members) <> 0 order by 1, 2, 3`),
    account: await q(
      sql`select tier, sum(members)::text m, sum(points)::text p from report_account group by 1 order by 1`,
    ),
    lots: await q(sql`select day::text, sum(points)::text p from report_lot_expiry group by 1 having sum(points) <> 0
      order by 1`),
  };
}

describe("the summary triggers of migration 0054", () => {
  it("keep the figures report_rebuild() computes, for first and repeat purchases, two stores and a refund", async () => {
    const db = handle.db;
    const a = await newMember(db, { createdAt: taipei("2026-01-05T09:00:00") });
    const b = await newMember(db, { createdAt: taipei("2026-02-03T08:00:00"), signupMethod: "line" });
    await grantWelcomePoints(db, a.id, a.createdAt);
    const booked = [];
    for (const [i, [who, store, amount, at]] of (
      [
        [a.id, "S01", 12_000, "2026-02-10T15:00:00"],
        // The same month and store again (no new cohort member), then another store (one more at that store only).
        [a.id, "S01", 3_000, "2026-02-11T15:00:00"],
        [a.id, "S02", 5_000, "2026-02-12T11:00:00"],
        // A late receipt: an earlier day than the member's last purchase keeps last_day where it is.
        [a.id, "S01", 2_000, "2026-02-09T11:00:00"],
        [b.id, "S02", 20_000, "2026-03-01T00:30:00"],
        [b.id, "S02", 1_000, "2026-04-02T10:00:00"],
      ] as const
    ).entries()) {
      booked.push(
        await recordPurchase(
          db,
          { memberId: who, storeId: store, receiptNumber: `C-${i}`, netAmount: amount, purchasedAt: taipei(at) },
          taipei(at),
        ),
      );
    }
    const first = booked[0];
    if (!first) throw new Error("a purchase");
    await refundPurchase(
      db,
      { purchaseId: first.purchase.id, amount: 6_000, idempotencyKey: "refund-c0" },
      taipei("2026-02-20T10:00:00"),
    );
    const live = await summaries();
    // What the triggers wrote, spelt out for the rows this migration rewrote.
    expect(live.memberStore.filter((r) => r.member_id === a.id)).toEqual([
      { member_id: a.id, store_id: "*", last_day: "2026-02-12" },
      { member_id: a.id, store_id: "S01", last_day: "2026-02-11" },
      { member_id: a.id, store_id: "S02", last_day: "2026-02-12" },
    ]);
    expect(live.cohort).toEqual(
      expect.arrayContaining([
        { store_id: "*", signup_month: "2026-01-01", month: "2026-02-01", m: "1" },
        { store_id: "S01", signup_month: "2026-01-01", month: "2026-02-01", m: "1" },
        { store_id: "S02", signup_month: "2026-01-01", month: "2026-02-01", m: "1" },
        { store_id: "*", signup_month: "2026-02-01", month: "2026-03-01", m: "1" },
        { store_id: "*", signup_month: "2026-02-01", month: "2026-04-01", m: "1" },
      ]),
    );
    expect(live.dayStore).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          day: "2026-02-10",
          store_id: "S01",
          p: "1",
          s: "12000",
          e: String(first.pointsEarned),
        }),
      ]),
    );
    await db.execute(sql`select report_rebuild()`);
    expect(await summaries()).toEqual(live);
  }, 120_000);

  it("has no a_report_serialize trigger left, webhook_wanted in plpgsql, and a commit that writes summaries still waits for their lock", async () => {
    const triggers = rowsOf<{ tgname: string }>(
      await handle.db.execute(sql`select tgname from pg_trigger where tgname like 'a_report_serialize%'`),
    );
    expect(triggers).toEqual([]);
    // The webhook triggers' probe keeps its plan per session (a SQL function with a sub-select was planned per call).
    const [probe] = rowsOf<{ lanname: string }>(
      await handle.db.execute(
        sql`select l.lanname from pg_proc p join pg_language l on l.oid = p.prolang where p.proname = 'webhook_wanted'`,
      ),
    );
    expect(probe?.lanname).toBe("plpgsql");
    if (!testDb.url) return; // One connection on PGlite: nothing can hold the lock beside the commit.
    const m = await newMember(handle.db);
    const other = postgres(testDb.url, { max: 1, onnotice: () => {} });
    try {
      const held = await other.reserve();
      await held`select pg_advisory_lock(${REPORTS_LOCK})`;
      let committed = false;
      const purchase = recordPurchase(
        handle.db,
        { memberId: m.id, storeId: "S09", receiptNumber: "LOCK-1", netAmount: 1_000, purchasedAt: new Date() },
        new Date(),
      ).then((r) => {
        committed = true;
        return r;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      // The purchase's statements ran; its commit's first summary trigger waits for the lock.
      expect(committed).toBe(false);
      const waiting = rowsOf<{ n: number }>(
        await handle.db.execute(
          sql`select count(*)::int n from pg_locks where locktype = 'advisory' and objid = ${REPORTS_LOCK} and not granted`,
        ),
      );
      expect(waiting[0]?.n).toBe(1);
      await held`select pg_advisory_unlock(${REPORTS_LOCK})`;
      held.release();
      await purchase;
      expect(committed).toBe(true);
    } finally {
      await other.end();
    }
  }, 60_000);
});
