import type { Database } from "@platform/db/client";
import { auditLog, importRow, importRun, member, memberMessage, pointEntry } from "@platform/db/schema";
import type { JobQueue } from "@platform/jobs/queue";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq, like } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../audit/audit.server";
import { claimLimits, limitCount } from "../auth/rate-limits.server";
import { seedCatalog } from "../demo";
import { ledgerTotals, newMember } from "../loyalty/testing.server";
import { staffAuditContext } from "../staff/actor";
import { createTestStaff, type TestStaff } from "../staff/testing.server";
import {
  applyGrant,
  approveGrant,
  cancelGrant,
  GRANT_QUEUE,
  grantAllowanceToday,
  grantDetail,
  pendingGrants,
  rejectGrant,
  stageGrantCsv,
  stageGrantFilter,
  submitGrant,
} from "./grants.server";

let db: Database;
useMigratedTestDatabase("grants", (handle) => {
  db = handle.db;
});

const SECRET = "test-session-secret-with-enough-length-0123456789";
const where = { ip: "198.51.100.7", userAgent: "vitest", requestId: "req-grant" };
const T0 = new Date("2026-03-02T02:00:00Z");
let manager: TestStaff;
let admin: TestStaff;
let admin2: TestStaff;
let clerk: TestStaff;
const audit = (s: TestStaff) => staffAuditContext(s.actor, where);

/** A job queue that only records what was sent (the tests run the worker themselves). */
const sent: { name: string; data: unknown }[] = [];
const jobs = {
  send: async (name: string, data: object) => {
    sent.push({ name, data });
    return `job-${sent.length}`;
  },
} as unknown as JobQueue;

const csv = (text: string) => new TextEncoder().encode(text);

async function failure(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
  } catch (error) {
    const e = error as { code?: string; status?: number; init?: { status?: number } };
    return String(e.code ?? e.status ?? e.init?.status ?? error);
  }
  return null;
}

async function actions(runId: string): Promise<string[]> {
  const rows = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, runId));
  return rows.map((r) => r.action).sort();
}

/** The messages a grant recorded for its members (occasion `grant:<runId>:<line>`). */
async function grantMessages(runId: string) {
  return db
    .select()
    .from(memberMessage)
    .where(like(memberMessage.occasion, `grant:${runId}:%`));
}

async function grantEntries(runId: string) {
  return db
    .select()
    .from(pointEntry)
    .where(like(pointEntry.idempotencyKey, `grant:${runId}:%`));
}

beforeAll(async () => {
  await seedCatalog(db);
  manager = await createTestStaff(db, SECRET, { role: "manager", storeIds: ["xinyi-flagship"] });
  admin = await createTestStaff(db, SECRET, { role: "admin" });
  admin2 = await createTestStaff(db, SECRET, { role: "admin" });
  clerk = await createTestStaff(db, SECRET, { role: "staff", storeIds: ["xinyi-flagship"] });
});

// A manager of their own per test: a day's direct grants count against the manager limit (claimed per starter).
beforeEach(async () => {
  manager = await createTestStaff(db, SECRET, { role: "manager", storeIds: ["xinyi-flagship"] });
});

