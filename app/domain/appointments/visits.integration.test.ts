import type { Database } from "@platform/db/client";
import { appointment, appointmentSlot, auditLog, pointEntry } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { insertTestStores } from "@platform/testing/stores";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditContext } from "../audit/audit.server";
import { changeRules } from "../loyalty/rules.server";
import { ledgerTotals, newMember } from "../loyalty/testing.server";
import { isRefusal } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { createTestStaff } from "../staff/testing.server";
import { bookTestAppointment } from "./testing.server";
import {
  appointmentFor,
  assignConsultant,
  cancelByStaff,
  checkIn,
  checkInScanned,
  followUps,
  listAppointments,
  markCallDone,
  markFollowUpDone,
  markNoShows,
  memberAppointments,
  saveVisitNote,
} from "./visits.server";

/**
 * At the showroom (issue 37 part 2, ADR 045) on the domain: check-in (by the card and by the button; another
 * store, twice, cancelled, another day), the no-show job, the consultant (another store's staff, a forged id),
 * the visit note and follow-ups, the kept-visit points once, and what a clerk of another store sees.
 */
let db: Database;
useMigratedTestDatabase("showroom_visits", (handle) => {
  db = handle.db;
});

const HERE = "visit-here";
const THERE = "visit-there";
// 11:00 Taipei on 2026-12-07; the bookings are at 14:00 that day unless said otherwise.
const NOW = new Date("2026-12-07T03:00:00.000Z");
const AT_TWO = new Date("2026-12-07T06:00:00.000Z");
const TOMORROW = new Date("2026-12-08T06:00:00.000Z");

let clerk: StaffActor;
let colleague: StaffActor;
let otherClerk: StaffActor;
let admin: StaffActor;
const auditOf = (actor: StaffActor): AuditContext => ({
  actorType: "staff",
  userId: actor.userId,
  role: actor.role,
  storeId: actor.currentStoreId,
  ip: null,
  userAgent: null,
  requestId: null,
});

beforeAll(async () => {
  await insertTestStores(db, [HERE, THERE]);
  const make = async (role: "staff" | "admin", storeIds: string[], name: string) => {
    const staff = await createTestStaff(db, "x".repeat(32), { role, storeIds, displayName: name });
    return { ...staff.actor, currentStoreId: storeIds[0] ?? HERE };
  };
  clerk = await make("staff", [HERE], "本店店員");
  colleague = await make("staff", [HERE], "本店顧問");
  otherClerk = await make("staff", [THERE], "他店店員");
  admin = await make("admin", [], "管理員");
});

async function statusOf(id: string) {
  const [row] = await db.select().from(appointment).where(eq(appointment.id, id));
  return row;
}

async function refusalCode(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    if (isRefusal(error)) return error.code;
    // requirePermission's 403 (react-router's `data`).
    const status = (error as { init?: { status?: number } } | null)?.init?.status;
    if (status) return `http_${status}`;
    throw error;
  }
  return "none";
}

