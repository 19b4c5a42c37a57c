import { store } from "@platform/db/schema/catalog";
import { member } from "@platform/db/schema/members";
import { staffAccount } from "@platform/db/schema/staff";
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Showroom appointments (issue 37, ADR 044).
 *
 * - Kinds are fixed (`visit` 參觀, `consultation` 設計諮詢, `measuring` 丈量 at the member's address); each store
 *   says per kind whether it takes bookings, the length, the weekly start times and how many bookings one start
 *   time takes (consultants on duty): `store_appointment_kind`.
 * - Times are Taipei wall-clock: a slot is a Taipei calendar date plus "HH:MM"; `starts_at`/`ends_at` are the same
 *   instant as timestamptz (Taipei has no DST, so the two never disagree). Closed days come from the store's
 *   hours exceptions (holidays).
 * - Capacity is decided by one statement on `appointment_slot` (insert … on conflict do update … where booked <
 *   capacity returning): the counter row of (store, kind, start) is the lock; two members racing for the last place
 *   cannot both win. Cancelling gives the place back in the same transaction.
 * - A booking belongs to a member, or to a guest with a verified phone (`guest_phone`, E.164); a guest who later
 *   signs up with that phone gets the booking attached (`member_id` set).
 */
export const APPOINTMENT_KINDS = ["visit", "consultation", "measuring"] as const;
export type AppointmentKind = (typeof APPOINTMENT_KINDS)[number];

export const APPOINTMENT_STATUSES = ["booked", "cancelled", "checked_in", "no_show"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** Seven lists of start times "HH:MM" (Taipei), Sunday first; an empty list: no bookings that weekday. */
export type WeeklySlots = string[][];

/** The address for 丈量 (measuring): a city code of app/domain/stores/cities.ts, district and street. */
export type AppointmentAddress = { city: string; district: string; street: string };

export const storeAppointmentKind = pgTable(
  "store_appointment_kind",
  {
    storeId: text("store_id")
      .notNull()
      .references(() => store.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: APPOINTMENT_KINDS }).notNull(),
    enabled: boolean("enabled").notNull().default(true),
    durationMinutes: integer("duration_minutes").notNull(),
    /** How many bookings one start time takes (consultants on duty). */
    capacity: integer("capacity").notNull().default(1),
    weeklySlots: jsonb("weekly_slots").$type<WeeklySlots>().notNull(),
    /** Optimistic concurrency, like the other console-edited rows. */
    version: integer("version").notNull().default(1),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.kind] }),
    check("store_appointment_kind_duration_ck", sql`${t.durationMinutes} between 15 and 480`),
    check("store_appointment_kind_capacity_ck", sql`${t.capacity} between 1 and 50`),
  ],
);

/** The places taken at one start time: the row every booking of that start time updates (the lock). */
export const appointmentSlot = pgTable(
  "appointment_slot",
  {
    storeId: text("store_id")
      .notNull()
      .references(() => store.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: APPOINTMENT_KINDS }).notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    booked: integer("booked").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.kind, t.startsAt] }),
    check("appointment_slot_booked_ck", sql`${t.booked} >= 0`),
  ],
);

