import type { Database } from "@platform/db/client";
import {
  appointment,
  auditLog,
  material,
  materialSampleStore,
  sampleRequest,
  showroomSettings as table,
} from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogT } from "~/lib/i18n.server";
import { bookAppointment, cancelAppointment, freeTimes, type Owner } from "../appointments/appointments.server";
import { reminderTime } from "../appointments/messages.server";
import { parseDay } from "../appointments/rules";
import { markNoShows } from "../appointments/visits.server";
import { verifyAuditChain } from "../audit/audit.server";
import { seedCatalog } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { isVersionConflict } from "../refusals";
import { moveSamples, requestSamples, SampleError } from "../samples/samples.server";
import { staffAuditContext } from "../staff/actor";
import { createTestStaff, type TestStaff } from "../staff/testing.server";
import { cutoffText, DEFAULT_SHOWROOM_SETTINGS, type ShowroomSettings, showroomSettingsSchema } from "./settings";
import { currentShowroomSettings, saveShowroomSettings, showroomSettings } from "./settings.server";

/**
 * The showroom settings (issue 37, ADR 050): the defaults while none is saved, a save as a new version with its
 * audit row, the admin-only permission, the version check, and — the point — every surface obeying the version in
 * force: the booking horizon, the cut-off, the no-show grace, the reminder hour, the sample limit and loan days.
 */
let db: Database;
useMigratedTestDatabase("showroom-settings", (handle) => {
  db = handle.db;
});

const SECRET = "test-session-secret-with-enough-length-0123456789";
const STORE = "xinyi-flagship";
const where = { ip: "198.51.100.9", userAgent: "vitest", requestId: "req-showroom" };
// Monday 7 December 2026, 09:00 Taipei.
const NOW = new Date("2026-12-07T01:00:00Z");
const taipei = (local: string) => new Date(`${local}+08:00`);
let admin: TestStaff;
let manager: TestStaff;
let withSamples: string[] = [];

beforeAll(async () => {
  await seedCatalog(db);
  admin = await createTestStaff(db, SECRET, { role: "admin" }, NOW);
  manager = await createTestStaff(db, SECRET, { role: "manager", storeIds: [STORE] }, NOW);
  const here = await db
    .select({ id: materialSampleStore.materialId })
    .from(materialSampleStore)
    .innerJoin(material, eq(material.id, materialSampleStore.materialId))
    .where(and(eq(materialSampleStore.storeId, STORE), eq(material.published, true)));
  withSamples = here.map((r) => r.id).sort();
});

async function save(changes: Partial<ShowroomSettings>, actor = admin) {
  const current = await currentShowroomSettings(db);
  const { id: _id, createdAt: _c, createdBy: _b, ...values } = current;
  return saveShowroomSettings(
    db,
    actor.actor,
    { ...values, ...changes },
    current.id,
    staffAuditContext(actor.actor, where),
    NOW,
  );
}

async function member(): Promise<Owner & { memberId: string }> {
  const m = await newMember(db);
  return { memberId: m.id, phone: m.phoneNumber };
}

const booking = (date: string, time = "14:00") => ({
  storeId: STORE,
  kind: "consultation" as const,
  date,
  time,
  materialIds: [],
  note: null,
  address: null,
  locale: "zh-TW" as const,
  source: "web" as const,
});

async function codeOf(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    if (error instanceof SampleError) return error.code;
    if (error && typeof error === "object" && "code" in error) return String(error.code);
    if (error && typeof error === "object" && "init" in error)
      return `status ${(error as { init: { status: number } }).init.status}`;
    throw error;
  }
  return "accepted";
}

