import type { Database } from "@platform/db/client";
import { auditLog, pointAdjustment, staffSession } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type AuditContext, verifyAuditChain } from "../audit/audit.server";
import { seedCatalog } from "../demo";
import { staffAuditContext } from "../staff/actor";
import { CONSOLE_SESSION_POLICY, giveSecondFactor } from "../staff/sessions.server";
import { managerAdjustmentLimit, setManagerAdjustmentLimit } from "../staff/settings.server";
import { createTestStaff, type TestStaff } from "../staff/testing.server";
import { base32Decode, hotp, totpStep } from "../staff/totp";
import { approveAdjustment, pendingAdjustments, rejectAdjustment, requestAdjustment } from "./adjustments.server";
import { adjustPoints, memberPoints } from "./points.server";
import { ledgerTotals, newMember } from "./testing.server";

let db: Database;
useMigratedTestDatabase("adjustments", (handle) => {
  db = handle.db;
});

const SECRET = "test-session-secret-with-enough-length-0123456789";
const where = { ip: "198.51.100.9", userAgent: "vitest", requestId: "req-adjust" };
const T0 = new Date("2026-03-02T01:00:00Z");
let manager: TestStaff;
let admin: TestStaff;
let admin2: TestStaff;
let clerk: TestStaff;
let key = 0;
const audit = (s: TestStaff): AuditContext => staffAuditContext(s.actor, where);
const nextKey = () => `form-${++key}`;

async function failure(run: () => Promise<unknown>): Promise<{ code?: string; status?: number } | null> {
  try {
    await run();
  } catch (error) {
    const e = error as { code?: string; status?: number; init?: { status?: number } };
    return { code: e.code, status: e.status ?? e.init?.status };
  }
  return null;
}

async function auditActions(targetId: string): Promise<string[]> {
  const rows = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, targetId));
  return rows.map((r) => r.action);
}

beforeAll(async () => {
  await seedCatalog(db);
  manager = await createTestStaff(db, SECRET, { role: "manager", storeIds: ["xinyi-flagship"] });
  admin = await createTestStaff(db, SECRET, { role: "admin" });
  admin2 = await createTestStaff(db, SECRET, { role: "admin" });
  clerk = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["xinyi-flagship"] });
});

