import type { Database } from "@platform/db/client";
import { pointLot } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LoyaltyError } from "./errors";
import { adjustPoints, expirePoints } from "./points.server";
import { lotExpiry } from "./rules.server";
import { ledgerTotals, newMember } from "./testing.server";

/**
 * Property: whatever the order of earning, spending and nightly expiry runs over the years, spending
 * takes the points that expire first, expired points never stay spendable, and the balance equals the
 * ledger sum. The database is checked against a small model of lots (compared per expiry date, since
 * lots of one date are interchangeable).
 */
let db: Database;
useMigratedTestDatabase("expiry_property", (handle) => {
  db = handle.db;
});

type Step =
  | { kind: "earn"; days: number; amount: number }
  | { kind: "spend"; days: number; amount: number }
  | { kind: "expire"; days: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("earn" as const),
    days: fc.integer({ min: 0, max: 400 }),
    amount: fc.integer({ min: 1, max: 500 }),
  }),
  fc.record({
    kind: fc.constant("spend" as const),
    days: fc.integer({ min: 0, max: 400 }),
    amount: fc.integer({ min: 1, max: 700 }),
  }),
  fc.record({ kind: fc.constant("expire" as const), days: fc.integer({ min: 0, max: 400 }) }),
);

const DAY = 86_400_000;

describe("expiry order (property-based)", () => {
  it("spends the soonest-expiring points first and never lets expired points be spent", {
    timeout: 120_000,
  }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        run++;
        const m = await newMember(db);
        // Model: points left per expiry instant.
        const lots = new Map<number, number>();
        const expireModel = (now: Date) => {
          for (const [at, left] of lots) if (at <= now.getTime() && left > 0) lots.set(at, 0);
        };
        const balance = () => [...lots.values()].reduce((a, b) => a + b, 0);
        // Noon in Taipei on 2024-01-01, then forward by each step's days.
        let now = new Date(Date.UTC(2024, 0, 1, 4));
        for (const [i, s] of steps.entries()) {
          now = new Date(now.getTime() + s.days * DAY);
          const key = `r${run}-s${i}`;
          if (s.kind === "earn") {
            await adjustPoints(db, { memberId: m.id, amount: s.amount, reason: "property", idempotencyKey: key }, now);
            const at = lotExpiry(now).getTime();
            lots.set(at, (lots.get(at) ?? 0) + s.amount);
          } else if (s.kind === "spend") {
            expireModel(now);
            const spend = adjustPoints(
              db,
              { memberId: m.id, amount: -s.amount, reason: "property", idempotencyKey: key },
              now,
            );
            if (balance() < s.amount) {
              await expect(spend).rejects.toSatisfy(
                (e) => e instanceof LoyaltyError && e.code === "insufficient_points",
              );
            } else {
              await spend;
              let left = s.amount;
              for (const at of [...lots.keys()].sort((a, b) => a - b)) {
                const take = Math.min(left, lots.get(at)!);
                lots.set(at, lots.get(at)! - take);
                left -= take;
              }
            }
          } else {
            await expirePoints(db, now);
            expireModel(now);
          }
        }
        // A last nightly run at the final instant, then the database must match the model.
        await expirePoints(db, now);
        expireModel(now);
        const rows = await db.select().from(pointLot).where(eq(pointLot.memberId, m.id));
        const actual = new Map<number, number>();
        for (const row of rows) {
          const at = row.expiresAt.getTime();
          actual.set(at, (actual.get(at) ?? 0) + row.remaining);
          // Nothing past its expiry still holds points.
          if (at <= now.getTime()) expect(row.remaining).toBe(0);
        }
        expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(lots));
        expect(await ledgerTotals(db, m.id)).toEqual({
          balance: balance(),
          ledgerSum: balance(),
          lotsRemaining: balance(),
        });
      }),
      { numRuns: 40, seed: 20261122 },
    );
  });
});