describe("check-in", () => {
  it("the card scan checks in the member's one booking of today here, audited; a second scan changes nothing", async () => {
    const m = await newMember(db);
    const booked = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, memberId: m.id });
    const first = await checkInScanned(db, clerk, HERE, m.id, auditOf(clerk), NOW);
    expect(first).toMatchObject({ id: booked.id, already: false });
    const row = await statusOf(booked.id);
    expect(row).toMatchObject({ status: "checked_in", checkedInBy: clerk.userId, version: 2 });
    // The scan again: nothing booked is left, so nothing happens.
    expect(await checkInScanned(db, clerk, HERE, m.id, auditOf(clerk), NOW)).toBeNull();
    // The button again: told it was checked in before.
    expect(await checkIn(db, clerk, HERE, booked.id, auditOf(clerk), NOW)).toMatchObject({ already: true });
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "appointment.checked_in"), eq(auditLog.targetId, booked.id)));
    expect(audits).toHaveLength(1);
  });

  it("with two bookings today the scan checks in neither (the counter shows buttons)", async () => {
    const m = await newMember(db);
    const a = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, memberId: m.id });
    const b = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, kind: "consultation", memberId: m.id });
    expect(await checkInScanned(db, clerk, HERE, m.id, auditOf(clerk), NOW)).toBeNull();
    expect((await statusOf(a.id))?.status).toBe("booked");
    expect((await statusOf(b.id))?.status).toBe("booked");
    await checkIn(db, clerk, HERE, b.id, auditOf(clerk), NOW);
    expect((await statusOf(b.id))?.status).toBe("checked_in");
    expect((await statusOf(a.id))?.status).toBe("booked");
  });

  it("refuses another store's booking (as not found), a cancelled one, another day's, and a forged id", async () => {
    const m = await newMember(db);
    const there = await bookTestAppointment(db, { storeId: THERE, startsAt: AT_TWO, memberId: m.id });
    const tomorrow = await bookTestAppointment(db, { storeId: HERE, startsAt: TOMORROW, memberId: m.id });
    const cancelled = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, memberId: m.id });
    await cancelByStaff(db, clerk, cancelled.id, 1, auditOf(clerk), NOW);
    expect(await refusalCode(checkIn(db, clerk, HERE, there.id, auditOf(clerk), NOW))).toBe("not_found");
    // The clerk of the other store may not check in at this store.
    expect(await refusalCode(checkIn(db, otherClerk, HERE, tomorrow.id, auditOf(otherClerk), NOW))).toBe("http_403");
    expect(await refusalCode(checkIn(db, clerk, HERE, cancelled.id, auditOf(clerk), NOW))).toBe("not_booked");
    expect(await refusalCode(checkIn(db, clerk, HERE, tomorrow.id, auditOf(clerk), NOW))).toBe("not_today");
    expect(await refusalCode(checkIn(db, clerk, HERE, "not-a-uuid", auditOf(clerk), NOW))).toBe("not_found");
    // The scan at this store does not see the other store's booking.
    expect(await checkInScanned(db, clerk, HERE, m.id, auditOf(clerk), NOW)).toBeNull();
    expect((await statusOf(there.id))?.status).toBe("booked");
    expect((await statusOf(tomorrow.id))?.status).toBe("booked");
  });
});

describe("the no-show job", () => {
  it("marks bookings nobody checked in 30 minutes after the slot ended, in one statement, once", async () => {
    const m = await newMember(db);
    const ended = await bookTestAppointment(db, { storeId: HERE, startsAt: new Date("2026-12-07T06:00:00Z") });
    const justEnded = await bookTestAppointment(db, { storeId: HERE, startsAt: new Date("2026-12-07T06:30:00Z") });
    const kept = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, memberId: m.id });
    await checkIn(db, clerk, HERE, kept.id, auditOf(clerk), NOW);
    // 07:00Z the first slot ended; at 07:31Z it is past the grace, the second (ends 07:30Z) is not.
    const at = new Date("2026-12-07T07:31:00Z");
    const run = await markNoShows(db, at);
    expect(run.marked).toBeGreaterThanOrEqual(1);
    expect(await statusOf(ended.id)).toMatchObject({ status: "no_show", noShowAt: at });
    expect((await statusOf(justEnded.id))?.status).toBe("booked");
    expect((await statusOf(kept.id))?.status).toBe("checked_in");
    expect((await markNoShows(db, at)).marked).toBe(0);
    // A no-show cannot be checked in afterwards.
    expect(await refusalCode(checkIn(db, clerk, HERE, ended.id, auditOf(clerk), at))).toBe("not_booked");
  });
});

