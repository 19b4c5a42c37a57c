import { randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import { type AppointmentKind, type AppointmentStatus, appointment } from "@platform/db/schema/appointments";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { insertTestStores } from "@platform/testing/stores";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPurchase, refundPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";
import { taipeiIsoDate } from "~/lib/time";
import { panelRows } from "./csv";
import { loadDashboard } from "./dashboard.server";
import { loadShowroom } from "./showroom.server";

/**
 * The dashboard's showroom figures (ADR 048) against a hand-counted history: appointments and purchases placed at
 * 23:30 and 00:30 Taipei on both sides of the range's ends and of the 30 / 90-day windows. Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */
let db: Database;
useMigratedTestDatabase("showroom_reports", (handle) => {
  db = handle.db;
});

const taipei = (local: string) => new Date(`${local}+08:00`);
const today = "2026-06-20";
const input = { from: "2026-03-01", to: "2026-03-31", today, now: taipei("2026-06-20T10:00:00") };

async function visit(
  storeId: string,
  kind: AppointmentKind,
  startsLocal: string,
  memberId: string | null,
  status: AppointmentStatus,
  checkedInLocal?: string,
) {
  const startsAt = taipei(startsLocal);
  await db.insert(appointment).values({
    reference: randomUUID().slice(0, 8).toUpperCase(),
    storeId,
    kind,
    startsAt,
    endsAt: new Date(startsAt.getTime() + 60 * 60_000),
    localDate: taipeiIsoDate(startsAt),
    memberId,
    guestPhone: memberId ? null : "+886912000111",
    status,
    checkedInAt: checkedInLocal ? taipei(checkedInLocal) : null,
    address: kind === "measuring" ? { city: "臺北市", district: "信義區", street: "松仁路 1 號" } : null,
  });
}

let receipt = 0;
async function buy(memberId: string, storeId: string, amount: number, local: string) {
  const at = taipei(local);
  const r = await recordPurchase(
    db,
    { memberId, storeId, receiptNumber: `SR-${++receipt}`, netAmount: amount, purchasedAt: at },
    at,
  );
  return r.purchase.id;
}

beforeAll(async () => {
  await insertTestStores(db, ["S1", "S2"]);
  const joined = { createdAt: taipei("2026-01-02T10:00:00") };
  const [m1, m2, m3, m4] = [
    await newMember(db, joined),
    await newMember(db, joined),
    await newMember(db, joined),
    await newMember(db, joined),
  ].map((m) => m.id) as [string, string, string, string];

  // 23:30 on 28 Feb Taipei (outside the range) and 00:30 on 1 Mar (inside; still 28 Feb in UTC).
  await visit("S1", "visit", "2026-02-28T23:30:00", m1, "checked_in", "2026-02-28T23:35:00"); // A0, out
  await visit("S1", "visit", "2026-03-01T00:30:00", m1, "checked_in", "2026-03-01T00:40:00"); // A1
  await visit("S1", "consultation", "2026-03-10T14:00:00", m2, "checked_in", "2026-03-10T13:55:00"); // A2
  // 23:30 on 31 Mar Taipei (inside) and 00:30 on 1 Apr (outside; still 31 Mar in UTC).
  await visit("S2", "visit", "2026-03-31T23:30:00", m3, "checked_in", "2026-03-31T23:31:00"); // A3
  await visit("S2", "visit", "2026-04-01T00:30:00", m4, "checked_in", "2026-04-01T00:31:00"); // A4, out
  await visit("S1", "visit", "2026-03-12T11:00:00", m2, "no_show"); // A5
  await visit("S1", "visit", "2026-03-15T11:00:00", m3, "cancelled"); // A6
  await visit("S2", "consultation", "2026-03-20T15:00:00", null, "checked_in", "2026-03-20T15:00:00"); // A7 guest
  await visit("S2", "measuring", "2026-03-25T10:00:00", m4, "booked"); // A8
  await visit("S1", "consultation", "2026-03-05T16:00:00", m4, "checked_in", "2026-03-05T16:00:00"); // A9
  await visit("S2", "visit", "2026-03-20T11:00:00", m2, "checked_in", "2026-03-20T11:00:00"); // A10
  await visit("S1", "visit", "2026-03-20T10:00:00", m1, "checked_in", "2026-03-20T10:00:00"); // A11

  await buy(m1, "S1", 1_000, "2026-03-01T00:20:00"); // P1: before A1's check-in (follows only A0)
  const p2 = await buy(m1, "S2", 5_000, "2026-03-30T23:30:00"); // P2: A1 day +29 → 30 days (another store)
  await refundPurchase(db, { purchaseId: p2, amount: 1_000, idempotencyKey: "sr-refund" }, taipei("2026-04-02T12:00"));
  await buy(m1, "S1", 2_000, "2026-03-31T00:30:00"); // P3: A1 day +30 → 90 only; A11 day +11 → 30
  await buy(m1, "S1", 3_000, "2026-05-29T23:30:00"); // P4: A1 day +89 → 90
  await buy(m1, "S1", 7_000, "2026-05-30T00:30:00"); // P5: A1 day +90 → none; A11 day +71 → 90
  await buy(m2, "S1", 10_000, "2026-03-10T15:00:00"); // P6: A2 same day → 30 (nothing after A10)
  await buy(m3, "S2", 800, "2026-03-31T23:50:00"); // P7: A3 same day → 30
  await buy(m3, "S2", 1_200, "2026-04-29T23:30:00"); // P8: A3 day +29 → 30
  await buy(m3, "S2", 600, "2026-04-30T00:30:00"); // P9: A3 day +30 → 90
  await buy(m4, "S1", 4_500, "2026-04-05T12:00:00"); // P10: A9 day +31 → 90 (A4 is outside the range)
});

const noOpen = { open30: 0, open90: 0 };

describe("showroom figures", () => {
  it("count appointments by store and kind by their Taipei day", async () => {
    const s = await loadShowroom(db, { ...input, scope: { kind: "all" } });
    const row = (booked: number, upcoming: number, kept: number, noShow: number, cancelled: number) => ({
      booked,
      upcoming,
      kept,
      noShow,
      cancelled,
    });
    expect(s.appointments.rows).toEqual([
      { storeId: "S1", kind: "visit", ...row(4, 0, 2, 1, 1) },
      { storeId: "S1", kind: "consultation", ...row(2, 0, 2, 0, 0) },
      { storeId: "S2", kind: "visit", ...row(2, 0, 2, 0, 0) },
      { storeId: "S2", kind: "consultation", ...row(1, 0, 1, 0, 0) },
      { storeId: "S2", kind: "measuring", ...row(1, 1, 0, 0, 0) },
    ]);
    expect(s.appointments.total).toEqual(row(10, 1, 7, 1, 1));
  });

  it("follow kept visits to the purchases within 30 and 90 Taipei days, each purchase once", async () => {
    const s = await loadShowroom(db, { ...input, scope: { kind: "all" } });
    expect(s.visits.rows).toEqual([
      {
        storeId: "S1",
        kind: "visit",
        kept: 2,
        ...noOpen,
        bought30: 2,
        bought90: 2,
        purchases30: 2, // P2 (net 4,000 after its refund), P3
        amount30: 6_000,
        purchases90: 4, // P2, P3, P4, P5
        amount90: 16_000,
      },
      {
        storeId: "S1",
        kind: "consultation",
        kept: 2,
        ...noOpen,
        bought30: 1,
        bought90: 2,
        purchases30: 1,
        amount30: 10_000,
        purchases90: 2,
        amount90: 14_500,
      },
      {
        storeId: "S2",
        kind: "visit",
        kept: 2,
        open30: 0,
        open90: 1, // A3: 31 Mar + 89 days = 28 Jun, after today
        bought30: 1,
        bought90: 1,
        purchases30: 2,
        amount30: 2_000,
        purchases90: 3,
        amount90: 2_600,
      },
    ]);
    expect(s.visits.total).toEqual({
      kept: 6,
      open30: 0,
      open90: 1,
      bought30: 4,
      bought90: 5,
      purchases30: 5,
      amount30: 18_000,
      purchases90: 9,
      amount90: 33_100,
    });
  });

  it("shows a store's manager only that store's visits, and the CSV the same figures", async () => {
    const d = await loadDashboard(db, { ...input, scope: { kind: "stores", storeIds: ["S2"] } });
    expect(d.showroom.appointments.total).toEqual({ booked: 4, upcoming: 1, kept: 3, noShow: 0, cancelled: 0 });
    expect(d.showroom.visits.rows.map((r) => r.storeId)).toEqual(["S2"]);
    expect(d.showroom.visits.total).toMatchObject({
      kept: 2,
      bought30: 1,
      bought90: 1,
      amount30: 2_000,
      amount90: 2_600,
    });
    const csv = panelRows(d, "visits", (id) => `門市 ${id}`);
    expect(csv?.[1]).toEqual(["S2", "門市 S2", "visit", 2, 1, 0.5, 2_000, 1, 0.5, 2_600, 0, 1]);
    expect(csv?.at(-1)).toEqual(["", "total", "", 2, 1, 0.5, 2_000, 1, 0.5, 2_600, 0, 1]);
    const appointments = panelRows(d, "appointments", (id) => id);
    expect(appointments?.at(-1)).toEqual(["", "total", "", 4, 1, 3, 0, 0]);

    const none = await loadShowroom(db, { ...input, scope: { kind: "stores", storeIds: [] } });
    expect(none.appointments.total.booked).toBe(0);
    expect(none.visits.total.kept).toBe(0);
  });

  it("counts a window as open while today is inside it", async () => {
    // Today 15 April: A3 (31 Mar) and A10/A11 (20 Mar) are within 30 days; every kept visit within 90.
    const s = await loadShowroom(db, { ...input, today: "2026-04-15", scope: { kind: "all" } });
    expect(s.visits.total).toMatchObject({ kept: 6, open30: 3, open90: 6 });
  });
});
