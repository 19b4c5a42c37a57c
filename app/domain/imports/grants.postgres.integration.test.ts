import type { DatabaseHandle } from "@platform/db/client";
import { importRun, referral } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkLedger } from "../loyalty/ledger-check.server";
import { applyGrant } from "./grants.server";
import { friendsBuying, queuedGrant, referredPairs } from "./testing.server";

/**
 * A points grant while members buy, over two instances (ADR 038): a grant's batch locks many loyalty accounts in one
 * transaction; a referred friend's qualifying purchase locks the friend's account, then the referrer's (ADR 053).
 * Only on PostgreSQL.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;

useTwoPostgresInstances("grants_conc", (pair) => {
  ({ one, two } = pair);
});

describe("a points grant while members buy", () => {
  it("referred friends' first purchases while a grant books for them and their referrers never deadlock", {
    timeout: 120_000,
  }, async () => {
    const failures: string[] = [];
    for (let round = 0; round < 3; round++) {
      const pairs = await referredPairs(one.db, 60);
      const grant = await queuedGrant(
        one.db,
        pairs.flatMap((p) => [p.referrer.id, p.friend.id]),
        7,
      );
      const settled = await Promise.allSettled([
        applyGrant(one.db, grant, { batchSize: 500 }),
        ...friendsBuying(two.db, pairs),
      ]);
      settled.forEach((s, i) => {
        if (s.status === "rejected")
          failures.push(`${i === 0 ? "grant" : "purchase"}: ${(s.reason as Error).cause ?? s.reason}`);
      });
      await applyGrant(one.db, grant, { batchSize: 500 });
      const [granted] = await one.db.select().from(importRun).where(eq(importRun.id, grant));
      expect(granted).toMatchObject({ status: "done", rowsDone: 120, pointsBooked: 840 });
    }
    expect(failures).toEqual([]);
    const rewarded = await one.db.select().from(referral).where(eq(referral.state, "rewarded"));
    expect(rewarded.length).toBe(180);
    expect((await checkLedger(one.db)).mismatches).toEqual([]);
  });
});