describe("the showroom settings", () => {
  it("are PRODUCT.md §12's defaults while no admin has saved a version", async () => {
    expect(await showroomSettings(db)).toEqual(DEFAULT_SHOWROOM_SETTINGS);
    expect((await currentShowroomSettings(db)).id).toBe(0);
  });

  it("refuses anyone but an admin, and stores nothing", async () => {
    expect(await codeOf(save({ sampleLimit: 3 }, manager))).toBe("status 403");
    expect(await db.select().from(table)).toHaveLength(0);
  });

  it("saves a version with its audit row (the changed fields only), and an unchanged save stores nothing", async () => {
    const saved = await save({ bookingHorizonDays: 30 });
    expect(saved.id).toBeGreaterThan(0);
    expect(saved.bookingHorizonDays).toBe(30);
    expect(saved.createdBy).toBe(admin.userId);
    const rows = await db.select().from(auditLog).where(eq(auditLog.action, "showroom.settings_changed"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      targetType: "showroom_settings",
      targetId: String(saved.id),
      actorUserId: admin.userId,
    });
    expect(rows[0]?.changes).toEqual({ bookingHorizonDays: { before: 60, after: 30 } });
    expect((await verifyAuditChain(db)).ok).toBe(true);
    // The same values again: no version, no audit row.
    expect((await save({})).id).toBe(saved.id);
    expect(await db.select().from(table)).toHaveLength(1);
  });

  it("refuses a save over an older version (someone saved first) and stores nothing", async () => {
    const { id: base, createdAt: _c, createdBy: _b, ...values } = await currentShowroomSettings(db);
    await save({ noShowGraceMinutes: 45 });
    const stale = saveShowroomSettings(
      db,
      admin.actor,
      { ...values, sampleLimit: 9 },
      base,
      staffAuditContext(admin.actor, where),
      NOW,
    ).catch((error: unknown) => error);
    expect(isVersionConflict(await stale)).toBe(true);
    expect((await showroomSettings(db)).sampleLimit).toBe(DEFAULT_SHOWROOM_SETTINGS.sampleLimit);
  });
});

describe("every surface reads the version in force", () => {
  it("a horizon of 30 days: day 30 is bookable, day 31 is refused and has no free times", async () => {
    await save({ bookingHorizonDays: 30 });
    // 7 December + 30 = 6 January; + 31 = 7 January.
    expect(await codeOf(bookAppointment(db, await member(), booking("2027-01-07"), NOW))).toBe("beyond_horizon");
    expect(await freeTimes(db, STORE, "consultation", parseDay("2027-01-07") as never, NOW)).toEqual([]);
    // The refusal names the horizon in force, which the page words ("最多只能預約 30 天內的時間。").
    const refused = await bookAppointment(db, await member(), booking("2027-01-07"), NOW).catch((e: unknown) => e);
    expect((refused as { params?: Record<string, string> }).params).toMatchObject({ days: "30" });
    const kept = await bookAppointment(db, await member(), booking("2027-01-06"), NOW);
    expect(kept.localDate).toBe("2027-01-06");
    await save({ bookingHorizonDays: 60 });
    expect(await codeOf(bookAppointment(db, await member(), booking("2027-01-07"), NOW))).toBe("accepted");
  });

  it("a cut-off of 240 minutes refuses a cancel 3 hours before; 120 allows it", async () => {
    const owner = await member();
    const row = await bookAppointment(db, owner, booking("2026-12-09", "14:00"), NOW);
    const threeHoursBefore = taipei("2026-12-09T11:00:00");
    await save({ changeCutoffMinutes: 240 });
    expect(await codeOf(cancelAppointment(db, owner, row.id, threeHoursBefore))).toBe("past_cutoff");
    // A new booking 3 hours ahead is refused too, and the free times leave it out.
    expect(await codeOf(bookAppointment(db, await member(), booking("2026-12-09", "14:00"), threeHoursBefore))).toBe(
      "past_cutoff",
    );
    await save({ changeCutoffMinutes: 120 });
    expect((await cancelAppointment(db, owner, row.id, threeHoursBefore)).status).toBe("cancelled");
  });

  it("the no-show grace and the reminder hour come from the settings", async () => {
    const owner = await member();
    const row = await bookAppointment(db, owner, booking("2026-12-10", "11:00"), NOW);
    // The consultation ends at 12:00; with a grace of 90 minutes it is not a no-show at 13:00, it is at 13:30.
    await save({ noShowGraceMinutes: 90 });
    await markNoShows(db, taipei("2026-12-10T13:00:00"));
    expect((await db.select().from(appointment).where(eq(appointment.id, row.id)))[0]?.status).toBe("booked");
    await markNoShows(db, taipei("2026-12-10T13:30:00"));
    expect((await db.select().from(appointment).where(eq(appointment.id, row.id)))[0]?.status).toBe("no_show");
    expect(reminderTime(row.startsAt, 18).toISOString()).toBe("2026-12-09T10:00:00.000Z");
  });

  it("a sample limit of 3 refuses the 4th in one statement; the loan days set the due day", async () => {
    expect(withSamples.length).toBeGreaterThanOrEqual(4);
    await save({ sampleLimit: 3, sampleLoanDays: 7 });
    const m = await newMember(db);
    const now = taipei("2026-12-01T10:00:00");
    const ids = await requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: withSamples.slice(0, 3) }, now);
    expect(ids).toHaveLength(3);
    const over = requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: [withSamples[3] as string] }, now);
    expect(await codeOf(over)).toBe("over_limit");
    expect(await db.select().from(sampleRequest).where(eq(sampleRequest.memberId, m.id))).toHaveLength(3);
    // Four at once are refused before any work.
    const other = await newMember(db);
    expect(
      await codeOf(
        requestSamples(db, { memberId: other.id, storeId: STORE, materialIds: withSamples.slice(0, 4) }, now),
      ),
    ).toBe("over_limit");
    const audit = staffAuditContext(admin.actor, where);
    await moveSamples(db, admin.actor, "ready", ids.slice(0, 1), audit, now);
    const out = await moveSamples(db, admin.actor, "hand_out", ids.slice(0, 1), audit, now);
    expect(out.dueBackOn).toBe("2026-12-08");
    await save({ sampleLimit: 5, sampleLoanDays: 14 });
  });
});

