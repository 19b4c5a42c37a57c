import { randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import { auditLog, member, purchase, reward, staffAccount } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AuditContext } from "../audit/audit.server";
import { verifyAuditChain } from "../audit/audit.server";
import { LoyaltyError } from "../loyalty/errors";
import { adjustPoints } from "../loyalty/points.server";
import { recordPurchase, refundPurchase } from "../loyalty/purchases.server";
import { redeemReward, useCoupon } from "../loyalty/rewards.server";
import { newMember } from "../loyalty/testing.server";
import { clerkReportStores, clerkSales, consultantMembers, taipeiRange } from "../reports/clerks.server";
import type { StaffActor } from "./actor";
import { bindConsultant, clerkOfStaffCode, consultantChoices, normalStaffCode, setStaffCode } from "./clerk.server";
import { StaffError } from "./errors";
import { createTestStaff, testAdminActor } from "./testing.server";

/**
 * The clerk on the sale (issue 36 item 3, ADR 042) through the domain functions: staff codes (format, uniqueness,
 * audit), the till's code resolved at its store, the consultant binding (who may, the audit row), and the clerks'
 * report on a known set of purchases around Taipei midnight.
 */
let db: Database;
useMigratedTestDatabase("clerk", (handle) => {
  db = handle.db;
});

const SECRET = "test-session-secret-with-enough-length-0123456789";
const taipei = (local: string) => new Date(`${local}+08:00`);
const { actor: admin, audit } = testAdminActor();
const auditOf = (a: StaffActor): AuditContext => ({
  actorType: "staff",
  userId: a.userId,
  role: a.role,
  storeId: a.currentStoreId,
  ip: null,
  userAgent: null,
  requestId: null,
});

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return null;
}

/** The status of a thrown console answer (`data(…, { status })`), or null. */
const statusOf = (error: unknown) => (error as { init?: { status?: number } } | null)?.init?.status ?? null;

const auditRows = (action: string, targetId: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)));

