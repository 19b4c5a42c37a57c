import type { Database } from "@platform/db/client";
import { appointment, appointmentSlot, auditLog, storeAppointmentKind } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { isRefusal } from "../refusals";
import { staffAuditContext } from "../staff/actor";
import { createTestStaff, type TestStaff } from "../staff/testing.server";
import { loadStoreEditor, publishStore, saveStoreDraft } from "../stores/console.server";
import {
  attachGuestAppointments,
  type BookingInput,
  bookAppointment,
  cancelAppointment,
  freeTimes,
  memberAppointments,
  type Owner,
  rescheduleAppointment,
} from "./appointments.server";
import { saveAppointmentKind, storeAppointmentSettings } from "./settings.server";

let db: Database;
useMigratedTestDatabase("appointments", (handle) => {
  db = handle.db;
});

// Monday 7 December 2026, 09:00 Taipei. The demo's 信義旗艦 takes consultations at 11:00, 14:00, 15:30 and 19:00
// every day, two at a time.
const NOW = new Date("2026-12-07T01:00:00Z");
const STORE = "xinyi-flagship";
const DAY = "2026-12-09";
const where = { ip: "198.51.100.7", userAgent: "vitest", requestId: "req-appt" };
let admin: TestStaff;

beforeAll(async () => {
  await seedCatalog(db);
  admin = await createTestStaff(db, "test-session-secret-with-enough-length-0123456789", { role: "admin" }, NOW);
});

async function member(): Promise<Owner & { memberId: string }> {
  const m = await newMember(db);
  return { memberId: m.id, phone: m.phoneNumber };
}

function input(overrides: Partial<BookingInput> = {}): BookingInput {
  return {
    storeId: STORE,
    kind: "consultation",
    date: DAY,
    time: "14:00",
    materialIds: [],
    note: null,
    address: null,
    locale: "zh-TW",
    source: "web",
    ...overrides,
  };
}

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isRefusal(error, "appointments")) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}

async function placesTaken(time: string, date = DAY): Promise<number> {
  const startsAt = new Date(`${date}T${time}:00+08:00`);
  const [row] = await db
    .select({ booked: appointmentSlot.booked })
    .from(appointmentSlot)
    .where(and(eq(appointmentSlot.storeId, STORE), eq(appointmentSlot.startsAt, startsAt)));
  return row?.booked ?? 0;
}

const dayOf = (iso: string) => {
  const [year, month, day] = iso.split("-").map(Number) as [number, number, number];
  return { year, month, day };
};

