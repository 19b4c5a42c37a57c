import type { DatabaseHandle } from "@platform/db/client";
import { importRow, importRun, referral } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkLedger } from "../loyalty/ledger-check.server";
import { recordPurchase } from "../loyalty/purchases.server";
import { newMember } from "../loyalty/testing.server";
import { linkReferral } from "../referrals/referrals.server";
import { applyGrant } from "./grants.server";

type Member = Awaited<ReturnType<typeof newMember>>;

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

/** A queued grant of `points` to each member, rows in the order given (as staged from a file). */
async function queuedGrant(db: DatabaseHandle["db"], memberIds: string[], points: number): Promise<string> {
  const [run] = await db
    .insert(importRun)
    .values({
      kind: "grant",
      source: "grant",
      status: "queued",
      fileSha256: "",
      options: { notify: false },
      report: { rows: memberIds.length, rejected: 0 },
    })
    .returning({ id: importRun.id });
  const runId = (run as { id: string }).id;
  await db.insert(importRow).values(
    memberIds.map((memberId, i) => ({
      runId,
      line: i + 2,
      raw: {},
      record: { memberId, points, reason: "活動補點" },
      plan: "create" as const,
    })),
  );
  return runId;
}

let receipt = 0;

describe("a points grant while members buy", () => {
  it("referred friends' first purchases while a grant books for them and their referrers never deadlock", {
    timeout: 120_000,
  }, async () => {
    const failures: string[] = [];
    for (let round = 0; round < 3; round++) {
      const pairs: { referrer: Member; friend: Member }[] = [];
      for (let i = 0; i < 60; i++) {
        const referrer = await newMember(one.db);
        const friend = await newMember(one.db);
        await one.db.transaction((tx) => linkReferral(tx, { friendId: friend.id, code: referrer.referralCode }));
        pairs.push({ referrer, friend });
      }
      const grant = await queuedGrant(
        one.db,
        pairs.flatMap((p) => [p.referrer.id, p.friend.id]),
        7,
      );
      let next = 0;
      const buying = async () => {
        while (next < pairs.length) {
          const { friend } = pairs[next++] as { friend: Member };
          await recordPurchase(two.db, {
            memberId: friend.id,
            storeId: "S01",
            receiptNumber: `GR-${++receipt}`,
            netAmount: 3_000,
            purchasedAt: new Date(),
          });
        }
      };
      const settled = await Promise.allSettled([
        applyGrant(one.db, grant, { batchSize: 500 }),
        ...Array.from({ length: 4 }, () => buying()),
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
