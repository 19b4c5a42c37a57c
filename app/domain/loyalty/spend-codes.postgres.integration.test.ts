import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, purchase, rateLimitCounter } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AuditContext } from "../audit/audit.server";
import { LoyaltyError } from "./errors";
import { checkLedger } from "./ledger-check.server";
import { adjustPoints } from "./points.server";
import { recordPurchase } from "./purchases.server";
import { confirmSpend, pendingSpendCodes, requestSpendCode, SPEND_CODE_POLICY } from "./spend-codes.server";
import { ledgerTotals, newMember } from "./testing.server";

/**
 * A spend the member confirms with a code (issue 36, ADR 052) under real concurrency: two database handles stand in
 * for two app instances. PostgreSQL only (TEST_DATABASE_URL).
 */
let one: DatabaseHandle;
let two: DatabaseHandle;

useTwoPostgresInstances("spend_code_conc", (pair) => {
  ({ one, two } = pair);
});

const SECRET = "s".repeat(40);
const codeOf = (error: unknown) => {
  if (error instanceof LoyaltyError) return error.code;
  throw error;
};

function clerk(userId: string) {
  const audit: AuditContext = {
    actorType: "staff",
    userId,
    role: "staff",
    storeId: "S01",
    ip: null,
    userAgent: null,
    requestId: null,
  };
  return { storeId: "S01", requester: `staff:${userId}`, audit };
}

describe("spend codes on PostgreSQL", () => {
  it("20 wrong codes at once over two instances: exactly 5 are counted, the rest refused as locked", {
    timeout: 120_000,
  }, async () => {
    const m = await newMember(one.db);
    await adjustPoints(one.db, { memberId: m.id, amount: 1000, reason: "seed", idempotencyKey: `seed:${m.id}` });
    const asker = clerk(`clerk-wrong-${m.id}`);
    const now = new Date();
    await requestSpendCode(one.db, SECRET, asker, { memberId: m.id, points: 500, netAmount: 3280 }, now);
    const right = (await pendingSpendCodes(one.db, SECRET, m.id, now))[0]?.code ?? "";
    const wrong = right === "000000" ? "000001" : "000000";
    const spend = { memberId: m.id, points: 500, netAmount: 3280, identifiedBy: "typed" as const, code: wrong };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        confirmSpend((i % 2 ? two : one).db, SECRET, asker, spend, now).then(
          () => "confirmed",
          (error: unknown) => codeOf(error),
        ),
      ),
    );
    const counts: Record<string, number> = {};
    for (const r of results) counts[r] = (counts[r] ?? 0) + 1;
    expect(counts).toEqual({ spend_code_wrong: SPEND_CODE_POLICY.maxWrongTries, spend_code_locked: 15 });
    // Counted per member and per clerk, 5 each.
    const counters = await one.db
      .select({ key: rateLimitCounter.key, count: rateLimitCounter.count })
      .from(rateLimitCounter)
      .where(like(rateLimitCounter.key, "spend-code:try:%"));
    const mine = counters.filter((c) => c.key.includes(m.id) || c.key.includes(asker.requester));
    expect(mine.map((c) => c.count).sort()).toEqual([5, 5]);
    // Locked now, even with the right code; every refusal is audited (within the security-event budget).
    const locked = await confirmSpend(one.db, SECRET, asker, { ...spend, code: right }, now).catch(codeOf);
    expect(locked).toBe("spend_code_locked");
    const refusals = await one.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.action, "points.spend_code_refused"), eq(auditLog.targetId, m.id)));
    expect(refusals.length).toBeGreaterThanOrEqual(5);
  });

  it("the right code used twice at once over two instances: one purchase, the other spend_code_used", {
    timeout: 120_000,
  }, async () => {
    for (let round = 0; round < 5; round++) {
      const m = await newMember(one.db);
      await adjustPoints(one.db, { memberId: m.id, amount: 2000, reason: "seed", idempotencyKey: `seed:${m.id}` });
      const asker = clerk(`clerk-right-${m.id}`);
      const now = new Date();
      await requestSpendCode(one.db, SECRET, asker, { memberId: m.id, points: 500, netAmount: 3280 }, now);
      const code = (await pendingSpendCodes(one.db, SECRET, m.id, now))[0]?.code ?? "";
      const spend = { memberId: m.id, points: 500, netAmount: 3280, identifiedBy: "typed" as const, code };
      const results = await Promise.all(
        [one, two].map(async (handle, i) => {
          try {
            const spendTicket = await confirmSpend(handle.db, SECRET, asker, spend, now);
            const booked = await recordPurchase(
              handle.db,
              {
                memberId: m.id,
                storeId: "S01",
                receiptNumber: `CODE-${round}-${i}`,
                netAmount: 3280,
                purchasedAt: now,
                pointsToSpend: 500,
                spendTicket,
                staffUserId: asker.requester.slice(6),
              },
              now,
            );
            return booked.pointsSpent;
          } catch (error) {
            return codeOf(error);
          }
        }),
      );
      // The loser either lost the conditional update (spend_code_used) or came after the commit (no code waits).
      expect(results).toContain(500);
      expect(results.filter((r) => r === 500)).toHaveLength(1);
      expect(["spend_code_used", "spend_code_expired"]).toContain(results.find((r) => r !== 500));
      expect(await one.db.select().from(purchase).where(eq(purchase.memberId, m.id))).toHaveLength(1);
      const totals = await ledgerTotals(one.db, m.id);
      expect(totals.ledgerSum).toBe(totals.balance);
      expect(totals.balance).toBe(2000 - 500 + 27);
    }
    expect((await checkLedger(one.db)).mismatches).toEqual([]);
  });
});
