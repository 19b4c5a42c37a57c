import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, loyaltyAccount, tradeApplication } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newMember } from "../loyalty/testing.server";
import { isRefusal } from "../refusals";
import { testAdminActor } from "../staff/testing.server";
import { applyForTrade, decideTradeApplication } from "./trade.server";

/**
 * Trade account races on PostgreSQL (issue 38 part 2, ADR 057), two handles standing in for two app instances: two
 * admins deciding one application at once (approve/reject, approve/approve) give one decision, and the other is
 * refused with the stable code `already_decided`; two applications of one member at once give one.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("trade_race", (pair) => {
  ({ one, two } = pair);
});

const first = testAdminActor("admin-one");
const second = testAdminActor("admin-two");

const apply = (handle: DatabaseHandle, memberId: string) =>
  applyForTrade(handle.db, { memberId, taxIdNumber: "04595257", companyName: "統包工程行", kind: "contractor" });

describe("trade account races on PostgreSQL", () => {
  it("two admins decide one application at once over two instances: one wins", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 6; round++) {
      const m = await newMember(one.db);
      const id = await apply(one, m.id);
      const rejectOnSecond = round % 2 === 0;
      const outcomes = await Promise.allSettled([
        decideTradeApplication(one.db, first.actor, { applicationId: id, decision: "approve" }, first.audit),
        decideTradeApplication(
          two.db,
          second.actor,
          rejectOnSecond
            ? { applicationId: id, decision: "reject", reason: "資料不全" }
            : { applicationId: id, decision: "approve" },
          second.audit,
        ),
      ]);
      const won = outcomes.filter((o) => o.status === "fulfilled");
      const lost = outcomes.filter((o) => o.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      const reason = (lost[0] as PromiseRejectedResult).reason;
      expect(isRefusal(reason, "trade") && reason.code).toBe("already_decided");
      const [row] = await one.db.select().from(tradeApplication).where(eq(tradeApplication.id, id));
      const [account] = await one.db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
      expect(account?.trade ?? false).toBe(row?.state === "approved");
      const audits = await one.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetType, "trade_application"), eq(auditLog.targetId, id)));
      expect(audits).toHaveLength(1);
      expect(audits[0]?.action).toBe(`trade.${row?.state}`);
    }
  });

  it("two applications of one member at once over two instances: one is kept", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 5; round++) {
      const m = await newMember(one.db);
      const outcomes = await Promise.allSettled([apply(one, m.id), apply(two, m.id)]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const lost = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(isRefusal(lost.reason, "trade") && lost.reason.code).toBe("already_pending");
      const rows = await one.db.select().from(tradeApplication).where(eq(tradeApplication.memberId, m.id));
      expect(rows).toHaveLength(1);
    }
  });
});