export const appointment = pgTable(
  "appointment",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    /** Short reference shown to the member and staff (e.g. `A7K2QX`). */
    reference: text("reference").notNull().unique(),
    storeId: text("store_id")
      .notNull()
      .references(() => store.id),
    kind: text("kind", { enum: APPOINTMENT_KINDS }).notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** Taipei calendar date of starts_at (the day lists and reports group by it). */
    localDate: date("local_date", { mode: "string" }).notNull(),
    memberId: uuid("member_id").references(() => member.id, { onDelete: "set null" }),
    /** A guest's verified phone (E.164) and name; kept when the booking is attached to a member. */
    guestPhone: text("guest_phone"),
    guestName: text("guest_name"),
    status: text("status", { enum: APPOINTMENT_STATUSES }).notNull().default("booked"),
    /** Material ids the member wants to see (from their favourites), in order. */
    materialIds: jsonb("material_ids").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    note: text("note"),
    /** Only for `measuring`. */
    address: jsonb("address").$type<AppointmentAddress>(),
    /** zh-TW or en: the language of the messages to a guest (a member's own setting wins). */
    locale: text("locale").notNull().default("zh-TW"),
    /** Where it was booked: the web site or inside LINE (LIFF). */
    source: text("source", { enum: ["web", "liff", "counter"] })
      .notNull()
      .default("web"),
    /** The consultant assigned (staff of that store). */
    consultantUserId: text("consultant_user_id").references(() => staffAccount.userId, { onDelete: "set null" }),
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }),
    checkedInBy: text("checked_in_by"),
    noShowAt: timestamp("no_show_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelledBy: text("cancelled_by", { enum: ["member", "staff"] }),
    /** The consultant's note after the visit, and the day to follow up (Taipei date) and when that was done. */
    visitNote: text("visit_note"),
    followUpOn: date("follow_up_on", { mode: "string" }),
    followUpDoneAt: timestamp("follow_up_done_at", { withTimezone: true }),
    /** Set when a store holiday added later falls on the booking: staff should call the member. */
    needsCallAt: timestamp("needs_call_at", { withTimezone: true }),
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true }),
    /** How many times the member moved it (rescheduling keeps the row and its reference). */
    rescheduleCount: integer("reschedule_count").notNull().default(0),
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("appointment_store_day_idx").on(t.storeId, t.localDate, t.startsAt),
    index("appointment_member_idx").on(t.memberId, t.startsAt),
    index("appointment_guest_phone_idx").on(t.guestPhone).where(sql`${t.guestPhone} is not null`),
    index("appointment_follow_up_idx")
      .on(t.consultantUserId, t.followUpOn)
      .where(sql`${t.followUpOn} is not null and ${t.followUpDoneAt} is null`),
    // The reminder and no-show jobs read only open bookings.
    index("appointment_open_idx").on(t.startsAt).where(sql`${t.status} = 'booked'`),
    // The dashboard's showroom figures (ADR 048): a range of Taipei days over every store, counted from the index.
    index("appointment_report_idx").on(t.localDate, t.storeId, t.kind, t.status),
    check("appointment_owner_ck", sql`${t.memberId} is not null or ${t.guestPhone} is not null`),
    check("appointment_address_ck", sql`(${t.kind} = 'measuring') = (${t.address} is not null)`),
  ],
);

/**
 * The showroom's programme settings (issue 37, PRODUCT.md §12, ADR 050): how far ahead a booking may be made, the
 * change cut-off, the hour of the day-before reminder, the no-show grace, the open samples per member, the loan
 * days and the days before the due day the reminder goes. Versions, never updated: the newest row is in force at
 * once, the older ones are the history. No row: the defaults in code (app/domain/showroom/settings.ts).
 */
export const showroomSettings = pgTable(
  "showroom_settings",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    bookingHorizonDays: integer("booking_horizon_days").notNull(),
    changeCutoffMinutes: integer("change_cutoff_minutes").notNull(),
    reminderHour: integer("reminder_hour").notNull(),
    noShowGraceMinutes: integer("no_show_grace_minutes").notNull(),
    sampleLimit: integer("sample_limit").notNull(),
    sampleLoanDays: integer("sample_loan_days").notNull(),
    sampleReminderDays: integer("sample_reminder_days").notNull(),
    /** The admin's user id (kept as written when the staff account goes). */
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "showroom_settings_bounds_ck",
      sql`${t.bookingHorizonDays} between 1 and 365 and ${t.changeCutoffMinutes} between 0 and 4320
        and ${t.reminderHour} between 9 and 20 and ${t.noShowGraceMinutes} between 1 and 1440
        and ${t.sampleLimit} between 1 and 50 and ${t.sampleLoanDays} between 1 and 90
        and ${t.sampleReminderDays} between 1 and 30 and ${t.sampleReminderDays} < ${t.sampleLoanDays}`,
    ),
  ],
);