describe("the form (Zod, before any work)", () => {
  const schema = showroomSettingsSchema(catalogT("zh-TW"));
  const en = showroomSettingsSchema(catalogT("en"));
  const good = Object.fromEntries(Object.entries(DEFAULT_SHOWROOM_SETTINGS).map(([k, v]) => [k, String(v)]));
  const errorOf = (s: typeof schema, field: string, value: string) => {
    const result = s.safeParse({ ...good, baseVersion: "0", [field]: value });
    return result.success ? null : result.error.issues.find((i) => i.path[0] === field)?.message;
  };

  it("reads good values as whole numbers", () => {
    expect(schema.parse({ ...good, baseVersion: "3" })).toEqual({ ...DEFAULT_SHOWROOM_SETTINGS, baseVersion: 3 });
  });

  it.each([
    ["sampleLimit", "-1"],
    ["sampleLimit", "0"],
    ["bookingHorizonDays", "0"],
    ["bookingHorizonDays", "30.5"],
    ["changeCutoffMinutes", "1e3"],
    ["bookingHorizonDays", "99999999999999999999"],
    ["sampleLimit", "51"],
    ["reminderHour", "23"],
    ["noShowGraceMinutes", "3\u00000"],
    ["sampleLoanDays", "十"],
  ])("refuses %s = %j beside the field, in zh-TW and English", (field, value) => {
    expect(errorOf(schema, field, value)).toMatch(/^請輸入 \d+ 到 \d+ 之間的整數$/);
    expect(errorOf(en, field, value)).toMatch(/^Enter a whole number from \d+ to \d+$/);
  });

  it("words the cut-off in hours when whole, else in minutes", () => {
    expect(cutoffText(120, catalogT("zh-TW"))).toBe("2 小時");
    expect(cutoffText(90, catalogT("en"))).toBe("90 minutes");
    expect(cutoffText(240, catalogT("en"))).toBe("4 hours");
  });

  it("refuses an empty field, and a reminder not before the due day", () => {
    expect(errorOf(schema, "sampleLimit", "")).toBe("必填");
    expect(errorOf(schema, "sampleReminderDays", "14")).toBe("提醒天數須少於借用天數");
    expect(errorOf(en, "sampleReminderDays", "14")).toBe(
      "The reminder must come fewer days before than the loan period",
    );
  });
});