describe("staff codes", () => {
  it("normalises the format: 4–6 letters or digits, any case, trimmed", () => {
    expect(normalStaffCode(" a12b ")).toBe("A12B");
    expect(normalStaffCode("123456")).toBe("123456");
    for (const bad of ["", "abc", "1234567", "12 34", "12-4", "ＡＢＣＤ", "12\u000034"]) {
      expect(normalStaffCode(bad)).toBeNull();
    }
  });

  it("are set by an admin, unique, refused when malformed, audited once per change", async () => {
    const anna = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["S01"], displayName: "安娜" });
    const ben = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["S01"], displayName: "班" });
    await setStaffCode(db, admin, anna.userId, "an01", audit);
    const [row] = await db.select().from(staffAccount).where(eq(staffAccount.userId, anna.userId));
    expect(row?.staffCode).toBe("AN01");
    // The same again changes nothing and writes no second row.
    await setStaffCode(db, admin, anna.userId, "AN01", audit);
    const rows = await auditRows("staff.code_changed", anna.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.changes).toEqual({ staffCode: { before: null, after: "AN01" } });

    const taken = await rejection(() => setStaffCode(db, admin, ben.userId, " an01", audit));
    expect(taken).toBeInstanceOf(StaffError);
    expect((taken as StaffError).code).toBe("staff_code_taken");
    const malformed = await rejection(() => setStaffCode(db, admin, ben.userId, "a b", audit));
    expect((malformed as StaffError).code).toBe("invalid_staff_code");
    expect(await auditRows("staff.code_changed", ben.userId)).toHaveLength(0);

    // Two admins saving one code for two people at once: one wins, the other is told it is taken.
    const results = await Promise.allSettled([
      setStaffCode(db, admin, ben.userId, "RACE1", audit),
      setStaffCode(
        db,
        admin,
        (await createTestStaff(db, SECRET, { role: "staff", storeIds: ["S01"] })).userId,
        "RACE1",
        audit,
      ),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    // Removing the code.
    await setStaffCode(db, admin, anna.userId, "", audit);
    const [cleared] = await db.select().from(staffAccount).where(eq(staffAccount.userId, anna.userId));
    expect(cleared?.staffCode).toBeNull();
    expect(await auditRows("staff.code_changed", anna.userId)).toHaveLength(2);
  });

  it("may be set only with staff.manage", async () => {
    const manager = await createTestStaff(db, SECRET, { role: "manager", storeIds: ["S01"] });
    const clerk = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["S01"] });
    const refused = await rejection(() =>
      setStaffCode(db, manager.actor, clerk.userId, "MG01", auditOf(manager.actor)),
    );
    expect(statusOf(refused)).toBe(403);
  });

  it("name a till's clerk only at a store they work at, and not once disabled", async () => {
    const here = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["S01", "S02"] });
    const elsewhere = await createTestStaff(db, SECRET, { role: "manager", storeIds: ["S03"] });
    await setStaffCode(db, admin, here.userId, "HERE1", audit);
    await setStaffCode(db, admin, elsewhere.userId, "ELSE1", audit);
    expect(await clerkOfStaffCode(db, "here1", "S02")).toBe(here.userId);
    for (const [code, storeId] of [
      ["ELSE1", "S01"],
      ["NOPE1", "S01"],
      ["x", "S01"],
    ] as const) {
      const refused = await rejection(() => clerkOfStaffCode(db, code, storeId));
      expect(refused).toBeInstanceOf(LoyaltyError);
      expect((refused as LoyaltyError).code).toBe("staff_code_unknown");
      expect((refused as LoyaltyError).status).toBe(422);
    }
    await db.update(staffAccount).set({ disabledAt: new Date() }).where(eq(staffAccount.userId, here.userId));
    expect(((await rejection(() => clerkOfStaffCode(db, "HERE1", "S01"))) as LoyaltyError).code).toBe(
      "staff_code_unknown",
    );
  });
});

describe("the member's consultant", () => {
  it("is bound by a clerk to themselves or a colleague of their store, audited, never to another store's staff", async () => {
    const clerk = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["C01"], displayName: "甲顧問" });
    const colleague = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["C01"], displayName: "乙顧問" });
    const stranger = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["C02"], displayName: "丙顧問" });
    const m = await newMember(db);
    expect((await bindConsultant(db, clerk.actor, m.id, clerk.userId, auditOf(clerk.actor))).changed).toBe(true);
    expect((await bindConsultant(db, clerk.actor, m.id, clerk.userId, auditOf(clerk.actor))).changed).toBe(false);
    await bindConsultant(db, clerk.actor, m.id, colleague.userId, auditOf(clerk.actor));
    const rows = await auditRows("member.consultant_changed", m.id);
    expect(rows.map((r) => r.changes)).toEqual([
      { consultantUserId: { before: null, after: clerk.userId } },
      { consultantUserId: { before: clerk.userId, after: colleague.userId } },
    ]);
    expect(rows.every((r) => r.actorUserId === clerk.userId)).toBe(true);

    // Another store's staff: refused with the console's 403, nothing changed.
    const refused = await rejection(() => bindConsultant(db, clerk.actor, m.id, stranger.userId, auditOf(clerk.actor)));
    expect(statusOf(refused)).toBe(403);
    // The stranger may not take away a member bound at another store either.
    const removal = await rejection(() => bindConsultant(db, stranger.actor, m.id, null, auditOf(stranger.actor)));
    expect(statusOf(removal)).toBe(403);
    const [after] = await db.select().from(member).where(eq(member.id, m.id));
    expect(after?.consultantUserId).toBe(colleague.userId);

    // An unknown person, a disabled one, an unknown member.
    expect(((await rejection(() => bindConsultant(db, admin, m.id, "nobody", audit))) as StaffError).code).toBe(
      "staff_not_found",
    );
    await db.update(staffAccount).set({ disabledAt: new Date() }).where(eq(staffAccount.userId, stranger.userId));
    expect(((await rejection(() => bindConsultant(db, admin, m.id, stranger.userId, audit))) as StaffError).code).toBe(
      "staff_not_found",
    );
    expect(
      ((await rejection(() => bindConsultant(db, admin, "not-a-uuid", clerk.userId, audit))) as LoyaltyError).code,
    ).toBe("member_not_found");
    // An admin binds to anyone enabled.
    await bindConsultant(db, admin, m.id, clerk.userId, audit);
    expect(await auditRows("member.consultant_changed", m.id)).toHaveLength(3);
    expect((await verifyAuditChain(db)).ok).toBe(true);

    // The counter offers the store's enabled staff, the clerk first.
    const choices = await consultantChoices(db, clerk.actor, "C01");
    expect(choices.map((c) => c.userId)).toEqual([clerk.userId, colleague.userId]);
  });
});

