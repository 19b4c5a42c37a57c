import type { Database } from "@platform/db/client";
import {
  APPOINTMENT_KINDS,
  APPOINTMENT_STATUSES,
  type AppointmentKind,
  type AppointmentStatus,
  appointment,
  appointmentSlot,
  authUser,
  type LocalizedText,
  material,
  member,
  staffAccount,
  staffStore,
  store,
} from "@platform/db/schema";
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
import { parseIsoDate, taipeiIsoDate } from "~/lib/time";
import { type AuditContext, type AuditWriter, auditedTx } from "../audit/audit.server";
import { credit, entryByKey, lockAccountOf, type Tx } from "../loyalty/ledger.server";
import { currentRules, lotExpiry } from "../loyalty/rules.server";
import { Refusal, VersionConflict } from "../refusals";
import { showroomSettings } from "../showroom/settings.server";
import type { StaffActor } from "../staff/actor";
import { actorFirstByName } from "../staff/clerk.server";
import { requirePermission } from "../staff/guard.server";
import { hasPermission, storesFor } from "../staff/permissions";
import { VISIT_NOTE_MAX } from "./limits";

/**
 * At the showroom (issue 37 part 2, ADR 045): today's appointments at the counter, check-in (by the member's card
 * or a button), the console's appointment list and page (consultant, staff cancel, the call after a holiday, the
 * visit note and follow-up), the follow-up list, the no-show job and the member's appointment history.
 *
 * Every write is permission-checked (`counter.appointments` at the appointment's store), one conditional statement
 * (a status or a version in its `where`), and audited in its transaction. An appointment of a store the person does
 * not work at reads as not found.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const APPOINTMENT_LIST_LIMIT = 200;

export type VisitRow = {
  id: string;
  reference: string;
  storeId: string;
  storeName: LocalizedText | null;
  kind: AppointmentKind;
  status: AppointmentStatus;
  startsAt: string;
  endsAt: string;
  localDate: string;
  memberId: string | null;
  memberNumber: string | null;
  /** The member's name, or the guest's. */
  name: string;
  guest: boolean;
  materials: { id: string; name: LocalizedText | null }[];
  note: string | null;
  needsCall: boolean;
  consultant: { userId: string; displayName: string } | null;
  checkedInAt: string | null;
  noShowAt: string | null;
  cancelledAt: string | null;
  cancelledBy: "member" | "staff" | null;
  visitNote: string | null;
  followUpOn: string | null;
  followUpDoneAt: string | null;
  version: number;
};

const columns = {
  id: appointment.id,
  reference: appointment.reference,
  storeId: appointment.storeId,
  storeName: store.name,
  kind: appointment.kind,
  status: appointment.status,
  startsAt: appointment.startsAt,
  endsAt: appointment.endsAt,
  localDate: appointment.localDate,
  memberId: appointment.memberId,
  memberNumber: member.memberNumber,
  memberName: member.nameZh,
  guestName: appointment.guestName,
  materialIds: appointment.materialIds,
  note: appointment.note,
  needsCallAt: appointment.needsCallAt,
  consultantUserId: appointment.consultantUserId,
  consultantName: staffAccount.displayName,
  checkedInAt: appointment.checkedInAt,
  noShowAt: appointment.noShowAt,
  cancelledAt: appointment.cancelledAt,
  cancelledBy: appointment.cancelledBy,
  visitNote: appointment.visitNote,
  followUpOn: appointment.followUpOn,
  followUpDoneAt: appointment.followUpDoneAt,
  version: appointment.version,
};

function select(db: Database, where: SQL | undefined) {
  return db
    .select(columns)
    .from(appointment)
    .leftJoin(member, eq(member.id, appointment.memberId))
    .leftJoin(store, eq(store.id, appointment.storeId))
    .leftJoin(staffAccount, eq(staffAccount.userId, appointment.consultantUserId))
    .where(where);
}