describe("booking an appointment", () => {
  it("books a place, counts it, and the last place goes once: the next is slot_full", async () => {
    const before = await freeTimes(db, STORE, "consultation", dayOf(DAY), NOW);
    expect(before.map((f) => f.time)).toEqual(["11:00", "14:00", "15:30", "19:00"]);
    const a = await member();
    const booked = await bookAppointment(db, a, input({ materialIds: ["kyoto-mist-porcelain"] }), NOW);
    expect(booked.materialIds).toEqual(["kyoto-mist-porcelain"]);
    expect(booked.status).toBe("booked");
    expect(booked.localDate).toBe(DAY);
    expect(booked.startsAt.toISOString()).toBe("2026-12-09T06:00:00.000Z");
    expect(booked.endsAt.toISOString()).toBe("2026-12-09T07:00:00.000Z");
    expect(booked.reference).toMatch(/^[2-9A-Z]{8}$/);
    expect((await freeTimes(db, STORE, "consultation", dayOf(DAY), NOW)).find((f) => f.time === "14:00")?.left).toBe(1);
    await bookAppointment(db, await member(), input(), NOW);
    expect(await refusalOf(bookAppointment(db, await member(), input(), NOW))).toBe("slot_full");
    expect(await placesTaken("14:00")).toBe(2);
    expect((await freeTimes(db, STORE, "consultation", dayOf(DAY), NOW)).map((f) => f.time)).not.toContain("14:00");
  });

  it("refuses a time outside the slots, in the past, within the cut-off, beyond the horizon, a forged store or kind", async () => {
    const m = await member();
    expect(await refusalOf(bookAppointment(db, m, input({ time: "14:30" }), NOW))).toBe("slot_outside");
    expect(await refusalOf(bookAppointment(db, m, input({ time: "99:99" }), NOW))).toBe("slot_outside");
    expect(await refusalOf(bookAppointment(db, m, input({ date: "2026-12-06" }), NOW))).toBe("in_past");
    expect(await refusalOf(bookAppointment(db, m, input({ date: "2026-02-30" }), NOW))).toBe("in_past");
    const tenAm = new Date("2026-12-07T02:00:00Z"); // 11:00 is an hour away
    expect(await refusalOf(bookAppointment(db, m, input({ date: "2026-12-07", time: "11:00" }), tenAm))).toBe(
      "past_cutoff",
    );
    expect(await refusalOf(bookAppointment(db, m, input({ date: "2027-02-06" }), NOW))).toBe("beyond_horizon");
    expect(await refusalOf(bookAppointment(db, m, input({ storeId: "no-such-store" }), NOW))).toBe("not_offered");
    expect(await refusalOf(bookAppointment(db, m, input({ storeId: "dadaocheng-concept" }), NOW))).toBe("not_offered");
    expect(await refusalOf(bookAppointment(db, m, input({ storeId: "banqiao" }), NOW))).toBe("not_offered");
    expect(await refusalOf(bookAppointment(db, m, input({ materialIds: ["forged-id"] }), NOW))).toBe("bad_material");
    // Nothing was stored, no place and no daily count taken.
    expect(await memberAppointments(db, m.memberId)).toEqual([]);
    await bookAppointment(db, m, input({ time: "19:00" }), NOW);
  });

  it("丈量 needs an address in a city of the list", async () => {
    const m = await member();
    const measuring = input({ kind: "measuring", time: "10:00" });
    expect(await refusalOf(bookAppointment(db, m, measuring, NOW))).toBe("bad_address");
    expect(
      await refusalOf(
        bookAppointment(db, m, { ...measuring, address: { city: "tokyo", district: "渋谷区", street: "1-1" } }, NOW),
      ),
    ).toBe("bad_address");
    expect(
      await refusalOf(
        bookAppointment(db, m, { ...measuring, address: { city: "taipei", district: " ", street: "x" } }, NOW),
      ),
    ).toBe("bad_address");
    const ok = await bookAppointment(
      db,
      m,
      { ...measuring, address: { city: "taipei", district: "大安區", street: "復興南路一段 1 號" } },
      NOW,
    );
    expect(ok.address).toEqual({ city: "taipei", district: "大安區", street: "復興南路一段 1 號" });
  });

  it("a closed day (a holiday) is refused and has no free times", async () => {
    const m = await member();
    await addHoliday("2026-12-10");
    expect(await refusalOf(bookAppointment(db, m, input({ date: "2026-12-10" }), NOW))).toBe("closed_day");
    expect(await freeTimes(db, STORE, "consultation", dayOf("2026-12-10"), NOW)).toEqual([]);
  });

  it("at most 3 bookings a day per member and per phone: the 4th, and 50 from one phone, are limit_reached", async () => {
    const m = await member();
    for (const time of ["11:00", "15:30", "19:00"])
      await bookAppointment(db, m, input({ date: "2026-12-11", time }), NOW);
    expect(await refusalOf(bookAppointment(db, m, input({ date: "2026-12-12" }), NOW))).toBe("limit_reached");
    const guest: Owner = { memberId: null, phone: "+886955000111" };
    const results = [];
    for (let i = 0; i < 50; i++) {
      results.push(
        await bookAppointment(db, guest, input({ kind: "visit", date: "2026-12-14", time: "14:00" }), NOW).then(
          () => "ok",
          (e) => (isRefusal(e, "appointments") ? e.code : Promise.reject(e)),
        ),
      );
    }
    expect(results.filter((r) => r === "ok")).toHaveLength(3);
    expect(results.filter((r) => r === "limit_reached")).toHaveLength(47);
    // The next Taipei day counts afresh.
    const tomorrow = new Date(NOW.getTime() + 24 * 3600_000);
    await bookAppointment(db, m, input({ date: "2026-12-12" }), tomorrow);
  });
});

describe("moving and cancelling", () => {
  it("reschedules to a free time and frees the old place; cancels and gives the place back", async () => {
    const m = await member();
    const booked = await bookAppointment(db, m, input({ date: "2026-12-15", time: "11:00" }), NOW);
    expect(await placesTaken("11:00", "2026-12-15")).toBe(1);
    const moved = await rescheduleAppointment(db, m, booked.id, { date: "2026-12-16", time: "15:30" }, NOW);
    expect(moved.reference).toBe(booked.reference);
    expect(moved.rescheduleCount).toBe(1);
    expect(moved.localDate).toBe("2026-12-16");
    expect(await placesTaken("11:00", "2026-12-15")).toBe(0);
    expect(await placesTaken("15:30", "2026-12-16")).toBe(1);
    const cancelled = await cancelAppointment(db, m, booked.id, NOW);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.cancelledBy).toBe("member");
    expect(await placesTaken("15:30", "2026-12-16")).toBe(0);
    expect(await refusalOf(cancelAppointment(db, m, booked.id, NOW))).toBe("not_open");
  });

  it("another member's booking is not found; within 2 h of the start nothing can be changed", async () => {
    const owner = await member();
    const other = await member();
    const booked = await bookAppointment(db, owner, input({ date: "2026-12-17", time: "14:00" }), NOW);
    expect(await refusalOf(cancelAppointment(db, other, booked.id, NOW))).toBe("not_found");
    expect(
      await refusalOf(rescheduleAppointment(db, other, booked.id, { date: "2026-12-18", time: "14:00" }, NOW)),
    ).toBe("not_found");
    const late = new Date("2026-12-17T05:00:00Z"); // 13:00 Taipei, an hour before
    expect(await refusalOf(cancelAppointment(db, owner, booked.id, late))).toBe("past_cutoff");
    expect(
      await refusalOf(rescheduleAppointment(db, owner, booked.id, { date: "2026-12-18", time: "14:00" }, late)),
    ).toBe("past_cutoff");
    // A full target is slot_full, and the booking stays where it was.
    await bookAppointment(db, await member(), input({ date: "2026-12-18", time: "11:00" }), NOW);
    await bookAppointment(db, await member(), input({ date: "2026-12-18", time: "11:00" }), NOW);
    expect(
      await refusalOf(rescheduleAppointment(db, owner, booked.id, { date: "2026-12-18", time: "11:00" }, NOW)),
    ).toBe("slot_full");
    expect(await placesTaken("14:00", "2026-12-17")).toBe(1);
  });

  it("a guest's bookings become the member's when they sign up with that phone", async () => {
    const phone = "+886955123456";
    const guest: Owner = { memberId: null, phone };
    const booked = await bookAppointment(db, guest, { ...input({ date: "2026-12-21" }), guestName: "林小姐" }, NOW);
    expect(booked.memberId).toBeNull();
    const m = await newMember(db, { phoneNumber: phone });
    expect(await attachGuestAppointments(db, m.id, phone)).toBe(1);
    const mine = await memberAppointments(db, m.id);
    expect(mine.map((a) => a.reference)).toEqual([booked.reference]);
  });
});

