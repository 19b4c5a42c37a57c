import type { DatabaseHandle } from "@platform/db/client";
import { importRun, member, referral } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkLedger } from "../loyalty/ledger-check.server";
import { applyGrant } from "./grants.server";
import { applyRun, checkRun, getRun, type RunActor, setCsvMapping, stageCsv, startRun } from "./runs.server";
import {
  csvFixture,
  friendsBuying,
  generatedCsv,
  queuedGrant,
  referredPairs,
  TEST_CSV_MAPPING,
  textStream,
} from "./testing.server";

/**
 * A member import merging into existing members while a points grant books for the same members, over two instances
 * (ADR 038): each batch of either locks many loyalty accounts in one transaction. Only on PostgreSQL.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;

useTwoPostgresInstances("imports_grants_conc", (pair) => {
  ({ one, two } = pair);
});

const cli: RunActor = { kind: "cli" };
const options = { welcome: false, evaluateTiers: false };
const MEMBERS = 400;

async function checkedRun(db: DatabaseHandle["db"], source: string): Promise<string> {
  const staged = await stageCsv(db, {
    source,
    file: textStream(`${source}.csv`, generatedCsv(MEMBERS, 0)),
    actor: cli,
  });
  await setCsvMapping(db, staged.id, TEST_CSV_MAPPING, options);
  await checkRun(db, staged.id);
  return staged.id;
}

describe("a member import beside grants and purchases", () => {
  it("an import merging into members while a grant books for them never deadlocks", { timeout: 120_000 }, async () => {
    // The members, created by a first import (lines in file order, ids random).
    const first = await checkedRun(one.db, "seed");
    await startRun(one.db, null, first, cli);
    expect((await applyRun(one.db, first, { batchSize: 1000 })).created).toBe(MEMBERS);
    const ids = (await one.db.select({ id: member.id }).from(member)).map((m) => m.id);

    // The same people from other sources: every row merges into an existing member and books its opening points
    // under the account's lock; a grant for the same members at the same time, rows in the file's order.
    const failures: string[] = [];
    for (let round = 0; round < 3; round++) {
      const again = await checkedRun(one.db, `again-${round}`);
      await startRun(one.db, null, again, cli);
      const grant = await queuedGrant(one.db, ids, 7);
      const settled = await Promise.allSettled([
        applyRun(two.db, again, { batchSize: 100 }),
        applyGrant(one.db, grant, { batchSize: 100 }),
      ]);
      for (const s of settled)
        if (s.status === "rejected") failures.push(String((s.reason as Error).cause ?? s.reason));
      // Whatever failed resumes (a batch commits whole or not at all), so the rounds go on.
      await applyRun(one.db, again, { batchSize: 1000 });
      await applyGrant(one.db, grant, { batchSize: 1000 });
      expect(await getRun(one.db, again)).toMatchObject({ status: "done", merged: MEMBERS });
      const [granted] = await one.db.select().from(importRun).where(eq(importRun.id, grant));
      expect(granted).toMatchObject({ status: "done", rowsDone: MEMBERS });
    }
    expect(failures).toEqual([]);
    const check = await checkLedger(one.db);
    expect(check.mismatches).toEqual([]);
  });
  it("an import merging into referred friends and their referrers while the friends buy never deadlocks", {
    timeout: 120_000,
  }, async () => {
    // A referred friend's first purchase locks the friend's account, then the referrer's (ADR 053); the import's
    // batch books both members' opening points, in member order.
    const failures: string[] = [];
    for (let round = 0; round < 3; round++) {
      const pairs = await referredPairs(one.db, 60);
      const people = pairs.flatMap((p) => [p.referrer, p.friend]);
      const staged = await stageCsv(one.db, {
        source: `referred-${round}`,
        file: textStream(
          "referred.csv",
          csvFixture(people.map((m, i) => ({ id: `r${i}`, phone: `0${m.phoneNumber.slice(4)}`, name: "", points: 5 }))),
        ),
        actor: cli,
      });
      await setCsvMapping(one.db, staged.id, TEST_CSV_MAPPING, options);
      await checkRun(one.db, staged.id);
      await startRun(one.db, null, staged.id, cli);
      const settled = await Promise.allSettled([
        applyRun(one.db, staged.id, { batchSize: 500 }),
        ...friendsBuying(two.db, pairs),
      ]);
      settled.forEach((s, i) => {
        if (s.status === "rejected")
          failures.push(`${i === 0 ? "import" : "purchase"}: ${(s.reason as Error).cause ?? s.reason}`);
      });
      await applyRun(one.db, staged.id, { batchSize: 500 });
      expect(await getRun(one.db, staged.id)).toMatchObject({
        status: "done",
        rowsDone: 120,
        merged: 120,
        pointsBooked: 600,
      });
    }
    expect(failures).toEqual([]);
    expect(await one.db.select().from(referral).where(eq(referral.state, "rewarded"))).toHaveLength(180);
    expect((await checkLedger(one.db)).mismatches).toEqual([]);
  });
});