describe("the clerks' report", () => {
  it("adds up sales, points and new members per clerk and store within Taipei days", async () => {
    const a = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["R01"], displayName: "報表甲" });
    const b = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["R01", "R02"], displayName: "報表乙" });
    const newcomer = await newMember(db, { createdAt: taipei("2026-03-01T00:00:00") });
    const regular = await newMember(db, { createdAt: taipei("2025-06-01T12:00:00") });
    const lateSignup = await newMember(db, { createdAt: taipei("2026-02-28T23:59:00") });
    const book = async (
      m: { id: string },
      clerk: string | null,
      storeId: string,
      amount: number,
      at: Date,
      n: string,
    ) =>
      recordPurchase(
        db,
        { memberId: m.id, storeId, receiptNumber: n, netAmount: amount, purchasedAt: at, staffUserId: clerk },
        at,
      );
    // 23:59:59 on 28 February Taipei: outside a range starting 1 March.
    await book(regular, a.userId, "R01", 9_999, taipei("2026-02-28T23:59:59"), "R-before");
    // 00:00 on 1 March Taipei (16:00 UTC on 28 February): inside; the newcomer's first purchase, by A.
    const first = await book(newcomer, a.userId, "R01", 10_000, taipei("2026-03-01T00:00:00"), "R-1");
    await book(regular, a.userId, "R01", 2_500, taipei("2026-03-02T12:00:00"), "R-2");
    // The newcomer's second purchase, by B: not a new member for B.
    await book(newcomer, b.userId, "R01", 3_000, taipei("2026-03-03T18:00:00"), "R-3");
    // B at the other store, 23:59 on the range's last day: inside.
    await book(regular, b.userId, "R02", 4_000, taipei("2026-03-05T23:59:00"), "R-4");
    // 00:00 the day after: outside.
    await book(regular, b.userId, "R02", 7_000, taipei("2026-03-06T00:00:00"), "R-after");
    // No clerk (a till that sent no code): not in the report.
    await book(regular, null, "R01", 8_000, taipei("2026-03-02T13:00:00"), "R-none");
    // Signed up the day before the range, first purchase in it: not a new member of the range.
    await book(lateSignup, b.userId, "R01", 1_000, taipei("2026-03-04T10:00:00"), "R-5");
    // A partial refund of R-1: the amount and the points are net of it.
    const refund = await refundPurchase(
      db,
      { purchaseId: first.purchase.id, amount: 4_000, idempotencyKey: "clerk-refund" },
      taipei("2026-03-02T09:00:00"),
    );

    const range = { from: "2026-03-01", to: "2026-03-05" };
    expect(taipeiRange(range.from, range.to)).toEqual({
      start: new Date("2026-02-28T16:00:00Z"),
      end: new Date("2026-03-05T16:00:00Z"),
    });
    const rows = await clerkSales(db, ["R01", "R02"], range);
    const earned = async (receipt: string) =>
      (await db.select().from(purchase).where(eq(purchase.receiptNumber, receipt)))[0]?.pointsEarned ?? 0;
    const pts = async (...receipts: string[]) => (await Promise.all(receipts.map(earned))).reduce((x, y) => x + y, 0);
    expect(rows).toEqual([
      {
        staffUserId: a.userId,
        displayName: "報表甲",
        storeId: "R01",
        purchases: 2,
        amount: 10_000 - 4_000 + 2_500,
        points: (await pts("R-1", "R-2")) - refund.pointsReversed,
        newMembers: 1,
      },
      {
        staffUserId: b.userId,
        displayName: "報表乙",
        storeId: "R01",
        purchases: 2,
        amount: 3_000 + 1_000,
        points: await pts("R-3", "R-5"),
        newMembers: 0,
      },
      {
        staffUserId: b.userId,
        displayName: "報表乙",
        storeId: "R02",
        purchases: 1,
        amount: 4_000,
        points: await pts("R-4"),
        newMembers: 0,
      },
    ]);
    expect(refund.pointsReversed).toBeGreaterThan(0);
    // One store only; and a one-day range at each edge.
    expect((await clerkSales(db, ["R02"], range)).map((r) => r.purchases)).toEqual([1]);
    expect((await clerkSales(db, ["R01"], { from: "2026-02-28", to: "2026-02-28" })).map((r) => r.amount)).toEqual([
      9_999,
    ]);
    expect((await clerkSales(db, ["R02"], { from: "2026-03-06", to: "2026-03-06" })).map((r) => r.amount)).toEqual([
      7_000,
    ]);
    // A clerk's stores are theirs only; an admin's are every store.
    expect(await clerkReportStores(db, b.actor)).toEqual(["R01", "R02"]);
  });

  it("lists a consultant's members with their last visit, most recent first", async () => {
    const c = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["L01"] });
    const recent = await newMember(db);
    const earlier = await newMember(db);
    const never = await newMember(db);
    for (const m of [recent, earlier, never]) await bindConsultant(db, c.actor, m.id, c.userId, auditOf(c.actor));
    const at1 = taipei("2026-03-01T10:00:00");
    const at2 = taipei("2026-03-03T20:30:00");
    await recordPurchase(
      db,
      { memberId: earlier.id, storeId: "L01", receiptNumber: "L-1", netAmount: 100, purchasedAt: at1 },
      at1,
    );
    await recordPurchase(
      db,
      { memberId: recent.id, storeId: "L09", receiptNumber: "L-2", netAmount: 100, purchasedAt: at2 },
      at2,
    );
    expect(
      (await consultantMembers(db, c.userId)).map((m) => [m.memberId, m.lastVisitAt?.toISOString() ?? null]),
    ).toEqual([
      [recent.id, at2.toISOString()],
      [earlier.id, at1.toISOString()],
      [never.id, null],
    ]);
    // A coupon used at a counter is a visit too: the earlier member's visit moves to 4 March.
    await adjustPoints(db, { memberId: earlier.id, amount: 500, reason: "test", idempotencyKey: "clerk-adj" }, at1);
    const rewardId = randomUUID();
    await db.insert(reward).values({ id: rewardId, name: "贈品", kind: "gift", pointsCost: 100 });
    const at3 = taipei("2026-03-04T09:15:00");
    const issued = await redeemReward(db, { memberId: earlier.id, rewardId, idempotencyKey: "clerk-r1" }, at1);
    await useCoupon(db, { code: issued.coupon.code, storeId: "L01" }, at3);
    expect(
      (await consultantMembers(db, c.userId)).map((m) => [m.memberId, m.lastVisitAt?.toISOString() ?? null]),
    ).toEqual([
      [earlier.id, at3.toISOString()],
      [recent.id, at2.toISOString()],
      [never.id, null],
    ]);
  });
});
