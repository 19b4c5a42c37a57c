import type { DatabaseHandle } from "@platform/db/client";
import { appointment, appointmentSlot, rateLimitCounter } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { seedCatalog } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { isRefusal } from "../refusals";
import { bookAppointment, type Owner } from "./appointments.server";
import { DAILY_BOOKING_LIMIT } from "./rules";

/**
 * The day's booking limit under real concurrency (issue 37, "Bad input": 50 bookings from one phone): two database
 * handles stand in for two app instances; 20 bookings of 20 different free slots, made at once from several sessions
 * of one member (or one guest phone), give exactly 3 bookings — the rest are limit_reached — and the member's and
 * the phone's counters equal the rows stored. PostgreSQL only (TEST_DATABASE_URL).
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("appointments_daily_limit", (pair) => {
  ({ one, two } = pair);
});

// Monday 7 December 2026, 09:00 Taipei: every booking is made on this Taipei day.
const NOW = new Date("2026-12-07T01:00:00Z");
const STORE = "xinyi-flagship";
// The flagship's consultation start times (two places each): 5 days × 4 times = 20 different slots.
const SLOTS = ["2026-12-08", "2026-12-09", "2026-12-10", "2026-12-11", "2026-12-12"].flatMap((date) =>
  ["11:00", "14:00", "15:30", "19:00"].map((time) => ({ date, time })),
);

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

/** 20 bookings at once, alternating between the two instances, each of its own slot. */
async function race(owner: Owner) {
  return Promise.all(
    SLOTS.map(({ date, time }, i) =>
      bookAppointment((i % 2 === 0 ? one : two).db, owner, input(date, time), NOW).then(
        () => "booked",
        (error) => {
          if (isRefusal(error, "appointments")) return error.code;
          throw error;
        },
      ),
    ),
  );
}

/** A limit's counter rows (`<key>:<window>`, one per Taipei day) added up. */
async function counted(key: string): Promise<number> {
  const rows = await one.db
    .select({ count: rateLimitCounter.count })
    .from(rateLimitCounter)
    .where(eq(rateLimitCounter.key, key));
  return rows.reduce((sum, r) => sum + r.count, 0);
}

async function placesTaken(): Promise<number> {
  const [row] = await one.db
    .select({ n: sql<number>`coalesce(sum(${appointmentSlot.booked}), 0)::int` })
    .from(appointmentSlot)
    .where(eq(appointmentSlot.storeId, STORE));
  return row?.n ?? 0;
}

describe("the day's booking limit on PostgreSQL, over two instances", () => {
  it("one member, 20 bookings at once: exactly 3 stored, 17 limit_reached, counters equal the rows", {
    timeout: 120_000,
  }, async () => {
    await seedCatalog(one.db);
    expect(DAILY_BOOKING_LIMIT).toBe(3);
    const m = await newMember(one.db);
    const results = await race({ memberId: m.id, phone: m.phoneNumber });
    expect(results.filter((r) => r === "booked")).toHaveLength(3);
    expect(results.filter((r) => r === "limit_reached")).toHaveLength(17);
    const rows = await one.db.select({ id: appointment.id }).from(appointment).where(eq(appointment.memberId, m.id));
    expect(rows).toHaveLength(3);
    expect(await counted(`appointment:member:${m.id}:day`)).toBe(3);
    expect(await counted(`appointment:phone:${m.phoneNumber}:day`)).toBe(3);
    // A refused booking took no place either.
    expect(await placesTaken()).toBe(3);
  });

  it("one guest phone, 20 bookings at once: exactly 3 stored, 17 limit_reached, the counter equals the rows", {
    timeout: 120_000,
  }, async () => {
    const before = await placesTaken();
    const phone = "+886912000377";
    const results = await race({ memberId: null, phone });
    expect(results.filter((r) => r === "booked")).toHaveLength(3);
    expect(results.filter((r) => r === "limit_reached")).toHaveLength(17);
    const rows = await one.db
      .select({ id: appointment.id })
      .from(appointment)
      .where(and(isNull(appointment.memberId), eq(appointment.guestPhone, phone)));
    expect(rows).toHaveLength(3);
    expect(await counted(`appointment:phone:${phone}:day`)).toBe(3);
    expect((await placesTaken()) - before).toBe(3);
  });
});