type Raw = Awaited<ReturnType<typeof select>>[number];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The rows as pages show them, with the names of the materials of interest (one query for all). */
async function shape(db: Database, rows: Raw[]): Promise<VisitRow[]> {
  const ids = [...new Set(rows.flatMap((r) => r.materialIds ?? []))];
  const names = new Map(
    ids.length
      ? (await db.select({ id: material.id, name: material.name }).from(material).where(inArray(material.id, ids))).map(
          (m) => [m.id, m.name],
        )
      : [],
  );
  return rows.map((r) => ({
    id: r.id,
    reference: r.reference,
    storeId: r.storeId,
    storeName: r.storeName,
    kind: r.kind,
    status: r.status,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    localDate: r.localDate,
    memberId: r.memberId,
    memberNumber: r.memberNumber,
    name: r.memberName ?? r.guestName ?? "",
    guest: r.memberId === null,
    materials: (r.materialIds ?? []).map((id) => ({ id, name: names.get(id) ?? null })),
    note: r.note,
    needsCall: r.needsCallAt !== null,
    consultant: r.consultantUserId ? { userId: r.consultantUserId, displayName: r.consultantName ?? "" } : null,
    checkedInAt: iso(r.checkedInAt),
    noShowAt: iso(r.noShowAt),
    cancelledAt: iso(r.cancelledAt),
    cancelledBy: r.cancelledBy,
    visitNote: r.visitNote,
    followUpOn: r.followUpOn,
    followUpDoneAt: iso(r.followUpDoneAt),
    version: r.version,
  }));
}

/** Today's (Taipei) appointments of one store, by time: the counter's start screen. */
export async function appointmentsToday(db: Database, storeId: string, now = new Date()): Promise<VisitRow[]> {
  const rows = await select(
    db,
    and(eq(appointment.storeId, storeId), eq(appointment.localDate, taipeiIsoDate(now))),
  ).orderBy(asc(appointment.startsAt), asc(appointment.reference));
  return shape(db, rows);
}

export type VisitFilters = {
  store: string;
  from: string;
  to: string;
  kind: AppointmentKind | "";
  status: AppointmentStatus | "";
};

/**
 * The console's list: appointments of the stores the actor works at (one store when `store` is given; a store
 * they may not pick lists nothing), between two Taipei days, by day and time.
 */
export async function listAppointments(
  db: Database,
  actor: StaffActor,
  filters: VisitFilters,
): Promise<{ rows: VisitRow[]; truncated: boolean }> {
  const stores = storesFor(actor, "counter.appointments");
  if (filters.store && stores !== "all" && !stores.includes(filters.store)) return { rows: [], truncated: false };
  if (stores !== "all" && stores.length === 0) return { rows: [], truncated: false };
  const where = and(
    filters.store
      ? eq(appointment.storeId, filters.store)
      : stores === "all"
        ? undefined
        : inArray(appointment.storeId, [...stores]),
    gte(appointment.localDate, filters.from),
    lte(appointment.localDate, filters.to),
    filters.kind ? eq(appointment.kind, filters.kind) : undefined,
    filters.status ? eq(appointment.status, filters.status) : undefined,
  );
  const rows = await select(db, where)
    .orderBy(asc(appointment.startsAt), asc(appointment.reference))
    .limit(APPOINTMENT_LIST_LIMIT + 1);
  return {
    rows: await shape(db, rows.slice(0, APPOINTMENT_LIST_LIMIT)),
    truncated: rows.length > APPOINTMENT_LIST_LIMIT,
  };
}

/** One appointment the actor may see (at one of their stores), or null (unknown, malformed id, another store). */
export async function appointmentFor(db: Database, actor: StaffActor, id: string): Promise<VisitRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await select(db, eq(appointment.id, id));
  if (!row || !hasPermission(actor, "counter.appointments", { storeId: row.storeId })) return null;
  const [shaped] = await shape(db, [row]);
  return shaped ?? null;
}