describe("bulk point grants", () => {
  it("the dry run resolves rows by member number or phone and refuses the bad ones with codes", async () => {
    const a = await newMember(db);
    const b = await newMember(db, { phoneNumber: "+886912000111" });
    const off = await newMember(db, { disabled: true });
    const gone = await newMember(db, { deletedAt: T0 });
    const file = [
      "會員編號,手機,點數,原因",
      `${a.memberNumber},,100,生日補發`,
      `,0912-000-111,"1,000",`,
      `${off.memberNumber},,10,`,
      `${gone.memberNumber},,10,`,
      "HL99999999,,10,",
      ",,10,",
      `${a.memberNumber},,5,`,
      `,0912000111,abc,`,
      `,0912000111,0,`,
      `,0912000111,100001,`,
    ].join("\r\n");
    const run = await stageGrantCsv(
      db,
      manager.actor,
      { name: "grant.csv", bytes: csv(file), reason: "活動補點", starter: audit(manager) },
      T0,
    );
    expect(run.status).toBe("checked");
    expect(run.report).toMatchObject({
      rows: 10,
      valid: 2,
      rejected: 8,
      total: 1100,
      problems: {
        member_disabled: 2,
        member_unknown: 1,
        member_missing: 1,
        duplicate_in_file: 4,
        points_invalid: 3,
      },
    });
    const detail = await grantDetail(db, run.id);
    expect(detail?.rejectedRows.map((r) => [r.line, r.problems.map((p) => p.code)])).toEqual([
      [3, ["member_disabled"]],
      [4, ["member_disabled"]],
      [5, ["member_unknown"]],
      [6, ["member_missing"]],
      [7, ["duplicate_in_file"]],
      [8, ["duplicate_in_file", "points_invalid"]],
      [9, ["duplicate_in_file", "points_invalid"]],
      [10, ["duplicate_in_file", "points_invalid"]],
    ]);
    expect(detail?.rows).toBe(10);
    const [second] = await db
      .select()
      .from(importRow)
      .where(and(eq(importRow.runId, run.id), eq(importRow.line, 2)));
    expect(second).toMatchObject({ memberId: b.id, state: "pending", record: { points: 1000, reason: "活動補點" } });
    // Nothing is booked by a dry run.
    expect(await grantEntries(run.id)).toEqual([]);
    await cancelGrant(db, manager.actor, run.id, audit(manager), T0);
  });

  it("reads a Big5 file, and refuses a file that is not a grant CSV beside the file field", async () => {
    const iconv = (await import("iconv-lite")).default;
    const m = await newMember(db);
    const big5 = iconv.encode(`會員編號,點數,原因\r\n${m.memberNumber},20,週年慶\r\n`, "big5");
    const run = await stageGrantCsv(
      db,
      manager.actor,
      { name: "big5.csv", bytes: big5, reason: "週年", starter: audit(manager) },
      T0,
    );
    expect(run.report).toMatchObject({ valid: 1, total: 20 });
    const [row] = await db.select().from(importRow).where(eq(importRow.runId, run.id));
    expect(row?.record).toMatchObject({ reason: "週年慶", points: 20 });
    await cancelGrant(db, manager.actor, run.id, audit(manager), T0);
    const bad = await failure(() =>
      stageGrantCsv(db, manager.actor, {
        name: "x.csv",
        bytes: csv("姓名,電話\n王,1\n"),
        reason: "x",
        starter: audit(manager),
      }),
    );
    expect(bad).toBe("file_invalid");
    expect(
      await failure(() =>
        stageGrantCsv(db, clerk.actor, { name: "x.csv", bytes: csv("a"), reason: "x", starter: audit(clerk) }),
      ),
    ).toBe("403");
  });

  it("within the limit it is queued at once; the job books each row once, even run twice, with one audit row", async () => {
    const a = await newMember(db);
    const b = await newMember(db);
    const file = `會員編號,點數\n${a.memberNumber},300\n${b.memberNumber},200\n`;
    const run = await stageGrantCsv(
      db,
      manager.actor,
      { name: "g.csv", bytes: csv(file), reason: "補點", starter: audit(manager) },
      T0,
    );
    expect(await submitGrant(db, jobs, manager.actor, run.id, audit(manager), T0)).toMatchObject({ status: "queued" });
    expect(sent.at(-1)).toEqual({ name: GRANT_QUEUE, data: { runId: run.id } });
    const [first, second] = await Promise.all([
      applyGrant(db, run.id, { batchSize: 1, now: () => T0 }),
      applyGrant(db, run.id, { batchSize: 1, now: () => T0 }),
    ]);
    expect([first?.status, second?.status]).toEqual(["done", "done"]);
    await applyGrant(db, run.id, { now: () => T0 });
    expect(await ledgerTotals(db, a.id)).toMatchObject({ balance: 300, ledgerSum: 300, lotsRemaining: 300 });
    expect(await ledgerTotals(db, b.id)).toMatchObject({ balance: 200, ledgerSum: 200 });
    const entries = await grantEntries(run.id);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ kind: "adjust", staffUserId: manager.userId, reason: "grant: 補點" });
    expect(await actions(run.id)).toEqual(["points.bulk_granted"]);
    const detail = await grantDetail(db, run.id);
    expect(detail).toMatchObject({ status: "done", rowsDone: 2, rowsTotal: 2, pointsBooked: 500 });
    const [row] = await db.select().from(auditLog).where(eq(auditLog.targetId, run.id));
    expect(row?.changes).toMatchObject({
      status: { after: "done" },
      booked: { after: 2 },
      total: { after: 500 },
      reason: { after: "補點" },
    });
    expect(row?.actorUserId).toBe(manager.userId);
  });

  it("above the manager limit it waits; never approved by its starter (an admin too), once by a second admin", async () => {
    const a = await newMember(db);
    const file = `手機,點數\n${a.phoneNumber.replace("+886", "0")},5000\n`;
    const run = await stageGrantCsv(
      db,
      admin.actor,
      { name: "big.csv", bytes: csv(file), reason: "大額", starter: audit(admin) },
      T0,
    );
    expect(await submitGrant(db, jobs, admin.actor, run.id, audit(admin), T0)).toEqual({
      status: "awaiting_approval",
      waitsFor: "over_limit",
      limit: 1000,
    });
    const queued = sent.length;
    expect(await failure(() => approveGrant(db, jobs, admin.actor, run.id, audit(admin), T0))).toBe("own_grant");
    expect(await failure(() => rejectGrant(db, admin.actor, run.id, audit(admin), T0))).toBe("own_grant");
    expect(await failure(() => approveGrant(db, jobs, manager.actor, run.id, audit(manager), T0))).toBe("403");
    expect(sent.length).toBe(queued);
    await approveGrant(db, jobs, admin2.actor, run.id, audit(admin2), T0);
    expect(await failure(() => approveGrant(db, jobs, admin2.actor, run.id, audit(admin2), T0))).toBe(
      "grant_wrong_state",
    );
    expect(sent.length).toBe(queued + 1);
    await applyGrant(db, run.id, { now: () => T0 });
    expect(await ledgerTotals(db, a.id)).toMatchObject({ balance: 5000 });
    expect(await actions(run.id)).toEqual([
      "points.bulk_grant_approved",
      "points.bulk_grant_requested",
      "points.bulk_granted",
    ]);
    expect(await grantDetail(db, run.id)).toMatchObject({ decidedBy: admin2.userId, status: "done" });
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("a rejected grant books nothing", async () => {
    const a = await newMember(db);
    const run = await stageGrantCsv(
      db,
      manager.actor,
      { name: "r.csv", bytes: csv(`會員編號,點數\n${a.memberNumber},2000\n`), reason: "x", starter: audit(manager) },
      T0,
    );
    await submitGrant(db, jobs, manager.actor, run.id, audit(manager), T0);
    await rejectGrant(db, admin.actor, run.id, audit(admin), T0);
    await applyGrant(db, run.id, { now: () => T0 });
    expect(await grantEntries(run.id)).toEqual([]);
    expect(await actions(run.id)).toEqual(["points.bulk_grant_rejected", "points.bulk_grant_requested"]);
  });

  it("a cancel before the job starts ends it at once with its audit row, checked or awaiting approval", async () => {
    const a = await newMember(db);
    const stage = (points: number) =>
      stageGrantCsv(
        db,
        manager.actor,
        {
          name: "k.csv",
          bytes: csv(`會員編號,點數\n${a.memberNumber},${points}\n`),
          reason: "取消",
          starter: audit(manager),
        },
        T0,
      );
    const checked = await stage(40);
    await cancelGrant(db, manager.actor, checked.id, audit(manager), T0);
    expect(await grantDetail(db, checked.id)).toMatchObject({ status: "cancelled", pointsBooked: 0 });
    expect(await actions(checked.id)).toEqual(["points.bulk_grant_cancelled"]);
    const [row] = await db.select().from(auditLog).where(eq(auditLog.targetId, checked.id));
    expect(row?.actorUserId).toBe(manager.userId);
    expect(row?.changes).toMatchObject({ status: { before: "checked", after: "cancelled" }, total: { after: 40 } });
    const waiting = await stage(3000);
    await submitGrant(db, jobs, manager.actor, waiting.id, audit(manager), T0);
    // Waiting, it is on the approvers' list (admins only), with its total and starter.
    expect(await failure(() => pendingGrants(db, manager.actor))).toBe("403");
    expect((await pendingGrants(db, admin.actor)).find((g) => g.id === waiting.id)).toMatchObject({
      status: "awaiting_approval",
      total: 3000,
      rowsTotal: 1,
      reason: "取消",
      createdBy: manager.userId,
    });
    expect((await pendingGrants(db, admin.actor)).map((g) => g.id)).not.toContain(checked.id);
    await cancelGrant(db, manager.actor, waiting.id, audit(manager), T0);
    expect(await actions(waiting.id)).toEqual(["points.bulk_grant_cancelled", "points.bulk_grant_requested"]);
    expect((await pendingGrants(db, admin.actor)).map((g) => g.id)).not.toContain(waiting.id);
    // Ended: a second cancel is refused and writes nothing.
    expect(await failure(() => cancelGrant(db, manager.actor, waiting.id, audit(manager), T0))).toBe(
      "grant_wrong_state",
    );
    expect(await actions(waiting.id)).toHaveLength(2);
    expect(await failure(() => cancelGrant(db, clerk.actor, waiting.id, audit(clerk), T0))).toBe("403");
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("grants to the members of a member-list filter, the same members as the list finds", async () => {
    const since = new Date("2025-05-05T00:00:00Z");
    const inside = [
      await newMember(db, { createdAt: new Date("2025-05-05T03:00:00Z") }),
      await newMember(db, { createdAt: new Date("2025-05-05T04:00:00Z") }),
      await newMember(db, { createdAt: new Date("2025-05-05T05:00:00Z"), disabled: true }),
    ];
    await newMember(db, { createdAt: new Date("2025-05-07T05:00:00Z") });
    const run = await stageGrantFilter(
      db,
      manager.actor,
      {
        search: { signedUpFrom: since, signedUpTo: new Date("2025-05-06T00:00:00Z") },
        filter: "from=2025-05-05&to=2025-05-05",
        points: 50,
        reason: "週年",
        starter: audit(manager),
      },
      T0,
    );
    expect(run.report).toMatchObject({ rows: 3, valid: 2, rejected: 1, total: 100 });
    await submitGrant(db, jobs, manager.actor, run.id, audit(manager), T0);
    await applyGrant(db, run.id, { now: () => T0 });
    expect((await ledgerTotals(db, inside[0]?.id as string)).balance).toBe(50);
    expect((await ledgerTotals(db, inside[2]?.id as string)).balance).toBe(0);
  });

  it("a cancel stops the job between batches: the run ends cancelled with its audit row", async () => {
    const a = await newMember(db);
    const run = await stageGrantCsv(
      db,
      manager.actor,
      { name: "c.csv", bytes: csv(`會員編號,點數\n${a.memberNumber},10\n`), reason: "x", starter: audit(manager) },
      T0,
    );
    await submitGrant(db, jobs, manager.actor, run.id, audit(manager), T0);
    await cancelGrant(db, manager.actor, run.id, audit(manager), T0);
    await applyGrant(db, run.id, { now: () => T0 });
    expect(await grantDetail(db, run.id)).toMatchObject({ status: "cancelled", pointsBooked: 0 });
    expect(await actions(run.id)).toEqual(["points.bulk_granted"]);
  });

  it("a member disabled between the dry run and the job is refused then, not booked", async () => {
    const a = await newMember(db);
    const run = await stageGrantCsv(
      db,
      manager.actor,
      { name: "d.csv", bytes: csv(`會員編號,點數\n${a.memberNumber},10\n`), reason: "x", starter: audit(manager) },
      T0,
    );
    await submitGrant(db, jobs, manager.actor, run.id, audit(manager), T0);
    await db.update(member).set({ disabled: true }).where(eq(member.id, a.id));
    await applyGrant(db, run.id, { now: () => T0 });
    expect(await grantDetail(db, run.id)).toMatchObject({ status: "done", rejectedCount: 1, pointsBooked: 0 });
    expect(
      await db
        .select()
        .from(importRow)
        .where(and(eq(importRow.runId, run.id), eq(importRow.state, "rejected"))),
    ).toHaveLength(1);
  });

  it("with 通知會員 chosen, each member booked gets one points-granted message, queued, once even when rerun", async () => {
    const a = await newMember(db);
    const b = await newMember(db);
    const off = await newMember(db);
    const file = `會員編號,點數,原因\n${a.memberNumber},300,生日補發\n${b.memberNumber},200,\n${off.memberNumber},10,\n`;
    const run = await stageGrantCsv(
      db,
      manager.actor,
      { name: "n.csv", bytes: csv(file), reason: "週年慶回饋", notify: true, starter: audit(manager) },
      T0,
    );
    expect(run.options).toMatchObject({ notify: true });
    expect(await grantDetail(db, run.id)).toMatchObject({ notify: true });
    await submitGrant(db, jobs, manager.actor, run.id, audit(manager), T0);
    // Disabled after the dry run: refused by the job, so neither points nor a message.
    await db.update(member).set({ disabled: true }).where(eq(member.id, off.id));
    await Promise.all([
      applyGrant(db, run.id, { batchSize: 1, now: () => T0 }),
      applyGrant(db, run.id, { batchSize: 1, now: () => T0 }),
    ]);
    const messages = await grantMessages(run.id);
    expect(messages.map((m) => [m.memberId, m.kind, m.purpose, m.status, m.data]).sort()).toEqual(
      [
        [a.id, "points-granted", "service", "queued", { points: 300, reason: "生日補發" }],
        [b.id, "points-granted", "service", "queued", { points: 200, reason: "週年慶回饋" }],
      ].sort(),
    );
    expect(messages.every((m) => m.dueAt.getTime() === T0.getTime())).toBe(true);
    // A job run again over the same rows (as after a crash between batches) books and queues nothing more.
    await db.update(importRun).set({ status: "running" }).where(eq(importRun.id, run.id));
    await db
      .update(importRow)
      .set({ state: "pending" })
      .where(and(eq(importRow.runId, run.id), eq(importRow.state, "done")));
    await applyGrant(db, run.id, { now: () => T0 });
    expect(await grantMessages(run.id)).toHaveLength(2);
    expect(await grantEntries(run.id)).toHaveLength(2);
    expect((await ledgerTotals(db, a.id)).balance).toBe(300);
  });

  it("without 通知會員 (the default) a grant queues no message; a filter grant can notify too", async () => {
    const a = await newMember(db);
    const quiet = await stageGrantCsv(
      db,
      manager.actor,
      { name: "q.csv", bytes: csv(`會員編號,點數\n${a.memberNumber},10\n`), reason: "x", starter: audit(manager) },
      T0,
    );
    expect(await grantDetail(db, quiet.id)).toMatchObject({ notify: false });
    await submitGrant(db, jobs, manager.actor, quiet.id, audit(manager), T0);
    await applyGrant(db, quiet.id, { now: () => T0 });
    expect((await ledgerTotals(db, a.id)).balance).toBe(10);
    expect(await grantMessages(quiet.id)).toEqual([]);

    const m = await newMember(db, { createdAt: new Date("2025-08-08T03:00:00Z") });
    const loud = await stageGrantFilter(
      db,
      manager.actor,
      {
        search: { signedUpFrom: new Date("2025-08-08T00:00:00Z"), signedUpTo: new Date("2025-08-09T00:00:00Z") },
        filter: "from=2025-08-08&to=2025-08-08",
        points: 80,
        reason: "八八節",
        notify: true,
        starter: audit(manager),
      },
      T0,
    );
    await submitGrant(db, jobs, manager.actor, loud.id, audit(manager), T0);
    await applyGrant(db, loud.id, { now: () => T0 });
    expect((await grantMessages(loud.id)).map((x) => [x.memberId, x.data])).toEqual([
      [m.id, { points: 80, reason: "八八節" }],
    ]);
  });
});

describe("a day's grants cannot be split to skip the approval", () => {
  const grantOf = async (starter: TestStaff, points: number[], now: Date) => {
    const members = await Promise.all(points.map(() => newMember(db)));
    const file = ["會員編號,點數", ...members.map((m, i) => `${m.memberNumber},${points[i]}`)].join("\n");
    return stageGrantCsv(
      db,
      starter.actor,
      { name: "s.csv", bytes: csv(file), reason: "拆單", starter: audit(starter) },
      now,
    );
  };
  const send = async (starter: TestStaff, points: number[], now = T0) => {
    const run = await grantOf(starter, points, now);
    const answer = await submitGrant(db, jobs, starter.actor, run.id, audit(starter), now);
    if (answer.status === "queued") await applyGrant(db, run.id, { now: () => now });
    return { run, answer };
  };

  it("the starter's direct grants of one Taipei day total at most the limit; the rest waits, saying why", async () => {
    expect((await send(manager, [400, 200], T0)).answer).toEqual({ status: "queued", waitsFor: null, limit: 1000 });
    expect(await grantAllowanceToday(db, manager.userId, 1000, T0)).toBe(400);
    expect((await send(manager, [400], T0)).answer).toMatchObject({ status: "queued" });
    // 1,000 granted today: one more point waits for a second person, and counts nothing.
    const third = await send(manager, [1], T0);
    expect(third.answer).toEqual({ status: "awaiting_approval", waitsFor: "over_daily_total", limit: 1000 });
    const [requested] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, third.run.id), eq(auditLog.action, "points.bulk_grant_requested")));
    expect(requested?.changes).toMatchObject({
      total: { after: 1 },
      waitsFor: { after: "over_daily_total" },
      limit: { after: 1000 },
      dailyLimit: { after: 5000 },
    });
    expect(await grantAllowanceToday(db, manager.userId, 1000, T0)).toBe(0);
    // An admin starting grants is held to the same day total; another starter is not affected.
    expect((await send(admin2, [700], T0)).answer).toMatchObject({ status: "queued" });
    expect((await send(admin2, [301], T0)).answer).toMatchObject({ waitsFor: "over_daily_total" });
    // The next Taipei day (T0 is 10:00 in Taipei; 16:00 UTC is midnight) starts again.
    const nextDay = new Date("2026-03-02T16:00:00Z");
    expect(await grantAllowanceToday(db, manager.userId, 1000, nextDay)).toBe(1000);
    expect((await send(manager, [1000], nextDay)).answer).toMatchObject({ status: "queued" });
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("grants and point adjustments share the manager's day over all members (5 × the limit)", async () => {
    // 4,500 points adjusted directly today (ADR 023's counter), then a grant of 600 would pass 5,000.
    await claimLimits(db, [{ key: `adjust:manager:${manager.userId}`, window: "day", max: 5000, weight: 4500 }], T0);
    expect(await grantAllowanceToday(db, manager.userId, 1000, T0)).toBe(500);
    expect((await send(manager, [600], T0)).answer).toMatchObject({ waitsFor: "over_daily_total" });
    expect((await send(manager, [500], T0)).answer).toMatchObject({ status: "queued" });
    expect(await limitCount(db, { key: `adjust:manager:${manager.userId}`, window: "day" }, T0)).toBe(5000);
  });

  it("a send refused (the same grant sent twice at once, or another grant applying) counts nothing", async () => {
    const run = await grantOf(manager, [300], T0);
    const both = await Promise.allSettled([
      submitGrant(db, jobs, manager.actor, run.id, audit(manager), T0),
      submitGrant(db, jobs, manager.actor, run.id, audit(manager), T0),
    ]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await grantAllowanceToday(db, manager.userId, 1000, T0)).toBe(700);
    // The first is queued, not applied yet: a second grant is refused as busy and claims nothing.
    const other = await grantOf(manager, [100], T0);
    expect(await failure(() => submitGrant(db, jobs, manager.actor, other.id, audit(manager), T0))).toBe("grant_busy");
    expect(await grantAllowanceToday(db, manager.userId, 1000, T0)).toBe(700);
    await applyGrant(db, run.id, { now: () => T0 });
  });
});
