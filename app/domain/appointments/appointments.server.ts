import { randomInt } from "node:crypto";
import type { Database } from "@platform/db/client";
import {
  type AppointmentAddress,
  type AppointmentKind,
  appointment,
  appointmentSlot,
  material,
  store,
  storeAppointmentKind,
  storeHoursException,
} from "@platform/db/schema";
import { and, asc, desc, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import { isCity } from "~/domain/stores/cities";
import { hoursOn } from "~/domain/stores/hours";
import { addDays, type CalendarDate, fromTaipeiWallClock, taipeiIsoDate } from "~/lib/time";
import { claimLimitsIn, LimitRefusedError } from "../auth/rate-limits.server";
import { Refusal, type RefusalCode } from "../refusals";
import { showroomSettings } from "../showroom/settings.server";
import {
  type BookingWindow,
  canChange,
  DAILY_BOOKING_LIMIT,
  type DayException,
  type FreeTime,
  freeTimesOn,
  type KindSettings,
  parseDay,
  slotInstant,
  timeProblem,
} from "./rules";

/**
 * Showroom appointments, the member's side (issue 37 part 1, ADR 044): the free times of a store, kind and day;
 * booking, moving and cancelling, each one transaction. Places are decided by one statement on the slot counter
 * (`insert … on conflict do update set booked = booked + 1 where booked < capacity returning`): its row is the lock,
 * so of any number of people racing for the last place on any number of instances exactly one gets it. Moving or
 * cancelling gives the place back in the same transaction. A booking belongs to a member or to a guest's verified
 * phone; an id that is not the caller's is "not found".
 */

export type AppointmentRow = typeof appointment.$inferSelect;

/** A refused booking change; nothing was stored. */
export class AppointmentRefusal extends Refusal<"appointments"> {
  constructor(code: RefusalCode<"appointments">, field?: string, params?: Record<string, string>) {
    super("appointments", code, { field, params });
    this.name = "AppointmentRefusal";
  }
}

const FIELD_OF: Partial<Record<RefusalCode<"appointments">, string>> = {
  slot_full: "time",
  slot_outside: "time",
  past_cutoff: "time",
  in_past: "date",
  closed_day: "date",
  beyond_horizon: "date",
  not_offered: "kind",
  bad_address: "street",
  bad_material: "materials",
};

/**
 * `window` (the showroom settings in force) gives the horizon's days and the cut-off's minutes to the messages that
 * name them (`days`, `cutoffMinutes`: the page words the minutes, app/adapters/appointments.server.ts).
 */
function refuse(code: RefusalCode<"appointments">, window?: BookingWindow): never {
  const params = window
    ? { days: String(window.bookingHorizonDays), cutoffMinutes: String(window.changeCutoffMinutes) }
    : undefined;
  throw new AppointmentRefusal(code, FIELD_OF[code], params);
}

/** Who acts: a signed-in member, or a guest whose phone (E.164) was verified by a code. */
export type Owner = { memberId: string; phone: string } | { memberId: null; phone: string };

// ---------------------------------------------------------------------------------------------------------------
// Reading

export type BookableStore = {
  id: string;
  name: { "zh-TW": string; en: string };
  kinds: (KindSettings & { kind: AppointmentKind })[];
};

/** A published store and the kinds it takes bookings for (none: it takes no bookings). */
export async function bookableStore(db: Database, storeId: string): Promise<BookableStore | null> {
  const [row] = await db
    .select({ id: store.id, name: store.name })
    .from(store)
    .where(and(eq(store.id, storeId), eq(store.published, true)))
    .limit(1);
  if (!row) return null;
  const kinds = await db
    .select()
    .from(storeAppointmentKind)
    .where(and(eq(storeAppointmentKind.storeId, storeId), eq(storeAppointmentKind.enabled, true)));
  const order: AppointmentKind[] = ["visit", "consultation", "measuring"];
  kinds.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  return {
    ...row,
    kinds: kinds.map((k) => ({
      kind: k.kind,
      enabled: k.enabled,
      durationMinutes: k.durationMinutes,
      capacity: k.capacity,
      weeklySlots: k.weeklySlots,
    })),
  };
}

/** The published stores that take at least one kind of booking, for the store step. */
export async function storesTakingBookings(db: Database) {
  return db
    .selectDistinct({ id: store.id, name: store.name, city: store.city, sortOrder: store.sortOrder })
    .from(store)
    .innerJoin(storeAppointmentKind, eq(storeAppointmentKind.storeId, store.id))
    .where(and(eq(store.published, true), eq(storeAppointmentKind.enabled, true)))
    .orderBy(asc(store.sortOrder), asc(store.id));
}

async function kindSettings(db: Database, storeId: string, kind: AppointmentKind): Promise<KindSettings | null> {
  const [row] = await db
    .select({
      enabled: storeAppointmentKind.enabled,
      durationMinutes: storeAppointmentKind.durationMinutes,
      capacity: storeAppointmentKind.capacity,
      weeklySlots: storeAppointmentKind.weeklySlots,
      published: store.published,
    })
    .from(storeAppointmentKind)
    .innerJoin(store, eq(store.id, storeAppointmentKind.storeId))
    .where(and(eq(storeAppointmentKind.storeId, storeId), eq(storeAppointmentKind.kind, kind)))
    .limit(1);
  if (!row?.published || !row.enabled) return null;
  return row;
}

function isoOf(date: CalendarDate): string {
  return `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}

async function exceptionOn(db: Database, storeId: string, date: CalendarDate): Promise<DayException> {
  const [row] = await db
    .select({ intervals: storeHoursException.intervals })
    .from(storeHoursException)
    .where(and(eq(storeHoursException.storeId, storeId), eq(storeHoursException.date, isoOf(date))))
    .limit(1);
  return row ? { intervals: row.intervals } : null;
}

/**
 * THE free times of a store, kind and Taipei day: the weekly start times less the day's holiday or special hours,
 * the past, the change cut-off, beyond the horizon, and the full counters. Three indexed reads (settings, the day's
 * exception, the day's counters) — no read of the bookings themselves.
 */
export async function freeTimes(
  db: Database,
  storeId: string,
  kind: AppointmentKind,
  date: CalendarDate,
  now: Date,
): Promise<FreeTime[]> {
  const from = fromTaipeiWallClock(date);
  const to = fromTaipeiWallClock(addDays(date, 1));
  const [settings, window, exception, counters] = await Promise.all([
    kindSettings(db, storeId, kind),
    showroomSettings(db),
    exceptionOn(db, storeId, date),
    db
      .select({ startsAt: appointmentSlot.startsAt, booked: appointmentSlot.booked })
      .from(appointmentSlot)
      .where(
        and(
          eq(appointmentSlot.storeId, storeId),
          eq(appointmentSlot.kind, kind),
          gte(appointmentSlot.startsAt, from),
          lt(appointmentSlot.startsAt, to),
        ),
      ),
  ]);
  if (!settings) return [];
  const booked = new Map(counters.map((c) => [c.startsAt.getTime(), c.booked]));
  return freeTimesOn(date, settings, exception, booked, now, window);
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

export type BookingInput = {
  storeId: string;
  kind: AppointmentKind;
  /** YYYY-MM-DD, Taipei. */
  date: string;
  /** HH:MM, Taipei. */
  time: string;
  materialIds: string[];
  note: string | null;
  address: AppointmentAddress | null;
  locale: "zh-TW" | "en";
  source: "web" | "liff";
  guestName?: string | null;
};

/** Claims one place at a start time, or refuses `slot_full`: one statement, the counter row is the lock. */
async function claimPlace(tx: Database, storeId: string, kind: AppointmentKind, startsAt: Date, capacity: number) {
  const claimed = await tx
    .insert(appointmentSlot)
    .values({ storeId, kind, startsAt, booked: 1 })
    .onConflictDoUpdate({
      target: [appointmentSlot.storeId, appointmentSlot.kind, appointmentSlot.startsAt],
      set: { booked: sql`${appointmentSlot.booked} + 1` },
      setWhere: sql`${appointmentSlot.booked} < ${capacity}::int`,
    })
    .returning({ booked: appointmentSlot.booked });
  if (claimed.length === 0) refuse("slot_full");
}

/** Gives a place back (a cancelled or moved booking). */
async function releasePlace(tx: Database, storeId: string, kind: AppointmentKind, startsAt: Date) {
  await tx
    .update(appointmentSlot)
    .set({ booked: sql`${appointmentSlot.booked} - 1` })
    .where(
      and(
        eq(appointmentSlot.storeId, storeId),
        eq(appointmentSlot.kind, kind),
        eq(appointmentSlot.startsAt, startsAt),
        sql`${appointmentSlot.booked} > 0`,
      ),
    );
}

/** The date and time as a bookable start, or the refusal (places aside). */
async function checkedStart(
  db: Database,
  storeId: string,
  kind: AppointmentKind,
  day: string,
  time: string,
  now: Date,
) {
  const settings = await kindSettings(db, storeId, kind);
  if (!settings) refuse("not_offered");
  const date = parseDay(day);
  if (!date) refuse("in_past");
  const window = await showroomSettings(db);
  const problem = timeProblem(date, time, settings, await exceptionOn(db, storeId, date), now, window);
  if (problem) refuse(problem, window);
  const startsAt = slotInstant(date, time);
  return { settings, date, startsAt, endsAt: new Date(startsAt.getTime() + settings.durationMinutes * 60_000) };
}

const MAX_MATERIALS = 10;

async function checkMaterials(db: Database, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  if (unique.length > MAX_MATERIALS) refuse("bad_material");
  const found = await db
    .select({ id: material.id })
    .from(material)
    .where(and(inArray(material.id, unique), eq(material.published, true)));
  if (found.length !== unique.length) refuse("bad_material");
  return unique;
}

function checkAddress(kind: AppointmentKind, address: AppointmentAddress | null): AppointmentAddress | null {
  if (kind !== "measuring") return null;
  if (!address || !isCity(address.city)) refuse("bad_address");
  const district = address.district.trim();
  const street = address.street.trim();
  if (!district || !street || district.length > 40 || street.length > 160) refuse("bad_address");
  return { city: address.city, district, street };
}

// Crockford-like: no 0/O, 1/I/L.
const REFERENCE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

function newReference(): string {
  let out = "";
  for (let i = 0; i < 8; i++) out += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return out;
}

/** The per-day limits of a booking: the member's and the phone's (a guest has only the phone). */
function bookingLimits(owner: Owner) {
  const limits = [{ key: `appointment:phone:${owner.phone}`, window: "day" as const, max: DAILY_BOOKING_LIMIT }];
  if (owner.memberId)
    limits.push({ key: `appointment:member:${owner.memberId}`, window: "day", max: DAILY_BOOKING_LIMIT });
  return limits;
}

/**
 * Books a place: checks the day and time, the address (丈量) and the materials, then in one transaction claims the
 * day's limits of the member and the phone (atomic counters), the place (the slot counter) and stores the booking.
 * A refusal leaves nothing stored.
 */
export async function bookAppointment(
  db: Database,
  owner: Owner,
  input: BookingInput,
  now: Date,
): Promise<AppointmentRow> {
  const { startsAt, endsAt } = await checkedStart(db, input.storeId, input.kind, input.date, input.time, now);
  const address = checkAddress(input.kind, input.address);
  const materialIds = await checkMaterials(db, input.materialIds);
  const settings = (await kindSettings(db, input.storeId, input.kind)) as KindSettings;
  try {
    return await db.transaction(async (tx) => {
      await claimLimitsIn(tx, bookingLimits(owner), now);
      await claimPlace(tx, input.storeId, input.kind, startsAt, settings.capacity);
      const [row] = await tx
        .insert(appointment)
        .values({
          reference: newReference(),
          storeId: input.storeId,
          kind: input.kind,
          startsAt,
          endsAt,
          localDate: taipeiIsoDate(startsAt),
          memberId: owner.memberId,
          guestPhone: owner.memberId ? null : owner.phone,
          guestName: owner.memberId ? null : (input.guestName ?? null),
          materialIds,
          note: input.note,
          address,
          locale: input.locale,
          source: input.source,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row as AppointmentRow;
    });
  } catch (error) {
    if (error instanceof LimitRefusedError) refuse("limit_reached");
    throw error;
  }
}

/** The caller's open booking, locked for the change; another member's (or a guest's) id is "not found". */
async function lockOwn(tx: Database, owner: Owner, id: string): Promise<AppointmentRow> {
  const ownedBy = owner.memberId
    ? eq(appointment.memberId, owner.memberId)
    : and(isNull(appointment.memberId), eq(appointment.guestPhone, owner.phone));
  const [row] = await tx
    .select()
    .from(appointment)
    .where(and(eq(appointment.id, id), ownedBy))
    .for("update")
    .limit(1);
  if (!row) refuse("not_found");
  if (row.status !== "booked") refuse("not_open");
  return row;
}

/** Moves a booking to another day or time of the same store and kind, until the cut-off; the old place is freed. */
export async function rescheduleAppointment(
  db: Database,
  owner: Owner,
  id: string,
  target: { date: string; time: string },
  now: Date,
): Promise<AppointmentRow> {
  return db.transaction(async (tx) => {
    const row = await lockOwn(tx, owner, id);
    const window = await showroomSettings(tx);
    if (!canChange(row.startsAt, now, window.changeCutoffMinutes)) refuse("past_cutoff", window);
    const next = await checkedStart(tx, row.storeId, row.kind, target.date, target.time, now);
    if (next.startsAt.getTime() === row.startsAt.getTime()) return row;
    await claimPlace(tx, row.storeId, row.kind, next.startsAt, next.settings.capacity);
    await releasePlace(tx, row.storeId, row.kind, row.startsAt);
    const [moved] = await tx
      .update(appointment)
      .set({
        startsAt: next.startsAt,
        endsAt: next.endsAt,
        localDate: taipeiIsoDate(next.startsAt),
        rescheduleCount: sql`${appointment.rescheduleCount} + 1`,
        version: sql`${appointment.version} + 1`,
        needsCallAt: null,
        // The new time is confirmed again, and reminded the day before it.
        confirmationSentAt: null,
        reminderSentAt: null,
        updatedAt: now,
      })
      .where(eq(appointment.id, row.id))
      .returning();
    return moved as AppointmentRow;
  });
}

/** Cancels a booking until the cut-off; the place is given back in the same transaction. */
export async function cancelAppointment(db: Database, owner: Owner, id: string, now: Date): Promise<AppointmentRow> {
  return db.transaction(async (tx) => {
    const row = await lockOwn(tx, owner, id);
    const window = await showroomSettings(tx);
    if (!canChange(row.startsAt, now, window.changeCutoffMinutes)) refuse("past_cutoff", window);
    await releasePlace(tx, row.storeId, row.kind, row.startsAt);
    const [cancelled] = await tx
      .update(appointment)
      .set({
        status: "cancelled",
        cancelledAt: now,
        cancelledBy: "member",
        version: sql`${appointment.version} + 1`,
        updatedAt: now,
      })
      .where(eq(appointment.id, row.id))
      .returning();
    return cancelled as AppointmentRow;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The member's list and one booking

const listColumns = {
  id: appointment.id,
  reference: appointment.reference,
  storeId: appointment.storeId,
  storeName: store.name,
  kind: appointment.kind,
  startsAt: appointment.startsAt,
  endsAt: appointment.endsAt,
  localDate: appointment.localDate,
  status: appointment.status,
  materialIds: appointment.materialIds,
  note: appointment.note,
  address: appointment.address,
  rescheduleCount: appointment.rescheduleCount,
  version: appointment.version,
};

export type MemberAppointment = Awaited<ReturnType<typeof memberAppointments>>[number];

/** Every booking of a member, every status, newest start first. */
export async function memberAppointments(db: Database, memberId: string) {
  return db
    .select(listColumns)
    .from(appointment)
    .innerJoin(store, eq(store.id, appointment.storeId))
    .where(eq(appointment.memberId, memberId))
    .orderBy(desc(appointment.startsAt))
    .limit(200);
}

/** One booking of the caller (a member's, or a guest phone's not yet attached), with the store's address. */
export async function ownAppointment(db: Database, owner: Owner, id: string) {
  const ownedBy = owner.memberId
    ? eq(appointment.memberId, owner.memberId)
    : and(isNull(appointment.memberId), eq(appointment.guestPhone, owner.phone));
  const [row] = await db
    .select({
      ...listColumns,
      storeAddress: store.address,
      storeDistrict: store.district,
      storeCity: store.city,
      storePhone: store.phone,
    })
    .from(appointment)
    .innerJoin(store, eq(store.id, appointment.storeId))
    .where(and(eq(appointment.id, id), ownedBy))
    .limit(1);
  return row ?? null;
}

/** The names of materials (published or not) by id, for the booking's list. */
export async function materialNames(db: Database, ids: string[]) {
  if (ids.length === 0) return new Map<string, { "zh-TW": string; en: string }>();
  const rows = await db
    .select({ id: material.id, name: material.name })
    .from(material)
    .where(inArray(material.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * A guest's bookings become the member's when they sign up with that phone (issue 37): every booking of the phone
 * with no member yet. The guest's phone and name stay on the row. Returns how many were attached.
 */
/**
 * Whose a booking is, for a guest's link (manage-link.server.ts): the guest's phone while it is a guest's, the member
 * once signing up attached it (their member center has it now), or null when there is no such booking or it was
 * never a guest's.
 */
export async function guestLinkOwner(
  db: Database,
  id: string,
): Promise<{ guest: Owner } | { memberId: string } | null> {
  const [row] = await db
    .select({ memberId: appointment.memberId, guestPhone: appointment.guestPhone })
    .from(appointment)
    .where(eq(appointment.id, id))
    .limit(1);
  if (!row?.guestPhone) return null;
  if (row.memberId) return { memberId: row.memberId };
  return { guest: { memberId: null, phone: row.guestPhone } };
}

/**
 * A guest's bookings by their phone, once the phone is verified by a code (the "find my booking" page, ADR 044 "a
 * guest's own page"): every booking of that number not attached to a member, newest start first, with the store.
 */
export async function guestAppointmentsOfPhone(db: Database, phone: string) {
  return db
    .select({
      id: appointment.id,
      reference: appointment.reference,
      kind: appointment.kind,
      status: appointment.status,
      startsAt: appointment.startsAt,
      endsAt: appointment.endsAt,
      storeName: store.name,
    })
    .from(appointment)
    .innerJoin(store, eq(store.id, appointment.storeId))
    .where(and(isNull(appointment.memberId), eq(appointment.guestPhone, phone)))
    .orderBy(desc(appointment.startsAt))
    .limit(50);
}

export async function attachGuestAppointments(db: Database, memberId: string, phone: string): Promise<number> {
  const rows = await db
    .update(appointment)
    .set({ memberId, updatedAt: sql`now()` })
    .where(and(isNull(appointment.memberId), eq(appointment.guestPhone, phone)))
    .returning({ id: appointment.id });
  return rows.length;
}

/**
 * After a store's hours exceptions change (a holiday added later): its open bookings on a day that no longer has
 * the slot keep their place and get `needs_call_at` (staff call the member). Bookings already flagged stay so.
 * Run in the transaction that saved the exceptions. Returns how many were flagged now.
 */
export async function flagBookingsOnClosedDays(tx: Database, storeId: string, now: Date): Promise<number> {
  const today = taipeiIsoDate(now);
  const exceptions = await tx
    .select({ date: storeHoursException.date, intervals: storeHoursException.intervals })
    .from(storeHoursException)
    .where(and(eq(storeHoursException.storeId, storeId), gte(storeHoursException.date, today)));
  if (exceptions.length === 0) return 0;
  const open = await tx
    .select({
      id: appointment.id,
      startsAt: appointment.startsAt,
      endsAt: appointment.endsAt,
      localDate: appointment.localDate,
    })
    .from(appointment)
    .where(
      and(
        eq(appointment.storeId, storeId),
        eq(appointment.status, "booked"),
        isNull(appointment.needsCallAt),
        inArray(
          appointment.localDate,
          exceptions.map((e) => e.date),
        ),
      ),
    );
  const toFlag = open.filter((booking) => {
    const date = parseDay(booking.localDate) as CalendarDate;
    const day = hoursOn(date, [[], [], [], [], [], [], []], exceptions);
    const start = booking.startsAt.getTime();
    const end = booking.endsAt.getTime();
    return !day.intervals.some((i) => {
      const [oh, om] = i.open.split(":").map(Number) as [number, number];
      const [ch, cm] = i.close.split(":").map(Number) as [number, number];
      return start >= fromTaipeiWallClock(date, oh, om).getTime() && end <= fromTaipeiWallClock(date, ch, cm).getTime();
    });
  });
  if (toFlag.length === 0) return 0;
  await tx
    .update(appointment)
    .set({ needsCallAt: now, updatedAt: now })
    .where(
      inArray(
        appointment.id,
        toFlag.map((b) => b.id),
      ),
    );
  return toFlag.length;
}