/** The appointment's store, permission-checked: another store's appointment reads as not found. */
async function storeOf(db: Database, actor: StaffActor, id: string): Promise<string> {
  requirePermission(actor, "counter.appointments");
  if (!UUID.test(id)) throw new Refusal("visits", "not_found");
  const [row] = await db.select({ storeId: appointment.storeId }).from(appointment).where(eq(appointment.id, id));
  if (!row || !hasPermission(actor, "counter.appointments", { storeId: row.storeId })) {
    throw new Refusal("visits", "not_found");
  }
  return row.storeId;
}

/**
 * Points for a kept visit (the rule `keptVisit…`, default off), in the check-in's transaction: once per
 * appointment (the ledger key `visit:<id>`), only for a member (not a guest) who is not disabled.
 */
async function bookKeptVisit(
  tx: Tx,
  visit: { id: string; memberId: string | null; storeId: string },
  staffUserId: string | null,
  now: Date,
): Promise<number> {
  if (!visit.memberId) return 0;
  const rules = await currentRules(tx, now);
  if (!rules.keptVisitEnabled || rules.keptVisitPoints <= 0) return 0;
  const key = `visit:${visit.id}`;
  const { account, disabled } = await lockAccountOf(tx, visit.memberId);
  if (disabled || (await entryByKey(tx, key))) return 0;
  await credit(
    tx,
    account,
    {
      kind: "visit",
      key,
      amount: rules.keptVisitPoints,
      expiresAt: lotExpiry(now),
      storeId: visit.storeId,
      staffUserId,
      reason: "kept visit",
    },
    now,
  );
  return rules.keptVisitPoints;
}

export type CheckIn = { id: string; reference: string; already: boolean; points: number };

/**
 * Checks one appointment in at the store being worked at: one conditional update (booked → checked_in, today,
 * this store), audited in its transaction with the kept-visit points. A second check-in of the same booking
 * (a second scan, two tills at once) changes nothing and answers `already`; a cancelled or no-show booking, or
 * one of another day, is refused; another store's reads as not found.
 */
export async function checkIn(
  db: Database,
  actor: StaffActor,
  storeId: string,
  id: string,
  audit: AuditContext,
  now = new Date(),
): Promise<CheckIn> {
  requirePermission(actor, "counter.appointments", { storeId });
  if (!UUID.test(id)) throw new Refusal("visits", "not_found");
  const today = taipeiIsoDate(now);
  return auditedTx(db, audit, now, async (tx, record) => {
    const [done] = await tx
      .update(appointment)
      .set({
        status: "checked_in",
        checkedInAt: now,
        checkedInBy: actor.userId,
        version: sql`${appointment.version} + 1`,
        updatedAt: now,
      })
      .where(
        and(
          eq(appointment.id, id),
          eq(appointment.storeId, storeId),
          eq(appointment.localDate, today),
          eq(appointment.status, "booked"),
        ),
      )
      .returning({ id: appointment.id, reference: appointment.reference, memberId: appointment.memberId });
    if (done) {
      const points = await bookKeptVisit(tx, { ...done, storeId }, actor.userId, now);
      await record("appointment.checked_in", ["appointment", id], {
        before: { status: "booked" },
        after: { status: "checked_in", points },
      });
      return { id, reference: done.reference, already: false, points };
    }
    const [found] = await tx
      .select({
        storeId: appointment.storeId,
        status: appointment.status,
        localDate: appointment.localDate,
        reference: appointment.reference,
      })
      .from(appointment)
      .where(eq(appointment.id, id));
    if (!found || found.storeId !== storeId) throw new Refusal("visits", "not_found");
    if (found.status === "checked_in") return { id, reference: found.reference, already: true, points: 0 };
    if (found.status !== "booked") throw new Refusal("visits", "not_booked");
    throw new Refusal("visits", "not_today");
  });
}

/**
 * The scan at the counter: the member's appointments today at this store that are still booked. Exactly one is
 * checked in at once; with none or several the counter shows them (a button each).
 */
