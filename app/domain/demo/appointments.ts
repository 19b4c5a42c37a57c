import type { AppointmentKind, WeeklySlots } from "@platform/db/schema/appointments";
import { KIND_DEFAULT_MINUTES } from "../appointments/rules";
import { SEED_STORES } from "./stores";

/**
 * The demo showrooms' appointment settings (issue 37): every published showroom takes visits; those offering design
 * consultation or measuring take those too. Flagships have two consultants on duty.
 */
const every = (times: string[]): WeeklySlots => [times, times, times, times, times, times, times];
const weekdays = (times: string[]): WeeklySlots => [[], times, times, times, times, times, []];

const VISIT = ["11:00", "11:30", "14:00", "14:30", "15:00", "15:30", "16:00", "16:30", "19:00", "19:30"];
const CONSULTATION = ["11:00", "14:00", "15:30", "19:00"];
const MEASURING = ["10:00", "14:00"];

type SeedKind = {
  storeId: string;
  kind: AppointmentKind;
  enabled: boolean;
  durationMinutes: number;
  capacity: number;
  weeklySlots: WeeklySlots;
};

export function seedAppointmentKinds(): SeedKind[] {
  return SEED_STORES.filter((s) => s.published).flatMap((s) => {
    const flagship = s.id.endsWith("flagship");
    const rows: SeedKind[] = [
      {
        storeId: s.id,
        kind: "visit",
        enabled: true,
        durationMinutes: KIND_DEFAULT_MINUTES.visit,
        capacity: 3,
        weeklySlots: every(VISIT),
      },
    ];
    if (s.services.includes("design-consultation")) {
      rows.push({
        storeId: s.id,
        kind: "consultation",
        enabled: true,
        durationMinutes: KIND_DEFAULT_MINUTES.consultation,
        capacity: flagship ? 2 : 1,
        weeklySlots: every(CONSULTATION),
      });
    }
    if (s.services.includes("measuring")) {
      rows.push({
        storeId: s.id,
        kind: "measuring",
        enabled: true,
        durationMinutes: KIND_DEFAULT_MINUTES.measuring,
        capacity: 1,
        weeklySlots: weekdays(MEASURING),
      });
    }
    return rows;
  });
}