describe("point adjustments", () => {
  it("a manager books within the limit at once, with its audit row", async () => {
    const m = await newMember(db);
    const result = await requestAdjustment(
      db,
      manager.actor,
      { memberId: m.id, amount: 300, reason: "goodwill", detail: "延誤交貨", requestKey: nextKey() },
      audit(manager),
      T0,
    );
    expect(result).toMatchObject({ status: "booked", balance: 300, replay: false });
    expect((await memberPoints(db, m.id)).entries[0]).toMatchObject({
      kind: "adjust",
      amount: 300,
      reason: "goodwill: 延誤交貨",
      staffUserId: manager.userId,
      storeId: "xinyi-flagship",
    });
    expect(await auditActions(m.id)).toEqual(["points.adjusted"]);
    expect(await ledgerTotals(db, m.id)).toMatchObject({ balance: 300, ledgerSum: 300 });
  });

  it("the same form sent twice books once", async () => {
    const m = await newMember(db);
    const input = { memberId: m.id, amount: 50, reason: "correction" as const, detail: "", requestKey: nextKey() };
    await requestAdjustment(db, manager.actor, input, audit(manager), T0);
    const again = await requestAdjustment(db, manager.actor, input, audit(manager), T0);
    expect(again).toMatchObject({ replay: true, balance: 50 });
    expect(
      await failure(() => requestAdjustment(db, manager.actor, { ...input, amount: 51 }, audit(manager), T0)),
    ).toMatchObject({ code: "idempotency_conflict" });
    expect(await auditActions(m.id)).toEqual(["points.adjusted"]);
  });

  it("above the manager's limit it waits; a second admin approves it once; the requester cannot", async () => {
    const m = await newMember(db);
    const requested = await requestAdjustment(
      db,
      manager.actor,
      { memberId: m.id, amount: 1_001, reason: "correction", detail: "漏登", requestKey: nextKey() },
      audit(manager),
      T0,
    );
    expect(requested).toMatchObject({ status: "pending", balance: 0 });
    expect((await memberPoints(db, m.id)).balance).toBe(0);
    const list = await pendingAdjustments(db, admin.actor);
    expect(list.find((p) => p.id === requested.adjustment.id)).toMatchObject({
      amount: 1_001,
      requesterName: manager.displayName,
      storeName: { "zh-TW": "信義旗艦店" },
    });
    // A manager cannot approve at all (403 from the one check).
    expect(
      await failure(() => approveAdjustment(db, manager.actor, requested.adjustment.id, audit(manager), T0)),
    ).toMatchObject({ status: 403 });
    const approved = await approveAdjustment(db, admin.actor, requested.adjustment.id, audit(admin), T0);
    expect(approved.balance).toBe(1_001);
    expect(
      await failure(() => approveAdjustment(db, admin2.actor, requested.adjustment.id, audit(admin2), T0)),
    ).toMatchObject({ code: "adjustment_decided", status: 409 });
    expect(await ledgerTotals(db, m.id)).toMatchObject({ balance: 1_001, ledgerSum: 1_001 });
    expect(await auditActions(requested.adjustment.id)).toEqual(["points.adjustment_approved"]);
  });

  it("an admin's own large adjustment books at once; an admin's pending request is never approved by them", async () => {
    const m = await newMember(db);
    expect(
      await requestAdjustment(
        db,
        admin.actor,
        { memberId: m.id, amount: 50_000, reason: "promotion", detail: "", requestKey: nextKey() },
        audit(admin),
        T0,
      ),
    ).toMatchObject({ status: "booked", balance: 50_000 });
    // A pending request by an admin (e.g. made as a manager before a promotion) is not theirs to approve.
    const [row] = await db
      .insert(pointAdjustment)
      .values({
        requestKey: nextKey(),
        memberId: m.id,
        amount: 2_000,
        reason: "other",
        detail: "x",
        status: "pending",
        requestedBy: admin.userId,
        requestedRole: "manager",
        requestedAt: T0,
      })
      .returning();
    expect(await failure(() => approveAdjustment(db, admin.actor, row!.id, audit(admin), T0))).toMatchObject({
      code: "own_adjustment",
      status: 403,
    });
    // The database refuses it too, whatever a caller does.
    expect(
      await failure(() =>
        db
          .update(pointAdjustment)
          .set({ status: "booked", decidedBy: admin.userId })
          .where(eq(pointAdjustment.id, row!.id)),
      ),
    ).not.toBeNull();
    // Withdrawing (rejecting) one's own request is allowed and books nothing.
    await rejectAdjustment(db, admin.actor, row!.id, audit(admin), T0);
    expect(await failure(() => approveAdjustment(db, admin2.actor, row!.id, audit(admin2), T0))).toMatchObject({
      code: "adjustment_decided",
    });
    expect((await memberPoints(db, m.id)).balance).toBe(50_000);
    expect(await auditActions(row!.id)).toEqual(["points.adjustment_rejected"]);
  });

  it("refuses what must not book: table of bad requests", async () => {
    const m = await newMember(db);
    await adjustPoints(db, { memberId: m.id, amount: 100, reason: "seed", idempotencyKey: "seed" }, T0);
    const disabled = await newMember(db, { disabled: true });
    const cases: [string, () => Promise<unknown>, { code?: string; status?: number }][] = [
      ["zero", () => req(manager, m.id, 0), { code: "invalid_amount" }],
      ["fractional", () => req(manager, m.id, 1.5), { code: "invalid_amount" }],
      ["huge", () => req(manager, m.id, 10_000_001), { code: "invalid_amount" }],
      ["NaN", () => req(manager, m.id, Number.NaN), { code: "invalid_amount" }],
      ["below zero", () => req(manager, m.id, -101), { code: "insufficient_points" }],
      ["below zero, pending", () => req(manager, m.id, -5_000), { code: "insufficient_points" }],
      ["unknown member", () => req(manager, "00000000-0000-4000-8000-000000000000", 10), { code: "member_not_found" }],
      ["not a uuid", () => req(manager, "'; drop table member; --", 10), { code: "member_not_found" }],
      ["disabled member", () => req(manager, disabled.id, 10), { code: "member_disabled" }],
      ["clerk", () => req(clerk, m.id, 10), { status: 403 }],
      [
        "manager without a store",
        () => req({ ...manager, actor: { ...manager.actor, storeIds: [], currentStoreId: null } }, m.id, 10),
        { status: 403 },
      ],
      [
        "approve unknown",
        () => approveAdjustment(db, admin.actor, "00000000-0000-4000-8000-000000000000", audit(admin), T0),
        { code: "adjustment_not_found" },
      ],
      [
        "approve not a uuid",
        () => approveAdjustment(db, admin.actor, "nope", audit(admin), T0),
        { code: "adjustment_not_found" },
      ],
    ];
    for (const [name, run, expected] of cases) {
      expect(await failure(run), name).toMatchObject(expected);
    }
    expect(await ledgerTotals(db, m.id)).toMatchObject({ balance: 100, ledgerSum: 100 });
    const rows = await db.select().from(pointAdjustment).where(eq(pointAdjustment.memberId, m.id));
    expect(rows).toEqual([]);
    expect(await auditActions(m.id)).toEqual([]);
  });

  it("an approval that would take the balance below zero stays pending", async () => {
    const m = await newMember(db);
    await adjustPoints(db, { memberId: m.id, amount: 3_000, reason: "seed", idempotencyKey: "seed" }, T0);
    const requested = await req(manager, m.id, -2_500);
    expect(requested.status).toBe("pending");
    await adjustPoints(db, { memberId: m.id, amount: -1_000, reason: "spent", idempotencyKey: "spent" }, T0);
    expect(
      await failure(() => approveAdjustment(db, admin.actor, requested.adjustment.id, audit(admin), T0)),
    ).toMatchObject({ code: "insufficient_points" });
    const [row] = await db.select().from(pointAdjustment).where(eq(pointAdjustment.id, requested.adjustment.id));
    expect(row).toMatchObject({ status: "pending", decidedBy: null });
    expect(await auditActions(requested.adjustment.id)).toEqual([]);
  });

  it("the manager's limit is an admin setting (default 1,000), audited", async () => {
    expect(await managerAdjustmentLimit(db)).toBe(1_000);
    expect(await failure(() => setManagerAdjustmentLimit(db, manager.actor, 5_000, audit(manager), T0))).toMatchObject({
      status: 403,
    });
    for (const bad of [-1, 1.5, 1_000_001, Number.NaN]) {
      expect(
        await failure(() => setManagerAdjustmentLimit(db, admin.actor, bad, audit(admin), T0)),
        String(bad),
      ).toMatchObject({ code: "invalid_setting" });
    }
    expect(await setManagerAdjustmentLimit(db, admin.actor, 2_000, audit(admin), T0)).toEqual({
      before: 1_000,
      after: 2_000,
    });
    const m = await newMember(db);
    expect((await req(manager, m.id, 1_500)).status).toBe("booked");
    expect((await req(manager, m.id, 2_001)).status).toBe("pending");
    await setManagerAdjustmentLimit(db, admin.actor, 1_000, audit(admin), T0);
    expect(await auditActions("points.managerAdjustmentLimit")).toEqual(["settings.changed", "settings.changed"]);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
  });
});