async function addHoliday(date: string) {
  const actor = admin.actor;
  const audit = staffAuditContext(actor, where);
  const editor = await loadStoreEditor(db, actor, STORE, NOW);
  const { photos: _photos, ...content } = editor.content;
  const exceptions = [
    ...content.exceptions.filter((e) => e.date !== date),
    { date, intervals: [], note: { "zh-TW": "盤點", en: "Stock-taking" } },
  ];
  const version = await saveStoreDraft(db, actor, STORE, editor.draft.version, { ...content, exceptions }, audit, NOW);
  await publishStore(db, actor, STORE, version, audit, NOW);
}

describe("a holiday added later", () => {
  it("keeps the bookings on that day and flags them for staff to call", async () => {
    const m = await member();
    const booked = await bookAppointment(db, m, input({ date: "2026-12-22", time: "15:30" }), NOW);
    const other = await bookAppointment(db, await member(), input({ date: "2026-12-23", time: "15:30" }), NOW);
    await addHoliday("2026-12-22");
    const [row] = await db.select().from(appointment).where(eq(appointment.id, booked.id));
    expect(row?.status).toBe("booked");
    expect(row?.needsCallAt?.toISOString()).toBe(NOW.toISOString());
    const [untouched] = await db.select().from(appointment).where(eq(appointment.id, other.id));
    expect(untouched?.needsCallAt).toBeNull();
  });
});

describe("the store's settings in the console", () => {
  it("saves a kind with its version and an audit row in the same transaction; a stale version is refused", async () => {
    const audit = staffAuditContext(admin.actor, where);
    const { kinds } = await storeAppointmentSettings(db, admin.actor, "banqiao");
    const visit = kinds.find((k) => k.kind === "visit");
    expect(visit?.version).toBe(1);
    const slots = [["10:00"], ["10:00", "16:00"], [], [], [], [], []];
    const version = await saveAppointmentKind(
      db,
      admin.actor,
      "banqiao",
      { kind: "visit", enabled: true, durationMinutes: 45, capacity: 4, weeklySlots: slots },
      1,
      audit,
      NOW,
    );
    expect(version).toBe(2);
    const [saved] = await db
      .select()
      .from(storeAppointmentKind)
      .where(and(eq(storeAppointmentKind.storeId, "banqiao"), eq(storeAppointmentKind.kind, "visit")));
    expect(saved?.weeklySlots).toEqual(slots);
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "store.appointments_changed"), eq(auditLog.targetId, "banqiao:visit")));
    expect(rows).toHaveLength(1);
    const stale = saveAppointmentKind(
      db,
      admin.actor,
      "banqiao",
      { kind: "visit", enabled: false, durationMinutes: 45, capacity: 4, weeklySlots: slots },
      1,
      audit,
      NOW,
    );
    expect(await refusalOf(stale)).toBe("version_conflict");
  });

  it("a clerk of another store may not change them", async () => {
    const clerk = await createTestStaff(
      db,
      "test-session-secret-with-enough-length-0123456789",
      { role: "manager", storeIds: ["tainan"] },
      NOW,
    );
    await expect(storeAppointmentSettings(db, clerk.actor, STORE)).rejects.toThrow();
    await expect(
      saveAppointmentKind(
        db,
        clerk.actor,
        STORE,
        { kind: "visit", enabled: false, durationMinutes: 30, capacity: 1, weeklySlots: [[], [], [], [], [], [], []] },
        1,
        staffAuditContext(clerk.actor, where),
        NOW,
      ),
    ).rejects.toThrow();
  });
});
