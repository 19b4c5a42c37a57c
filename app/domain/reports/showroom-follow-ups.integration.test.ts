import { type Database, rowsOf } from "@platform/db/client";
import { purchase } from "@platform/db/schema";
import { type AppointmentStatus, appointment } from "@platform/db/schema/appointments";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { insertTestStores } from "@platform/testing/stores";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { prng } from "~/domain/demo/pictures/draw";
import { recordPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";
import { taipeiIsoDate } from "~/lib/time";
import type { DashboardInput } from "./dashboard.server";
import { storeCondition } from "./dashboard.server";
import { addIsoDays } from "./filters";
import { foldFollowUps, loadVisitFollowUps } from "./showroom.server";

/**
 * The visits' follow-up statement probes `purchase_member_idx` once per member since 2026-12-07 (ADR 048, "Later
 * (2026-12-07, follow-up probes)"), where it probed once per visit before. On a seeded history (members with
 * several visits at several stores, purchases on both sides of every window's ends, refunds) it must give exactly
 * the answers of the statement it replaced, kept here verbatim as the reference. PGlite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */
let db: Database;
useMigratedTestDatabase("showroom_follow_ups", (handle) => {
  db = handle.db;
});

/** The statement before 2026-12-07: one probe of the member's purchases per kept visit. */
async function before(input: DashboardInput) {
  const { from, to, today, scope } = input;
  return foldFollowUps(
    rowsOf<Record<string, unknown>>(
      await db.execute(sql`
      with kept as (
        select a.id, a.store_id, a.kind, a.member_id, a.local_date, coalesce(a.checked_in_at, a.starts_at) as at
          from appointment a
         where a.local_date between ${from}::date and ${to}::date and a.status = 'checked_in'
           and a.member_id is not null and ${storeCondition(scope, sql`a.store_id`)}
      ), m as (
        select k.id as visit_id, k.store_id, k.kind, p.id as purchase_id,
               (p.net_amount - p.refunded_amount) as net,
               p.purchased_at < ((k.local_date + 30)::timestamp at time zone 'Asia/Taipei') as in30
          from kept k
          join purchase p on p.member_id = k.member_id and p.purchased_at >= k.at
           and p.purchased_at < ((k.local_date + 90)::timestamp at time zone 'Asia/Taipei')
      ), v as (
        select store_id, kind, visit_id, bool_or(in30) as in30 from m group by store_id, kind, visit_id
      ), pg as (
        select store_id, kind, purchase_id, max(net) as net, bool_or(in30) as in30
          from m group by store_id, kind, purchase_id
      ), pa as (
        select purchase_id, max(net) as net, bool_or(in30) as in30 from m group by purchase_id
      )
      select 'kept' as what, store_id, kind, count(*)::float8 as a,
             count(*) filter (where local_date >= ${addIsoDays(today, -29)}::date)::float8 as b,
             count(*) filter (where local_date >= ${addIsoDays(today, -89)}::date)::float8 as c, null::float8 as d
        from kept group by store_id, kind
      union all
      select 'visits', store_id, kind, count(*) filter (where in30)::float8, count(*)::float8, null, null
        from v group by store_id, kind
      union all
      select 'purchases', store_id, kind, count(*) filter (where in30)::float8, count(*)::float8,
             coalesce(sum(net) filter (where in30), 0)::float8, coalesce(sum(net), 0)::float8
        from pg group by store_id, kind
      union all
      select 'all', null, null, count(*) filter (where in30)::float8, count(*)::float8,
             coalesce(sum(net) filter (where in30), 0)::float8, coalesce(sum(net), 0)::float8
        from pa`),
    ),
  );
}

const STORES = ["S1", "S2", "S3"];
const KINDS = ["visit", "consultation"] as const;
const DAY = 86_400_000;
/** 00:00 Taipei of 2026-01-01: the seeded history runs 200 days from it. */
const START = new Date("2026-01-01T00:00:00+08:00").getTime();

beforeAll(async () => {
  // The demo pictures' seeded generator (mulberry32): the same history on every run, a failure can be replayed.
  const next = prng(20261207);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  await insertTestStores(db, STORES);
  const members: string[] = [];
  for (let i = 0; i < 24; i++) members.push((await newMember(db, { createdAt: new Date(START - DAY) })).id);

  // Visits on the hour or half hour (some at 23:30 / 00:30 Taipei, beside the days' ends), most kept.
  const visits = Array.from({ length: 160 }, (_, i) => {
    const minutes = pick([30, 600, 630, 900, 1_170, 1_410]);
    const startsAt = new Date(START + Math.floor(next() * 200) * DAY + minutes * 60_000);
    const memberId = i % 9 === 0 ? null : pick(members);
    const status: AppointmentStatus = next() < 0.75 ? "checked_in" : pick(["no_show", "cancelled", "booked"] as const);
    return {
      reference: `FU${String(i).padStart(4, "0")}`,
      storeId: pick(STORES),
      kind: pick(KINDS),
      startsAt,
      endsAt: new Date(startsAt.getTime() + 60 * 60_000),
      localDate: taipeiIsoDate(startsAt),
      memberId,
      guestPhone: memberId ? null : "+886912000111",
      status,
      // Some check in a little early (before the start), some late, some without a time (the start counts).
      checkedInAt:
        status === "checked_in" && next() < 0.8 ? new Date(startsAt.getTime() + (next() - 0.3) * 40 * 60_000) : null,
    };
  });
  await db.insert(appointment).values(visits);

  // Purchases near the visits (same day, around the 30th and 90th day after) and anywhere in the 200 days.
  const kept = visits.filter((v) => v.memberId && v.status === "checked_in");
  let receipt = 0;
  for (let i = 0; i < 220; i++) {
    const v = pick(kept);
    const offsetDays = pick([0, 0, 1, 29, 30, 31, 89, 90, 91, -1, Math.floor(next() * 200)]);
    const at = new Date(v.startsAt.getTime() + offsetDays * DAY + (next() - 0.5) * 6 * 3_600_000);
    const memberId = next() < 0.85 ? (v.memberId as string) : pick(members);
    const amount = 100 * (1 + Math.floor(next() * 80));
    await recordPurchase(
      db,
      { memberId, storeId: pick(STORES), receiptNumber: `FU-${++receipt}`, netAmount: amount, purchasedAt: at },
      at,
    );
  }
  // Some refunded in part or whole (the amount is net of refunds).
  await db.execute(sql`update ${purchase} set refunded_amount = net_amount / 4 where receipt_number like 'FU-%3'`);
  await db.execute(sql`update ${purchase} set refunded_amount = net_amount where receipt_number like 'FU-%7'`);
}, 120_000);

describe("visits followed by a purchase: one probe per member gives the per-visit statement's answers", () => {
  const now = new Date("2026-07-01T10:00:00+08:00");
  const cases: [string, DashboardInput][] = [
    [
      "the whole history, all stores",
      { from: "2026-01-01", to: "2026-07-19", today: "2026-07-19", now, scope: { kind: "all" } },
    ],
    [
      "a month, windows still open",
      { from: "2026-05-01", to: "2026-05-31", today: "2026-06-10", now, scope: { kind: "all" } },
    ],
    [
      "a quarter, one manager's two stores",
      {
        from: "2026-02-01",
        to: "2026-04-30",
        today: "2026-07-19",
        now,
        scope: { kind: "stores", storeIds: ["S1", "S3"] },
      },
    ],
    [
      "a single day",
      { from: "2026-03-14", to: "2026-03-14", today: "2026-07-19", now, scope: { kind: "stores", storeIds: ["S2"] } },
    ],
  ];
  it.each(cases)("%s", async (_, input) => {
    const expected = await before(input);
    const found = await loadVisitFollowUps(db, input);
    expect(found).toEqual(expected);
    if (input.scope.kind === "all" && input.from === "2026-01-01") {
      // The seeded history does exercise the statement: visits followed in 30 and in 90 days only, shared purchases.
      expect(found.total.bought30).toBeGreaterThan(10);
      expect(found.total.bought90).toBeGreaterThan(found.total.bought30);
      expect(found.rows.reduce((sum, r) => sum + r.purchases90, 0)).toBeGreaterThan(found.total.purchases90);
    }
  });
});
