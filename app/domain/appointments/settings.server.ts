import type { Database } from "@platform/db/client";
import {
  APPOINTMENT_KINDS,
  type AppointmentKind,
  store,
  storeAppointmentKind,
  type WeeklySlots,
} from "@platform/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { AppointmentRefusal } from "./appointments.server";
import { KIND_DEFAULT_MINUTES } from "./rules";

/**
 * A store's appointment settings in the console (issue 37): per kind, whether it takes bookings, the length, the
 * weekly start times and the places per start time. Saved per kind with the version the form started from (a
 * change in between is a `VersionConflict`), the permission checked by store and the audit row in the same
 * transaction. A kind never saved reads as the defaults of PRODUCT.md §12, switched off, version 0.
 */

export type KindSetting = {
  kind: AppointmentKind;
  enabled: boolean;
  durationMinutes: number;
  capacity: number;
  weeklySlots: WeeklySlots;
  version: number;
};

export async function storeAppointmentSettings(db: Database, actor: StaffActor, storeId: string) {
  requirePermission(actor, "store.edit", { storeId });
  const [row] = await db.select({ id: store.id, name: store.name }).from(store).where(eq(store.id, storeId)).limit(1);
  if (!row) throw new AppointmentRefusal("not_found");
  const saved = await db.select().from(storeAppointmentKind).where(eq(storeAppointmentKind.storeId, storeId));
  const kinds: KindSetting[] = APPOINTMENT_KINDS.map((kind) => {
    const found = saved.find((k) => k.kind === kind);
    return found
      ? {
          kind,
          enabled: found.enabled,
          durationMinutes: found.durationMinutes,
          capacity: found.capacity,
          weeklySlots: found.weeklySlots,
          version: found.version,
        }
      : {
          kind,
          enabled: false,
          durationMinutes: KIND_DEFAULT_MINUTES[kind],
          capacity: 1,
          weeklySlots: [[], [], [], [], [], [], []],
          version: 0,
        };
  });
  return { store: row, kinds };
}

/** Saves one kind of one store; returns the new version. */
export async function saveAppointmentKind(
  db: Database,
  actor: StaffActor,
  storeId: string,
  input: Omit<KindSetting, "version">,
  expectedVersion: number,
  audit: AuditContext,
  now: Date,
): Promise<number> {
  requirePermission(actor, "store.edit", { storeId });
  const [exists] = await db.select({ id: store.id }).from(store).where(eq(store.id, storeId)).limit(1);
  if (!exists) throw new AppointmentRefusal("not_found");
  return auditedTx(db, audit, now, async (tx, record) => {
    const [before] = await tx
      .select()
      .from(storeAppointmentKind)
      .where(and(eq(storeAppointmentKind.storeId, storeId), eq(storeAppointmentKind.kind, input.kind)))
      .for("update");
    const values = {
      enabled: input.enabled,
      durationMinutes: input.durationMinutes,
      capacity: input.capacity,
      weeklySlots: input.weeklySlots,
    };
    let version: number;
    if (!before) {
      if (expectedVersion !== 0) throw new VersionConflict("appointments", null);
      const inserted = await tx
        .insert(storeAppointmentKind)
        .values({ storeId, kind: input.kind, ...values, version: 1, updatedAt: now })
        .onConflictDoNothing()
        .returning({ version: storeAppointmentKind.version });
      if (inserted.length === 0) throw new VersionConflict("appointments", null);
      version = 1;
    } else {
      if (before.version !== expectedVersion) throw new VersionConflict("appointments", before.version);
      await tx
        .update(storeAppointmentKind)
        .set({ ...values, version: sql`${storeAppointmentKind.version} + 1`, updatedAt: now })
        .where(and(eq(storeAppointmentKind.storeId, storeId), eq(storeAppointmentKind.kind, input.kind)));
      version = before.version + 1;
    }
    await record("store.appointments_changed", ["store_appointment_kind", `${storeId}:${input.kind}`], {
      before: before
        ? {
            kind: input.kind,
            enabled: before.enabled,
            durationMinutes: before.durationMinutes,
            capacity: before.capacity,
            weeklySlots: before.weeklySlots,
          }
        : null,
      after: { kind: input.kind, ...values },
    });
    return version;
  });
}
