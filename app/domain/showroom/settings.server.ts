import type { Database } from "@platform/db/client";
import { showroomSettings as showroomSettingsTable, staffAccount } from "@platform/db/schema";
import { desc, eq, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { DEFAULT_SHOWROOM_SETTINGS, SHOWROOM_FIELDS, type ShowroomSettings, validShowroomSettings } from "./settings";

/**
 * The showroom's settings (issue 37, ADR 050): THE read every booking, change, job and sample request calls, and
 * the admin's save. Versions are rows of `showroom_settings`; the newest is in force from the moment it is saved
 * (id 0: none saved, the defaults). Admins only (`settings.edit`); the save and its audit row are one transaction.
 */

export type ShowroomSettingsVersion = ShowroomSettings & {
  /** 0 for the built-in defaults. */
  id: number;
  createdAt: Date | null;
  createdBy: string | null;
};

const columns = {
  id: showroomSettingsTable.id,
  bookingHorizonDays: showroomSettingsTable.bookingHorizonDays,
  changeCutoffMinutes: showroomSettingsTable.changeCutoffMinutes,
  reminderHour: showroomSettingsTable.reminderHour,
  noShowGraceMinutes: showroomSettingsTable.noShowGraceMinutes,
  sampleLimit: showroomSettingsTable.sampleLimit,
  sampleLoanDays: showroomSettingsTable.sampleLoanDays,
  sampleReminderDays: showroomSettingsTable.sampleReminderDays,
  createdAt: showroomSettingsTable.createdAt,
  createdBy: showroomSettingsTable.createdBy,
};

const DEFAULT_VERSION: ShowroomSettingsVersion = {
  ...DEFAULT_SHOWROOM_SETTINGS,
  id: 0,
  createdAt: null,
  createdBy: null,
};

function valuesOf(row: ShowroomSettings): ShowroomSettings {
  return Object.fromEntries(SHOWROOM_FIELDS.map((f) => [f, row[f]])) as ShowroomSettings;
}

/** The version in force: the newest saved one, or the defaults (one read of the primary key's last row). */
export async function currentShowroomSettings(db: Database): Promise<ShowroomSettingsVersion> {
  const [row] = await db.select(columns).from(showroomSettingsTable).orderBy(desc(showroomSettingsTable.id)).limit(1);
  return row && validShowroomSettings(row) ? row : DEFAULT_VERSION;
}

/** THE showroom settings in force now: every surface that books, changes, reminds, marks or lends reads this. */
export async function showroomSettings(db: Database): Promise<ShowroomSettings> {
  return valuesOf(await currentShowroomSettings(db));
}

/** The saved versions, newest first, with the admin's name (the page's history). */
export async function showroomSettingsHistory(db: Database) {
  return db
    .select({ ...columns, createdByName: staffAccount.displayName })
    .from(showroomSettingsTable)
    .leftJoin(staffAccount, eq(staffAccount.userId, showroomSettingsTable.createdBy))
    .orderBy(desc(showroomSettingsTable.id))
    .limit(100);
}

/**
 * Saves a new version (admins, `settings.edit`) over the version the form started from: the table is locked for
 * the check-then-insert, so of two admins saving at once the later one gets a `VersionConflict`. The values were
 * checked by the form's schema; the table's check constraint holds the same bounds. Saving the values in force
 * stores nothing. Returns the version in force after the save.
 */
export async function saveShowroomSettings(
  db: Database,
  actor: StaffActor,
  values: ShowroomSettings,
  baseVersion: number,
  audit: AuditContext,
  now = new Date(),
): Promise<ShowroomSettingsVersion> {
  requirePermission(actor, "settings.edit");
  if (!validShowroomSettings(values)) throw new Error("showroom settings out of bounds");
  return auditedTx(db, audit, now, async (t, record) => {
    await t.execute(sql`lock table ${showroomSettingsTable} in share row exclusive mode`);
    const before = await currentShowroomSettings(t);
    if (before.id !== baseVersion) throw new VersionConflict("showroom", before.id, { id: String(before.id) });
    const after = valuesOf(values);
    const changed = SHOWROOM_FIELDS.filter((f) => before[f] !== after[f]);
    if (changed.length === 0) return before;
    const [row] = await t
      .insert(showroomSettingsTable)
      .values({ ...after, createdBy: actor.userId, createdAt: now })
      .returning(columns);
    if (!row) throw new Error("showroom settings insert returned nothing");
    await record("showroom.settings_changed", ["showroom_settings", String(row.id)], {
      before: Object.fromEntries(changed.map((f) => [f, before[f]])),
      after: Object.fromEntries(changed.map((f) => [f, after[f]])),
    });
    return row;
  });
}
