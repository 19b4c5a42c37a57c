import type { DatabaseHandle } from "@platform/db/client";
import { appointment, auditLog, pointEntry } from "@platform/db/schema";
import { insertTestStores } from "@platform/testing/stores";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AuditContext } from "../audit/audit.server";
import { changeRules } from "../loyalty/rules.server";
import { ledgerTotals, newMember } from "../loyalty/testing.server";
import { createTestStaff } from "../staff/testing.server";
import { bookTestAppointment } from "./testing.server";
import { checkIn } from "./visits.server";

/**
 * Two tills check the same booking in at the same moment, over two instances (PostgreSQL only: PGlite has one
 * connection): one check-in, one audit row, one kept-visit points entry; the other is told it was already done.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("showroom_check_in", (pair) => {
  ({ one, two } = pair);
});

const STORE = "race-store";
const NOW = new Date("2026-12-07T03:00:00.000Z");

describe("two check-ins of one booking at once", () => {
  it("one wins; one points entry; the other answers `already`", async () => {
    await insertTestStores(one.db, [STORE]);
    await changeRules(one.db, { keptVisitEnabled: true, keptVisitPoints: 40 }, new Date(NOW.getTime() - 60_000));
    const staff = await createTestStaff(one.db, "x".repeat(32), { role: "staff", storeIds: [STORE] });
    const actor = { ...staff.actor, currentStoreId: STORE };
    const audit: AuditContext = {
      actorType: "staff",
      userId: actor.userId,
      role: actor.role,
      storeId: STORE,
      ip: null,
      userAgent: null,
      requestId: null,
    };
    for (let round = 0; round < 5; round++) {
      const m = await newMember(one.db);
      const visit = await bookTestAppointment(one.db, {
        storeId: STORE,
        startsAt: new Date("2026-12-07T06:00:00.000Z"),
        memberId: m.id,
      });
      const results = await Promise.all(
        [one, two, one, two].map((instance) => checkIn(instance.db, actor, STORE, visit.id, audit, NOW)),
      );
      expect(results.filter((r) => !r.already)).toHaveLength(1);
      expect(results.filter((r) => r.already)).toHaveLength(3);
      const entries = await one.db
        .select()
        .from(pointEntry)
        .where(eq(pointEntry.idempotencyKey, `visit:${visit.id}`));
      expect(entries).toHaveLength(1);
      expect(await ledgerTotals(one.db, m.id)).toMatchObject({ balance: 40, ledgerSum: 40 });
      const audits = await one.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "appointment.checked_in"), eq(auditLog.targetId, visit.id)));
      expect(audits).toHaveLength(1);
      const [row] = await one.db.select().from(appointment).where(eq(appointment.id, visit.id));
      expect(row).toMatchObject({ status: "checked_in", version: 2 });
    }
  });
});