describe("the appointment page", () => {
  it("assigns a consultant of the store only: another store's staff and a forged id are refused, nothing changed", async () => {
    const visit = await bookTestAppointment(db, { storeId: HERE, startsAt: TOMORROW });
    expect(await refusalCode(assignConsultant(db, clerk, visit.id, 1, otherClerk.userId, auditOf(clerk), NOW))).toBe(
      "unknown_consultant",
    );
    expect(await refusalCode(assignConsultant(db, clerk, visit.id, 1, "forged-user-id", auditOf(clerk), NOW))).toBe(
      "unknown_consultant",
    );
    expect((await statusOf(visit.id))?.consultantUserId).toBeNull();
    await assignConsultant(db, clerk, visit.id, 1, colleague.userId, auditOf(clerk), NOW);
    expect(await statusOf(visit.id)).toMatchObject({ consultantUserId: colleague.userId, version: 2 });
    // An admin works at every store: one may be the consultant.
    await assignConsultant(db, clerk, visit.id, 2, admin.userId, auditOf(clerk), NOW);
    // A stale version is a conflict.
    expect(await refusalCode(assignConsultant(db, clerk, visit.id, 2, null, auditOf(clerk), NOW))).toBe(
      "version_conflict",
    );
  });

  it("a clerk of another store sees nothing and changes nothing of this store's appointment", async () => {
    const visit = await bookTestAppointment(db, { storeId: HERE, startsAt: TOMORROW, needsCall: true });
    expect(await appointmentFor(db, otherClerk, visit.id)).toBeNull();
    expect(await refusalCode(markCallDone(db, otherClerk, visit.id, 1, auditOf(otherClerk), NOW))).toBe("not_found");
    expect(await refusalCode(cancelByStaff(db, otherClerk, visit.id, 1, auditOf(otherClerk), NOW))).toBe("not_found");
    const theirs = await listAppointments(db, otherClerk, {
      store: HERE,
      from: "2026-12-08",
      to: "2026-12-08",
      kind: "",
      status: "",
    });
    expect(theirs.rows).toHaveLength(0);
    const mine = await listAppointments(db, clerk, {
      store: "",
      from: "2026-12-08",
      to: "2026-12-08",
      kind: "",
      status: "",
    });
    expect(mine.rows.map((r) => r.id)).toContain(visit.id);
    await markCallDone(db, clerk, visit.id, 1, auditOf(clerk), NOW);
    expect((await statusOf(visit.id))?.needsCallAt).toBeNull();
  });

  it("a staff cancel gives the place back to the slot", async () => {
    const start = new Date("2026-12-09T02:00:00Z");
    const visit = await bookTestAppointment(db, { storeId: HERE, startsAt: start });
    await cancelByStaff(db, clerk, visit.id, 1, auditOf(clerk), NOW);
    const [slot] = await db
      .select()
      .from(appointmentSlot)
      .where(and(eq(appointmentSlot.storeId, HERE), eq(appointmentSlot.startsAt, start)));
    expect(slot?.booked).toBe(0);
    expect(await statusOf(visit.id)).toMatchObject({ status: "cancelled", cancelledBy: "staff" });
    expect(await refusalCode(cancelByStaff(db, clerk, visit.id, 2, auditOf(clerk), NOW))).toBe("not_booked");
  });
});