export async function checkInScanned(
  db: Database,
  actor: StaffActor,
  storeId: string,
  memberId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<CheckIn | null> {
  if (!hasPermission(actor, "counter.appointments", { storeId }) || !UUID.test(memberId)) return null;
  const open = await db
    .select({ id: appointment.id })
    .from(appointment)
    .where(
      and(
        eq(appointment.memberId, memberId),
        eq(appointment.storeId, storeId),
        eq(appointment.localDate, taipeiIsoDate(now)),
        eq(appointment.status, "booked"),
      ),
    )
    .limit(2);
  const [only] = open;
  if (open.length !== 1 || !only) return null;
  return checkIn(db, actor, storeId, only.id, audit, now);
}

/** The member's appointments today at this store (any status): the counter's member page. */
export async function memberAppointmentsToday(
  db: Database,
  storeId: string,
  memberId: string,
  now = new Date(),
): Promise<VisitRow[]> {
  if (!UUID.test(memberId)) return [];
  const rows = await select(
    db,
    and(
      eq(appointment.memberId, memberId),
      eq(appointment.storeId, storeId),
      eq(appointment.localDate, taipeiIsoDate(now)),
    ),
  ).orderBy(asc(appointment.startsAt));
  return shape(db, rows);
}

/**
 * One versioned change of an appointment: `set` applied where the id, the version (and `also`) still hold, the
 * version raised; nothing changed → the appointment changed meanwhile (`VersionConflict`) or `refusal`.
 */
async function versioned(
  tx: Tx,
  record: AuditWriter,
  change: {
    id: string;
    version: number;
    set: Partial<typeof appointment.$inferInsert>;
    also?: SQL;
    refusal: () => Promise<Refusal | null>;
    action: Parameters<AuditWriter>[0];
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  },
  now: Date,
) {
  const [done] = await tx
    .update(appointment)
    .set({ ...change.set, version: sql`${appointment.version} + 1`, updatedAt: now })
    .where(and(eq(appointment.id, change.id), eq(appointment.version, change.version), change.also))
    .returning({
      storeId: appointment.storeId,
      kind: appointment.kind,
      startsAt: appointment.startsAt,
      version: appointment.version,
    });
  if (!done) {
    const [current] = await tx
      .select({ version: appointment.version })
      .from(appointment)
      .where(eq(appointment.id, change.id));
    if (current && current.version !== change.version) throw new VersionConflict("visits", current);
    throw (await change.refusal()) ?? new Refusal("visits", "not_found");
  }
  await record(change.action, ["appointment", change.id], { before: change.before, after: change.after });
  return done;
}

/** Whether the staff member works at the store (an admin works at every store) and is enabled. */
async function worksAt(db: Database, userId: string, storeId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: staffAccount.userId })
    .from(staffAccount)
    .innerJoin(authUser, eq(authUser.id, staffAccount.userId))
    .where(
      and(
        eq(staffAccount.userId, userId),
        isNull(staffAccount.disabledAt),
        sql`(${authUser.role} = 'admin' or (${authUser.role} in ('staff', 'manager') and exists (
          select 1 from ${staffStore} s where s.user_id = ${staffAccount.userId} and s.store_id = ${storeId})))`,
      ),
    );
  return Boolean(row);
}

/** The enabled staff of a store (and the admins), for the consultant picker: the actor first. */
export async function consultantsOf(
  db: Database,
  actor: StaffActor,
  storeId: string,
): Promise<{ userId: string; displayName: string }[]> {
  const rows = await db
    .selectDistinct({ userId: staffAccount.userId, displayName: staffAccount.displayName })
    .from(staffAccount)
    .innerJoin(authUser, eq(authUser.id, staffAccount.userId))
    .leftJoin(staffStore, eq(staffStore.userId, staffAccount.userId))
    .where(
      and(
        isNull(staffAccount.disabledAt),
        sql`(${authUser.role} = 'admin' or (${authUser.role} in ('staff', 'manager') and ${staffStore.storeId} = ${storeId}))`,
      ),
    );
  return actorFirstByName(rows, actor);
}