function req(staff: TestStaff, memberId: string, amount: number) {
  return requestAdjustment(
    db,
    staff.actor,
    { memberId, amount, reason: "correction", detail: "", requestKey: nextKey() },
    audit(staff),
    T0,
  );
}

describe("the second factor claims a try before it compares (ADR 018)", () => {
  it("sixteen simultaneous wrong codes compare at most five and end the session", async () => {
    const s = await createTestStaff(db, SECRET, { role: "manager", storeIds: ["xinyi-flagship"] });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        giveSecondFactor({ db, secret: SECRET }, s, String(100_000 + i), audit(s), T0),
      ),
    );
    expect(results.filter((r) => !r.ok && r.reason === "invalid_code").length).toBeLessThanOrEqual(
      CONSOLE_SESSION_POLICY.maxFailedCodes - 1,
    );
    expect(results.every((r) => !r.ok)).toBe(true);
    expect(await db.select().from(staffSession).where(eq(staffSession.id, s.sessionId))).toEqual([]);
  });

  it("the right code after four wrong ones is accepted and clears the count; none is accepted once spent", async () => {
    const s = await createTestStaff(db, SECRET, { role: "manager", storeIds: ["xinyi-flagship"] });
    const deps = { db, secret: SECRET };
    for (let i = 0; i < 4; i++) {
      expect(await giveSecondFactor(deps, s, "000000", audit(s), T0)).toEqual({ ok: false, reason: "invalid_code" });
    }
    const right = hotp(base32Decode(s.totpSecret), totpStep(T0));
    expect(await giveSecondFactor(deps, s, right, audit(s), T0)).toEqual({ ok: true, method: "totp" });
    const [row] = await db
      .select({ failedCodes: staffSession.failedCodes })
      .from(staffSession)
      .where(and(eq(staffSession.id, s.sessionId)));
    expect(row?.failedCodes).toBe(0);
  });
});
