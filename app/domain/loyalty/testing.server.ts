import { randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import { authUser, loyaltyAccount, member, pointEntry, pointLot } from "@platform/db/schema";
import { eq, sql } from "drizzle-orm";

/** Test helpers (no test-runner imports): a member straight in the database, and the ledger totals. */
let counter = 0;

export async function newMember(
  db: Database,
  fields: Partial<typeof member.$inferInsert> = {},
): Promise<typeof member.$inferSelect> {
  // Taken before the first await: members created at once (Promise.all) must not share a number.
  const n = ++counter;
  const userId = randomUUID();
  await db.insert(authUser).values({ id: userId, name: "測試", email: `${userId}@phone.invalid` });
  const [created] = await db
    .insert(member)
    .values({
      userId,
      memberNumber: `HL${String(20_000_000 + n * 1000 + Math.floor(Math.random() * 1000))}`,
      nameZh: "王小明",
      phoneNumber: `+8869${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
      ...fields,
    })
    .returning();
  if (!created) throw new Error("member insert returned nothing");
  return created;
}

export async function ledgerTotals(
  db: Database,
  memberId: string,
): Promise<{ balance: number; ledgerSum: number; lotsRemaining: number }> {
  const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId));
  const [sum] = await db
    .select({ s: sql<string>`coalesce(sum(${pointEntry.amount}), 0)` })
    .from(pointEntry)
    .where(eq(pointEntry.memberId, memberId));
  const [lots] = await db
    .select({ s: sql<string>`coalesce(sum(${pointLot.remaining}), 0)` })
    .from(pointLot)
    .where(eq(pointLot.memberId, memberId));
  return { balance: account?.balance ?? 0, ledgerSum: Number(sum?.s), lotsRemaining: Number(lots?.s) };
}