/**
 * Assigns the consultant (null: none): a staff member of the appointment's store only; another store's person,
 * a disabled one or a forged id is refused beside the field.
 */
export async function assignConsultant(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  consultantUserId: string | null,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  const storeId = await storeOf(db, actor, id);
  if (consultantUserId !== null && !(await worksAt(db, consultantUserId, storeId))) {
    throw new Refusal("visits", "unknown_consultant", { field: "consultant" });
  }
  await auditedTx(db, audit, now, async (tx, record) => {
    const [before] = await tx
      .select({ consultantUserId: appointment.consultantUserId })
      .from(appointment)
      .where(eq(appointment.id, id));
    await versioned(
      tx,
      record,
      {
        id,
        version,
        set: { consultantUserId },
        refusal: async () => null,
        action: "appointment.consultant_assigned",
        before: { consultantUserId: before?.consultantUserId ?? null },
        after: { consultantUserId },
      },
      now,
    );
  });
}

/** Cancels a booked appointment for the member (staff): the place goes back to its slot in the same transaction. */
export async function cancelByStaff(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  await storeOf(db, actor, id);
  await auditedTx(db, audit, now, async (tx, record) => {
    const done = await versioned(
      tx,
      record,
      {
        id,
        version,
        set: { status: "cancelled", cancelledAt: now, cancelledBy: "staff" },
        also: eq(appointment.status, "booked"),
        refusal: async () => new Refusal("visits", "not_booked"),
        action: "appointment.cancelled_by_staff",
        before: { status: "booked" },
        after: { status: "cancelled" },
      },
      now,
    );
    await tx
      .update(appointmentSlot)
      .set({ booked: sql`${appointmentSlot.booked} - 1` })
      .where(
        and(
          eq(appointmentSlot.storeId, done.storeId),
          eq(appointmentSlot.kind, done.kind),
          eq(appointmentSlot.startsAt, done.startsAt),
          sql`${appointmentSlot.booked} > 0`,
        ),
      );
  });
}

/** The member was called about the holiday that fell on the booking: the flag goes. */
export async function markCallDone(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  await storeOf(db, actor, id);
  await auditedTx(db, audit, now, async (tx, record) => {
    await versioned(
      tx,
      record,
      {
        id,
        version,
        set: { needsCallAt: null },
        also: isNotNull(appointment.needsCallAt),
        refusal: async () => null,
        action: "appointment.call_done",
        before: { needsCall: true },
        after: { needsCall: false },
      },
      now,
    );
  });
}

/**
 * The consultant's note after the visit and the day to follow up (a Taipei date, today or later; empty: none).
 * Only after check-in. A new date opens the follow-up again.
 */
export async function saveVisitNote(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  input: { visitNote: string; followUpOn: string },
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  await storeOf(db, actor, id);
  const followUpOn = input.followUpOn === "" ? null : input.followUpOn;
  if (followUpOn !== null && (!parseIsoDate(followUpOn, 2000) || followUpOn < taipeiIsoDate(now))) {
    throw new Refusal("visits", "follow_up_date", { field: "followUpOn" });
  }
  const visitNote = input.visitNote.trim() === "" ? null : input.visitNote.trim().slice(0, VISIT_NOTE_MAX);
  await auditedTx(db, audit, now, async (tx, record) => {
    const [before] = await tx
      .select({ followUpOn: appointment.followUpOn, hadNote: sql<boolean>`${appointment.visitNote} is not null` })
      .from(appointment)
      .where(eq(appointment.id, id));
    const reopened = before?.followUpOn !== followUpOn;
    await versioned(
      tx,
      record,
      {
        id,
        version,
        set: { visitNote, followUpOn, ...(reopened ? { followUpDoneAt: null } : {}) },
        also: eq(appointment.status, "checked_in"),
        refusal: async () => new Refusal("visits", "not_checked_in"),
        action: "appointment.visit_noted",
        // The note is the member's personal story: the log says that it changed, not what it says.
        before: { followUpOn: before?.followUpOn ?? null, note: before?.hadNote ?? false },
        after: { followUpOn, note: visitNote !== null },
      },
      now,
    );
  });
}

