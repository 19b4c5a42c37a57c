import { type Database, rowsOf } from "@platform/db/client";
import { loyaltyAccount, member } from "@platform/db/schema";
import { type Slots, selectStatement, textStatement } from "@platform/db/statement";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { newMember } from "./testing.server";

/**
 * Statements built once (ADR 060, "Later (2026-12-07, the builders)") send the text the builder or `tx.execute`
 * sends, and answer what they answer (rows mapped as the builder maps them), on PGlite and on PostgreSQL.
 */
let db: Database;
useMigratedTestDatabase("built_statements", (handle) => {
  db = handle.db;
});

// The same builder calls on a database and on the standalone QueryBuilder (whose select has the same shape).
const accountAndFlag = (b: Database, memberId: unknown) =>
  b
    .select({ account: loyaltyAccount, disabled: member.disabled })
    .from(loyaltyAccount)
    .innerJoin(member, eq(member.id, loyaltyAccount.memberId))
    .where(eq(loyaltyAccount.memberId, memberId as string))
    .for("update", { of: loyaltyAccount });

const LOCK = selectStatement((p: Slots<"memberId">) =>
  accountAndFlag(new QueryBuilder() as unknown as Database, p.memberId),
);
const BALANCE = textStatement(
  (p: Slots<"memberId" | "at">) =>
    sql`select balance, ${p.at}::timestamptz as at from ${loyaltyAccount} where member_id = ${p.memberId}::uuid`,
);

describe("statements built once", () => {
  it("send the builder's text and map its rows the same way", async () => {
    const m = await newMember(db);
    await db
      .insert(loyaltyAccount)
      .values({ memberId: m.id, balance: 42, negativeSince: new Date("2026-01-02T03:04:05Z") });
    expect(LOCK.query.sql).toBe(accountAndFlag(db, m.id).toSQL().sql);
    const built = await db.transaction(async (tx) => LOCK(tx, { memberId: m.id }));
    const builder = await db.transaction(async (tx) => accountAndFlag(tx, m.id));
    expect(built).toEqual(builder);
    expect(built[0]?.account.negativeSince).toEqual(new Date("2026-01-02T03:04:05Z"));
    expect(built[0]?.account.balance).toBe(42);
    expect(await LOCK(db, { memberId: "00000000-0000-4000-8000-000000000000" })).toEqual([]);
  });

  it("answer a text statement as db.execute does, each call with its own values", async () => {
    const m = await newMember(db);
    await db.insert(loyaltyAccount).values({ memberId: m.id, balance: 7 });
    const at = "2026-12-07T00:00:00.000Z";
    const built = rowsOf<{ balance: number; at: string }>(await BALANCE(db, { memberId: m.id, at }));
    const executed = rowsOf<{ balance: number; at: string }>(
      await db.execute(
        sql`select balance, ${at}::timestamptz as at from ${loyaltyAccount} where member_id = ${m.id}::uuid`,
      ),
    );
    expect(built).toEqual(executed);
    expect(built[0]?.balance).toBe(7);
    // Lazy like Drizzle's queries: nothing runs until awaited (or executed).
    const other = await newMember(db);
    const pending = BALANCE(db, { memberId: other.id, at });
    await db.insert(loyaltyAccount).values({ memberId: other.id, balance: 9 });
    expect(rowsOf<{ balance: number }>(await pending)[0]?.balance).toBe(9);
  });
});
