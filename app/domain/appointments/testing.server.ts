import { randomBytes } from "node:crypto";
import type { Database } from "@platform/db/client";
import { type AppointmentKind, appointment, appointmentSlot } from "@platform/db/schema";
import { sql } from "drizzle-orm";
import { taipeiIsoDate } from "~/lib/time";

/**
 * Test helpers (no test-runner imports): a booking straight in the database, its slot's counter raised as the
 * booking flow raises it. The showroom's tests use it while the booking itself is built elsewhere (issue 37 part 1).
 */
export async function bookTestAppointment(
  db: Database,
  input: {
    storeId: string;
    startsAt: Date;
    kind?: AppointmentKind;
    minutes?: number;
    memberId?: string | null;
    guestPhone?: string | null;
    guestName?: string | null;
    materialIds?: string[];
    note?: string | null;
    needsCall?: boolean;
  },
): Promise<typeof appointment.$inferSelect> {
  const kind = input.kind ?? "visit";
  const endsAt = new Date(input.startsAt.getTime() + (input.minutes ?? 60) * 60_000);
  await db
    .insert(appointmentSlot)
    .values({ storeId: input.storeId, kind, startsAt: input.startsAt, booked: 1 })
    .onConflictDoUpdate({
      target: [appointmentSlot.storeId, appointmentSlot.kind, appointmentSlot.startsAt],
      set: { booked: sql`${appointmentSlot.booked} + 1` },
    });
  const [row] = await db
    .insert(appointment)
    .values({
      reference: randomBytes(4).toString("hex").toUpperCase().slice(0, 6),
      storeId: input.storeId,
      kind,
      startsAt: input.startsAt,
      endsAt,
      localDate: taipeiIsoDate(input.startsAt),
      memberId: input.memberId ?? null,
      guestPhone: input.guestPhone ?? (input.memberId ? null : "+886912000111"),
      guestName: input.guestName ?? null,
      materialIds: input.materialIds ?? [],
      note: input.note ?? null,
      address: kind === "measuring" ? { city: "taipei", district: "信義區", street: "測試路 1 號" } : null,
      needsCallAt: input.needsCall ? input.startsAt : null,
    })
    .returning();
  if (!row) throw new Error("appointment insert returned nothing");
  return row;
}