/** The follow-up was done (a call, a message): it leaves the list. */
export async function markFollowUpDone(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  await storeOf(db, actor, id);
  await auditedTx(db, audit, now, async (tx, record) => {
    await versioned(
      tx,
      record,
      {
        id,
        version,
        set: { followUpDoneAt: now },
        also: and(isNotNull(appointment.followUpOn), isNull(appointment.followUpDoneAt)),
        refusal: async () => new Refusal("visits", "no_follow_up"),
        action: "appointment.follow_up_done",
        before: { followUpDone: false },
        after: { followUpDone: true },
      },
      now,
    );
  });
}

/** Who sees whose follow-ups: everyone their own; an admin everybody's ("all"). */
export function mayListAllFollowUps(actor: StaffActor): boolean {
  return actor.role === "admin";
}

/**
 * The follow-ups due today or earlier and not done: the actor's own (`mine`), or every consultant's at the
 * actor's stores (`all`, admins), by day and consultant.
 */
export async function followUps(
  db: Database,
  actor: StaffActor,
  scope: "mine" | "all",
  now = new Date(),
): Promise<VisitRow[]> {
  requirePermission(actor, "counter.appointments");
  const stores = storesFor(actor, "counter.appointments");
  const all = scope === "all" && mayListAllFollowUps(actor);
  const rows = await select(
    db,
    and(
      isNotNull(appointment.followUpOn),
      isNull(appointment.followUpDoneAt),
      lte(appointment.followUpOn, taipeiIsoDate(now)),
      all ? undefined : eq(appointment.consultantUserId, actor.userId),
      stores === "all" ? undefined : inArray(appointment.storeId, stores.length ? [...stores] : [""]),
    ),
  )
    .orderBy(asc(appointment.followUpOn), asc(staffAccount.displayName), asc(appointment.startsAt))
    .limit(APPOINTMENT_LIST_LIMIT);
  return shape(db, rows);
}

/**
 * The no-show job's one statement: every booking still `booked` whose slot ended more than the grace ago (the
 * showroom setting in force, ADR 050) becomes `no_show`. Safe to run any time, from any instance (the status in the
 * `where` decides each row once).
 */
export async function markNoShows(db: Database, now = new Date()) {
  const graceMinutes = (await showroomSettings(db)).noShowGraceMinutes;
  const cutoff = new Date(now.getTime() - graceMinutes * 60_000);
  const marked = await db
    .update(appointment)
    .set({ status: "no_show", noShowAt: now, version: sql`${appointment.version} + 1`, updatedAt: now })
    .where(and(eq(appointment.status, "booked"), lte(appointment.endsAt, cutoff)))
    .returning({ id: appointment.id });
  return { marked: marked.length };
}

/** The member's appointments for the console's member page, newest first (kept, no-show, cancelled, to come). */
export async function memberAppointments(db: Database, actor: StaffActor, memberId: string): Promise<VisitRow[]> {
  if (!UUID.test(memberId) || !hasPermission(actor, "member.view")) return [];
  const stores = storesFor(actor, "counter.appointments");
  if (stores !== "all" && stores.length === 0) return [];
  const rows = await select(
    db,
    and(eq(appointment.memberId, memberId), stores === "all" ? undefined : inArray(appointment.storeId, [...stores])),
  )
    .orderBy(desc(appointment.startsAt))
    .limit(50);
  return shape(db, rows);
}

export { APPOINTMENT_KINDS, APPOINTMENT_STATUSES };
