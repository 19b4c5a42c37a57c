import type { Database } from "@platform/db/client";
import { auditLog, pointAdjustment, pointEntry } from "@platform/db/schema";
import { waitFor } from "@platform/testing/wait";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../app/domain/audit/audit.server";
import { requestAdjustment } from "../app/domain/loyalty/adjustments.server";
import { memberPoints } from "../app/domain/loyalty/points.server";
import { newMember } from "../app/domain/loyalty/testing.server";
import { staffAuditContext } from "../app/domain/staff/actor";
import { MANAGER_DAILY_ADJUSTMENT_FACTOR } from "../app/domain/staff/permissions";
import { createTestStaff, type TestStaff } from "../app/domain/staff/testing.server";
import { endOfTaipeiDay } from "../app/lib/time";
import { type AppInstance, type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Four-eyes approval under a race (issue 13, ADR 023): two instances of the full app on ONE PostgreSQL
 * database; two admins send 20 approvals of the same pending adjustment at once, spread over both
 * instances. The decision is one conditional update, so the adjustment books exactly once, with one
 * ledger entry and one audit row. And a manager's limit is cumulative (issue 33 item 3): 20 adjustments
 * at once, each within the limit, book only up to the limit per member and per manager per Taipei day;
 * the rest wait for approval. PostgreSQL only (PGlite is one process and cannot race).
 */
let apps: DevApps;
let instances: AppInstance[] = [];
let db: Database;
let secret: string;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test" }, { label: "adjust_race", poolMax: 20 });
  instances = apps.instances;
  const [first] = instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  secret = first.running.config.secrets.session;
}, 180_000);

afterAll(() => apps?.stop(), 120_000);

describe("approving one pending adjustment 20 times at once on two instances", () => {
  it("books it exactly once, with one ledger entry and one audit approval row", async () => {
    const where = { ip: null, userAgent: "vitest", requestId: null };
    const member = await newMember(db);
    const manager = await createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const admins = [
      await createTestStaff(db, secret, { role: "admin" }),
      await createTestStaff(db, secret, { role: "admin" }),
    ];
    const pending = await requestAdjustment(
      db,
      manager.actor,
      { memberId: member.id, amount: 4_000, reason: "correction", detail: "race", requestKey: crypto.randomUUID() },
      staffAuditContext(manager.actor, where),
    );
    expect(pending.status).toBe("pending");

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const instance = instances[i % 2]!;
        const admin = admins[Math.floor(i / 2) % 2]!;
        return fetch(`${instance.base}/admin/approvals`, {
          method: "POST",
          body: new URLSearchParams({ adjustmentId: pending.adjustment.id, intent: "approve" }),
          headers: { origin: instance.base, cookie: `han_console=${admin.token}` },
          redirect: "manual",
        });
      }),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(responses.find((r) => r.status === 302)?.headers.get("location")).toBe("/admin/approvals?done=approved");

    const points = await memberPoints(db, member.id);
    expect(points.balance).toBe(4_000);
    const entries = await db
      .select()
      .from(pointEntry)
      .where(and(eq(pointEntry.memberId, member.id), eq(pointEntry.kind, "adjust")));
    expect(entries).toHaveLength(1);
    const [row] = await db.select().from(pointAdjustment).where(eq(pointAdjustment.id, pending.adjustment.id));
    expect(row).toMatchObject({ status: "booked", entryId: entries[0]?.id });
    expect(admins.map((a) => a.userId)).toContain(row?.decidedBy);
    const approvals = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, pending.adjustment.id), eq(auditLog.action, "points.adjustment_approved")));
    expect(approvals).toHaveLength(1);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  }, 120_000);
});

/** 20 adjustment forms posted at once, spread over both instances, each with its own request key. */
async function burstOfAdjustments(manager: TestStaff, memberIds: readonly string[], amount: number) {
  // The cumulative limits count per Taipei day: never start a burst in the day's last minute.
  await waitFor(
    async () => endOfTaipeiDay(new Date()).getTime() - Date.now(),
    (left) => left > 60_000,
    70_000,
    500,
  );
  return Promise.all(
    memberIds.map((memberId, i) => {
      const instance = instances[i % 2]!;
      return fetch(`${instance.base}/admin/members/${memberId}/adjust`, {
        method: "POST",
        body: new URLSearchParams({
          amount: String(amount),
          reason: "goodwill",
          detail: "",
          requestKey: crypto.randomUUID(),
        }),
        headers: { origin: instance.base, cookie: `han_console=${manager.token}` },
        redirect: "manual",
      });
    }),
  );
}

describe("a manager's limit is cumulative: splitting does not skip four-eyes (issue 33 item 3)", () => {
  it("20 adjustments of 1,000 for one member at once: exactly one books, 19 wait for approval", async () => {
    const member = await newMember(db);
    const manager = await createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const responses = await burstOfAdjustments(
      manager,
      Array.from({ length: 20 }, () => member.id),
      1_000,
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(302));
    const rows = await db.select().from(pointAdjustment).where(eq(pointAdjustment.requestedBy, manager.userId));
    expect(rows).toHaveLength(20);
    expect(rows.filter((r) => r.status === "booked")).toHaveLength(1);
    expect(rows.filter((r) => r.status === "pending")).toHaveLength(19);
    expect((await memberPoints(db, member.id)).balance).toBe(1_000);
    const entries = await db
      .select()
      .from(pointEntry)
      .where(and(eq(pointEntry.memberId, member.id), eq(pointEntry.kind, "adjust")));
    expect(entries).toHaveLength(1);
    const requested = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, member.id), eq(auditLog.action, "points.adjustment_requested")));
    expect(requested).toHaveLength(19);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });

    // One more the same day, even a small one, waits too; a different manager still has their own room.
    const where = { ip: null, userAgent: "vitest", requestId: null };
    const small = await requestAdjustment(
      db,
      manager.actor,
      { memberId: member.id, amount: -1, reason: "correction", detail: "", requestKey: crypto.randomUUID() },
      staffAuditContext(manager.actor, where),
    );
    expect(small.status).toBe("pending");
    const other = await createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const own = await requestAdjustment(
      db,
      other.actor,
      { memberId: member.id, amount: 1_000, reason: "correction", detail: "", requestKey: crypto.randomUUID() },
      staffAuditContext(other.actor, where),
    );
    expect(own.status).toBe("booked");
  }, 120_000);

  it("20 adjustments of 1,000 for 20 members at once: the manager's daily total books, the rest wait", async () => {
    const members = await Promise.all(Array.from({ length: 20 }, () => newMember(db)));
    const manager = await createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const responses = await burstOfAdjustments(
      manager,
      members.map((m) => m.id),
      1_000,
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(302));
    const rows = await db.select().from(pointAdjustment).where(eq(pointAdjustment.requestedBy, manager.userId));
    const booked = rows.filter((r) => r.status === "booked");
    expect(booked).toHaveLength(MANAGER_DAILY_ADJUSTMENT_FACTOR);
    expect(rows.filter((r) => r.status === "pending")).toHaveLength(20 - MANAGER_DAILY_ADJUSTMENT_FACTOR);
    const entries = await db
      .select()
      .from(pointEntry)
      .where(
        and(
          inArray(
            pointEntry.memberId,
            members.map((m) => m.id),
          ),
          eq(pointEntry.kind, "adjust"),
        ),
      );
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(MANAGER_DAILY_ADJUSTMENT_FACTOR * 1_000);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  }, 120_000);
});