describe("visit notes and follow-ups", () => {
  it("only after check-in; the follow-up shows on its day for its consultant (all for an admin), done once", async () => {
    const m = await newMember(db);
    const visit = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, memberId: m.id });
    const note = { visitNote: "喜歡霧面磁磚，想比較 60×120", followUpOn: "2026-12-10" };
    expect(await refusalCode(saveVisitNote(db, colleague, visit.id, 1, note, auditOf(colleague), NOW))).toBe(
      "not_checked_in",
    );
    await checkIn(db, clerk, HERE, visit.id, auditOf(clerk), NOW);
    await assignConsultant(db, clerk, visit.id, 2, colleague.userId, auditOf(clerk), NOW);
    expect(
      await refusalCode(
        saveVisitNote(db, colleague, visit.id, 3, { ...note, followUpOn: "2026-12-01" }, auditOf(colleague), NOW),
      ),
    ).toBe("follow_up_date");
    await saveVisitNote(db, colleague, visit.id, 3, note, auditOf(colleague), NOW);
    const due = new Date("2026-12-10T01:00:00Z");
    expect(await followUps(db, colleague, "mine", NOW)).toHaveLength(0);
    expect((await followUps(db, colleague, "mine", due)).map((r) => r.id)).toEqual([visit.id]);
    expect(await followUps(db, clerk, "mine", due)).toHaveLength(0);
    // "all" is for admins; a clerk asking for it gets their own.
    expect(await followUps(db, clerk, "all", due)).toHaveLength(0);
    expect((await followUps(db, admin, "all", due)).map((r) => r.id)).toContain(visit.id);
    await markFollowUpDone(db, colleague, visit.id, 4, auditOf(colleague), due);
    expect(await followUps(db, colleague, "mine", due)).toHaveLength(0);
    expect(await refusalCode(markFollowUpDone(db, colleague, visit.id, 5, auditOf(colleague), due))).toBe(
      "no_follow_up",
    );
    // The note itself is not written to the audit log.
    const [noted] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "appointment.visit_noted"), eq(auditLog.targetId, visit.id)));
    expect(JSON.stringify(noted)).not.toContain("霧面");
  });
});

describe("points for a kept visit", () => {
  it("off by default; on, one entry per appointment however often it is checked in", async () => {
    const m = await newMember(db);
    const off = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, memberId: m.id });
    await checkIn(db, clerk, HERE, off.id, auditOf(clerk), NOW);
    expect((await ledgerTotals(db, m.id)).balance).toBe(0);
    await changeRules(db, { keptVisitEnabled: true, keptVisitPoints: 30 }, new Date(NOW.getTime() - 1000));
    const on = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, kind: "consultation", memberId: m.id });
    await checkIn(db, clerk, HERE, on.id, auditOf(clerk), NOW);
    await checkIn(db, clerk, HERE, on.id, auditOf(clerk), NOW);
    const entries = await db
      .select()
      .from(pointEntry)
      .where(eq(pointEntry.idempotencyKey, `visit:${on.id}`));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: "visit", amount: 30, storeId: HERE, staffUserId: clerk.userId });
    expect(await ledgerTotals(db, m.id)).toMatchObject({ balance: 30, ledgerSum: 30, lotsRemaining: 30 });
    // A guest's booking earns nothing (no member).
    const guest = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, guestName: "林小姐" });
    expect(await checkIn(db, clerk, HERE, guest.id, auditOf(clerk), NOW)).toMatchObject({ points: 0 });
    await changeRules(db, { keptVisitEnabled: false }, new Date(NOW.getTime() - 500));
  });
});

describe("the member's history", () => {
  it("lists kept, no-show and cancelled appointments, only of the viewer's stores", async () => {
    const m = await newMember(db);
    const kept = await bookTestAppointment(db, { storeId: HERE, startsAt: AT_TWO, memberId: m.id });
    await checkIn(db, clerk, HERE, kept.id, auditOf(clerk), NOW);
    const missed = await bookTestAppointment(db, {
      storeId: HERE,
      startsAt: new Date("2026-12-06T02:00:00Z"),
      memberId: m.id,
    });
    await markNoShows(db, NOW);
    const cancelled = await bookTestAppointment(db, { storeId: HERE, startsAt: TOMORROW, memberId: m.id });
    await cancelByStaff(db, clerk, cancelled.id, 1, auditOf(clerk), NOW);
    const there = await bookTestAppointment(db, { storeId: THERE, startsAt: TOMORROW, memberId: m.id });
    const seen = await memberAppointments(db, clerk, m.id);
    expect(Object.fromEntries(seen.map((r) => [r.id, r.status]))).toEqual({
      [kept.id]: "checked_in",
      [missed.id]: "no_show",
      [cancelled.id]: "cancelled",
    });
    expect((await memberAppointments(db, admin, m.id)).map((r) => r.id)).toContain(there.id);
  });
});
