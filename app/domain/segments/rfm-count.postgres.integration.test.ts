import { type Database, rowsOf } from "@platform/db/client";
import { loyaltyAccount, member, memberRfm } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { insertTestStores } from "@platform/testing/stores";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";
import { refreshRfm } from "./rfm.server";
import { countSegment } from "./segments.server";

/**
 * The state `member_rfm` carries (active, tier; ADR 056 "Later") against the nightly job running at the same moment,
 * on PostgreSQL with two connections (PostgreSQL only). A change committed while the job replaces the table is
 * either read by the job or applied by its trigger to the new rows: never lost to the rows the job deletes.
 */
let db: Database;
useMigratedTestDatabase("rfm_count_race", (handle) => {
  db = handle.db;
});

const taipei = (local: string) => new Date(`${local}+08:00`);
const runAt = taipei("2026-06-20T02:40:00");
const ids: string[] = [];

/** Waits until some connection waits for an advisory lock (the job's or a trigger's). */
async function someoneWaits(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`),
    );
    if (Number(row?.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("nobody waited for the advisory lock");
}

const rfmRow = async (id: string) => (await db.select().from(memberRfm).where(eq(memberRfm.memberId, id)))[0];

beforeAll(async () => {
  await insertTestStores(db, ["S1"]);
  for (let i = 0; i < 3; i++) {
    const m = await newMember(db, { createdAt: taipei("2025-01-02T10:00:00") });
    ids.push(m.id);
    const at = taipei(`2026-0${3 + i}-01T12:00:00`);
    await recordPurchase(
      db,
      { memberId: m.id, storeId: "S1", receiptNumber: `RACE-${i}`, netAmount: 1000, purchasedAt: at },
      at,
    );
  }
  expect((await refreshRfm(db, runAt)).members).toBe(3);
});

describe("the nightly job and a change of a member's state at the same moment", () => {
  it("a tier change in a transaction still open when the job starts: the job waits and reads it", async () => {
    const id = ids[0] as string;
    let job: Promise<unknown> | undefined;
    await db.transaction(async (t) => {
      await t.update(loyaltyAccount).set({ tier: "gold" }).where(eq(loyaltyAccount.memberId, id));
      job = refreshRfm(db, runAt);
      await someoneWaits();
    });
    await job;
    expect((await rfmRow(id))?.tier).toBe("gold");
    expect(await countSegment(db, { rfmR: (await rfmRow(id))?.r ?? 0, tiers: ["gold"] })).toBe(1);
  });

  it("a tier change and a member disabled while the job's transaction is open: they wait and reach the new rows", async () => {
    const [tiered, disabled] = [ids[1] as string, ids[2] as string];
    let changes: Promise<unknown> | undefined;
    await db.transaction(async (t) => {
      await t.execute(sql`select rfm_refresh('2026-06-20'::date)`);
      changes = Promise.all([
        db.update(loyaltyAccount).set({ tier: "silver" }).where(eq(loyaltyAccount.memberId, tiered)),
        db.update(member).set({ disabled: true }).where(eq(member.id, disabled)),
      ]);
      await someoneWaits();
    });
    await changes;
    expect((await rfmRow(tiered))?.tier).toBe("silver");
    expect((await rfmRow(disabled))?.active).toBe(false);
    const counted = await countSegment(db, { rfmF: (await rfmRow(disabled))?.f ?? 0 });
    expect(counted).toBe(2);
  });
});
