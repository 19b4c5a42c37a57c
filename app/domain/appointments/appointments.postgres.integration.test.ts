import type { DatabaseHandle } from "@platform/db/client";
import { appointment, appointmentSlot, storeAppointmentKind } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { seedCatalog } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { isRefusal } from "../refusals";
import { bookAppointment, cancelAppointment, type Owner } from "./appointments.server";

/**
 * The last place of a slot under real concurrency (issue 37, "Correctness"): two database handles stand in for two
 * app instances, 20 members book the same last place at once — exactly one wins, the others are told slot_full,
 * the counter never passes the capacity. PostgreSQL only (TEST_DATABASE_URL).
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("appointments_race", (pair) => {
  ({ one, two } = pair);
});

const NOW = new Date("2026-12-07T01:00:00Z");
const STORE = "xinyi-flagship";

function input(date: string, time: string) {
  return {
    storeId: STORE,
    kind: "consultation" as const,
    date,
    time,
    materialIds: [],
    note: null,
    address: null,
    locale: "zh-TW" as const,
    source: "web" as const,
  };
}

async function race(date: string, time: string, owners: Owner[]) {
  return Promise.all(
    owners.map((owner, i) =>
      bookAppointment((i % 2 === 0 ? one : two).db, owner, input(date, time), NOW).then(
        (row) => ({ ok: true as const, id: row.id }),
        (error) => {
          if (isRefusal(error, "appointments")) return { ok: false as const, code: error.code };
          throw error;
        },
      ),
    ),
  );
}

async function counter(date: string, time: string) {
  const [row] = await one.db
    .select({ booked: appointmentSlot.booked })
    .from(appointmentSlot)
    .where(and(eq(appointmentSlot.storeId, STORE), eq(appointmentSlot.startsAt, new Date(`${date}T${time}:00+08:00`))));
  return row?.booked ?? 0;
}

describe("the last place of a slot on PostgreSQL, over two instances", () => {
  it("20 simultaneous bookings of the last place: exactly one wins, 19 are slot_full", {
    timeout: 120_000,
  }, async () => {
    await seedCatalog(one.db);
    const members = await Promise.all(Array.from({ length: 21 }, () => newMember(one.db)));
    const owners: Owner[] = members.map((m) => ({ memberId: m.id, phone: m.phoneNumber }));
    // Capacity 2 at the flagship: one place taken first, then 20 race for the last.
    await bookAppointment(one.db, owners[0] as Owner, input("2026-12-09", "14:00"), NOW);
    const results = await race("2026-12-09", "14:00", owners.slice(1));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.code === "slot_full")).toHaveLength(19);
    expect(await counter("2026-12-09", "14:00")).toBe(2);
    const stored = await one.db
      .select({ id: appointment.id })
      .from(appointment)
      .where(
        and(eq(appointment.storeId, STORE), eq(appointment.localDate, "2026-12-09"), eq(appointment.status, "booked")),
      );
    expect(stored).toHaveLength(2);
  });

  it("a place given back by a cancel goes to exactly one of 20 racing for it; capacity 1 too", {
    timeout: 120_000,
  }, async () => {
    await one.db
      .update(storeAppointmentKind)
      .set({ capacity: 1 })
      .where(and(eq(storeAppointmentKind.storeId, STORE), eq(storeAppointmentKind.kind, "consultation")));
    const members = await Promise.all(Array.from({ length: 21 }, () => newMember(one.db)));
    const owners: Owner[] = members.map((m) => ({ memberId: m.id, phone: m.phoneNumber }));
    const first = await bookAppointment(one.db, owners[0] as Owner, input("2026-12-10", "11:00"), NOW);
    const cancelled = cancelAppointment(two.db, owners[0] as Owner, first.id, NOW);
    const results = await race("2026-12-10", "11:00", owners.slice(1));
    await cancelled;
    const winners = results.filter((r) => r.ok).length;
    // Before or after the cancel: one place, so at most one winner, and exactly one when the cancel came first.
    expect(winners).toBeLessThanOrEqual(1);
    expect(await counter("2026-12-10", "11:00")).toBe(winners);
    const again = await race("2026-12-10", "11:00", owners.slice(1));
    expect(again.filter((r) => r.ok)).toHaveLength(1 - winners);
    expect(await counter("2026-12-10", "11:00")).toBe(1);
  });
});
