import { type Database, rowsOf } from "@platform/db/client";
import { APPOINTMENT_KINDS, type AppointmentKind } from "@platform/db/schema/appointments";
import { sql } from "drizzle-orm";
import { overdueSql } from "../samples/overdue";
import type { DashboardInput } from "./dashboard.server";
import { storeCondition } from "./dashboard.server";
import { addIsoDays } from "./filters";

/**
 * The dashboard's showroom section (issue 37 part 5, ADR 048): live indexed queries over `appointment` and
 * `purchase` for the range's Taipei days, not summary tables (the figures are small: a showroom's visits, not a
 * programme's ledger). Each part of the section is one statement and one key of `Showroom` (appointments, visits,
 * samples, quotes), read by `loadShowroom`.
 */

/** How many days after a kept visit a purchase counts as following it (Taipei days, the visit's day included). */
export const FOLLOW_UP_WINDOWS = [30, 90] as const;

export type AppointmentCounts = {
  /** Every appointment of the range (whatever became of it) = upcoming + kept + noShow + cancelled. */
  booked: number;
  /** Still `booked`: not yet come, or not yet marked. */
  upcoming: number;
  kept: number;
  noShow: number;
  cancelled: number;
};
export type AppointmentRow = AppointmentCounts & { storeId: string; kind: AppointmentKind };

export type VisitFollowUp = {
  /** Kept visits by members (a guest's purchases cannot be followed). */
  kept: number;
  /** Of those, visits whose 30 / 90-day window has not ended yet (today is inside it). */
  open30: number;
  open90: number;
  /** Visits followed by at least one purchase of that member within 30 / 90 days. */
  bought30: number;
  bought90: number;
  /** The purchases that followed (each once, even after two visits), and their NT$ net of refunds so far. */
  purchases30: number;
  purchases90: number;
  amount30: number;
  amount90: number;
};
export type VisitRow = VisitFollowUp & { storeId: string; kind: AppointmentKind };

export type Showroom = {
  appointments: { rows: AppointmentRow[]; total: AppointmentCounts };
  visits: { rows: VisitRow[]; total: VisitFollowUp };
  samples: { rows: SampleRow[]; total: SampleCounts };
  quotes: { rows: QuoteRow[]; total: QuoteCounts };
};

export type SampleCounts = {
  /** Samples handed out on the range's Taipei days (whatever became of them since). */
  handedOut: number;
  /** Out now (handed out, not returned), whenever they were handed out. */
  out: number;
  /** Of those, due back before today (Taipei): the samples domain's "overdue". */
  overdue: number;
};
export type SampleRow = SampleCounts & { storeId: string };

/** How many Taipei days after the answer (its day included) a purchase counts as following a quote. */
export const QUOTE_FOLLOW_UP_DAYS = 30;

export type QuoteCounts = {
  /** Quote requests made on the range's Taipei days. */
  requested: number;
  /** Quotes answered on the range's Taipei days (whenever they were asked). */
  answered: number;
  /** Of those answered, the ones whose 30-day window has not ended yet (today is inside it). */
  open: number;
  /** Answered quotes followed by a purchase of that member at that store within 30 days of the answer. */
  bought: number;
  /** The purchases that followed (each once, even after two quotes), and their NT$ net of refunds so far. */
  purchases: number;
  amount: number;
};
export type QuoteRow = QuoteCounts & { storeId: string };

const n = (v: unknown) => Number(v ?? 0);
const kindOrder = (k: string) => APPOINTMENT_KINDS.indexOf(k as AppointmentKind);
const byStoreAndKind = (a: { storeId: string; kind: string }, b: { storeId: string; kind: string }) =>
  a.storeId.localeCompare(b.storeId) || kindOrder(a.kind) - kindOrder(b.kind);

/**
 * Appointments of the range's Taipei days (`local_date`) by store and kind and what became of them, from the index
 * `appointment_report_idx` (local_date, store_id, kind, status) alone.
 */
export async function loadAppointments(db: Database, input: DashboardInput): Promise<Showroom["appointments"]> {
  const found = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select store_id, kind,
             count(*)::float8 as booked,
             count(*) filter (where status = 'booked')::float8 as upcoming,
             count(*) filter (where status = 'checked_in')::float8 as kept,
             count(*) filter (where status = 'no_show')::float8 as no_show,
             count(*) filter (where status = 'cancelled')::float8 as cancelled
        from appointment
       where local_date between ${input.from}::date and ${input.to}::date and ${storeCondition(input.scope)}
       group by store_id, kind`),
  );
  const rows: AppointmentRow[] = found
    .map((r) => ({
      storeId: String(r.store_id),
      kind: String(r.kind) as AppointmentKind,
      booked: n(r.booked),
      upcoming: n(r.upcoming),
      kept: n(r.kept),
      noShow: n(r.no_show),
      cancelled: n(r.cancelled),
    }))
    .sort(byStoreAndKind);
  const total: AppointmentCounts = { booked: 0, upcoming: 0, kept: 0, noShow: 0, cancelled: 0 };
  for (const r of rows) for (const k of Object.keys(total) as (keyof AppointmentCounts)[]) total[k] += r[k];
  return { rows, total };
}

const emptyFollowUp = (): VisitFollowUp => ({
  kept: 0,
  open30: 0,
  open90: 0,
  bought30: 0,
  bought90: 0,
  purchases30: 0,
  purchases90: 0,
  amount30: 0,
  amount90: 0,
});

/**
 * Kept visits of the range (by members) and the purchases that followed them, in one statement: a purchase of the
 * visit's member at any store, at or after the check-in and before 00:00 Taipei of the visit's day + 30 (+ 90),
 * i.e. within the 30 (90) Taipei days that start on the visit's day; its amount is `net_amount − refunded_amount`
 * (net of its refunds so far, as the dashboard's net sales). A purchase after two visits of a group counts once in
 * that group's amount and once in the total. The purchases are read once per member with kept visits (`members`:
 * from their first check-in of the range to 00:00 Taipei of their last visit's day + 90), then matched to the
 * visits; `members` reads `appointment` itself (not the `kept` CTE), so the planner knows how many members there
 * are and picks a probe of `purchase_member_idx` per member for a few, one pass over `purchase` for many (ADR 048,
 * "Later (2026-12-07, follow-up statement)": 734,000 → 26,000 buffers on the bench's year). JIT is off for it.
 */
export async function loadVisitFollowUps(db: Database, input: DashboardInput): Promise<Showroom["visits"]> {
  const { from, to, today, scope } = input;
  // JIT off for this statement (ADR 048): compiling its plan cost more than it saved (~0.9 s of CPU on the bench's year).
  const found = await db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return rowsOf<Record<string, unknown>>(
      await tx.execute(sql`
      with kept as (
        select a.id, a.store_id, a.kind, a.member_id, a.local_date, coalesce(a.checked_in_at, a.starts_at) as at
          from appointment a
         where a.local_date between ${from}::date and ${to}::date and a.status = 'checked_in'
           and a.member_id is not null and ${storeCondition(scope, sql`a.store_id`)}
      ), members as (
        select a.member_id, min(coalesce(a.checked_in_at, a.starts_at)) as first_at, max(a.local_date) + 90 as last_day
          from appointment a
         where a.local_date between ${from}::date and ${to}::date and a.status = 'checked_in'
           and a.member_id is not null and ${storeCondition(scope, sql`a.store_id`)}
         group by a.member_id
      ), bought as (
        select mb.member_id, p.id, p.purchased_at, (p.net_amount - p.refunded_amount) as net
          from members mb
          join purchase p on p.member_id = mb.member_id and p.purchased_at >= mb.first_at
           and p.purchased_at < (mb.last_day::timestamp at time zone 'Asia/Taipei')
      ), m as (
        select k.id as visit_id, k.store_id, k.kind, b.id as purchase_id, b.net,
               b.purchased_at < ((k.local_date + 30)::timestamp at time zone 'Asia/Taipei') as in30
          from kept k
          join bought b on b.member_id = k.member_id and b.purchased_at >= k.at
           and b.purchased_at < ((k.local_date + 90)::timestamp at time zone 'Asia/Taipei')
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
    );
  });
  return foldFollowUps(found);
}

/**
 * The follow-up statement's rows (`what` = kept / visits / purchases per store × kind, and `all`: the purchases
 * each counted once) as the section's rows and total. Exported for the test that compares statements.
 */
export function foldFollowUps(found: Record<string, unknown>[]): Showroom["visits"] {
  const groups = new Map<string, VisitRow>();
  const group = (r: Record<string, unknown>) => {
    const key = `${r.store_id}|${r.kind}`;
    let row = groups.get(key);
    if (!row) {
      row = { storeId: String(r.store_id), kind: String(r.kind) as AppointmentKind, ...emptyFollowUp() };
      groups.set(key, row);
    }
    return row;
  };
  const total = emptyFollowUp();
  for (const r of found) {
    if (r.what === "kept") {
      const g = group(r);
      g.kept = n(r.a);
      g.open30 = n(r.b);
      g.open90 = n(r.c);
      total.kept += g.kept;
      total.open30 += g.open30;
      total.open90 += g.open90;
    } else if (r.what === "visits") {
      const g = group(r);
      g.bought30 = n(r.a);
      g.bought90 = n(r.b);
      // A visit is in exactly one group: the total is the groups' sum.
      total.bought30 += g.bought30;
      total.bought90 += g.bought90;
    } else if (r.what === "purchases") {
      const g = group(r);
      g.purchases30 = n(r.a);
      g.purchases90 = n(r.b);
      g.amount30 = n(r.c);
      g.amount90 = n(r.d);
    } else {
      // A purchase may follow visits of two groups: the total counts it once.
      total.purchases30 = n(r.a);
      total.purchases90 = n(r.b);
      total.amount30 = n(r.c);
      total.amount90 = n(r.d);
    }
  }
  return { rows: [...groups.values()].sort(byStoreAndKind), total };
}

/** 00:00 Taipei of the range's first day and of the day after its last: the range as instants. */
const rangeStart = (from: string) => sql`(${from}::date::timestamp at time zone 'Asia/Taipei')`;
const rangeEnd = (to: string) => sql`((${to}::date + 1)::timestamp at time zone 'Asia/Taipei')`;

function sumInto<K extends string>(total: Record<K, number>, row: Record<K, number>) {
  for (const k of Object.keys(total) as K[]) total[k] += row[k];
}

/**
 * Samples by store: handed out on the range's Taipei days (`handed_out_at`), and out / overdue now (status
 * `handed_out`; overdue as `isOverdue` says, in SQL `overdueSql`), from `sample_request_store_idx`.
 */
export async function loadSamples(db: Database, input: DashboardInput): Promise<Showroom["samples"]> {
  const start = rangeStart(input.from);
  const end = rangeEnd(input.to);
  const found = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select store_id,
             count(*) filter (where handed_out_at >= ${start} and handed_out_at < ${end})::float8 as handed_out,
             count(*) filter (where status = 'handed_out')::float8 as out,
             count(*) filter (where ${overdueSql(input.today)})::float8 as overdue
        from sample_request
       where status in ('handed_out', 'returned') and ${storeCondition(input.scope)}
       group by store_id`),
  );
  const rows: SampleRow[] = found
    .map((r) => ({ storeId: String(r.store_id), handedOut: n(r.handed_out), out: n(r.out), overdue: n(r.overdue) }))
    .filter((r) => r.handedOut + r.out > 0)
    .sort((a, b) => a.storeId.localeCompare(b.storeId));
  const total: SampleCounts = { handedOut: 0, out: 0, overdue: 0 };
  for (const r of rows) sumInto<keyof typeof total>(total, r);
  return { rows, total };
}

const emptyQuotes = (): QuoteCounts => ({ requested: 0, answered: 0, open: 0, bought: 0, purchases: 0, amount: 0 });

/**
 * Quotes by store: asked (`created_at`) and answered (`answered_at`) on the range's Taipei days, and the answered
 * ones followed by a purchase of that member at that store, at or after the answer and before 00:00 Taipei of the
 * answer's day + 30 (the 30 Taipei days that start on the answer's day), found through `purchase_member_idx`. A
 * purchase's amount is `net_amount − refunded_amount`, as the visits' figure; a purchase after two quotes counts
 * once. A purchase has one store, so the total is the stores' sum.
 */
export async function loadQuotes(db: Database, input: DashboardInput): Promise<Showroom["quotes"]> {
  const start = rangeStart(input.from);
  const end = rangeEnd(input.to);
  const openSince = addIsoDays(input.today, -(QUOTE_FOLLOW_UP_DAYS - 1));
  const found = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with q as (
        select id, store_id, member_id, answered_at,
               created_at >= ${start} and created_at < ${end} as asked_in,
               coalesce(answered_at >= ${start} and answered_at < ${end}, false) as answered_in
          from quote_request
         where ((created_at >= ${start} and created_at < ${end}) or (answered_at >= ${start} and answered_at < ${end}))
           and ${storeCondition(input.scope)}
      ), m as (
        select q.id as quote_id, q.store_id, p.id as purchase_id, (p.net_amount - p.refunded_amount) as net
          from q
          join purchase p on p.member_id = q.member_id and p.store_id = q.store_id and p.purchased_at >= q.answered_at
           and p.purchased_at < ((((q.answered_at at time zone 'Asia/Taipei')::date) + ${QUOTE_FOLLOW_UP_DAYS}::int)::timestamp
                                 at time zone 'Asia/Taipei')
         where q.answered_in
      ), pa as (
        select purchase_id, max(store_id) as store_id, max(net) as net from m group by purchase_id
      )
      select 'quotes' as what, store_id, count(*) filter (where asked_in)::float8 as a,
             count(*) filter (where answered_in)::float8 as b,
             count(*) filter (where answered_in
                              and (answered_at at time zone 'Asia/Taipei')::date >= ${openSince}::date)::float8 as c
        from q group by store_id
      union all
      select 'bought', store_id, count(distinct quote_id)::float8, null, null from m group by store_id
      union all
      select 'purchases', store_id, count(*)::float8, coalesce(sum(net), 0)::float8, null from pa group by store_id`),
  );
  const groups = new Map<string, QuoteRow>();
  for (const r of found) {
    const storeId = String(r.store_id);
    let row = groups.get(storeId);
    if (!row) {
      row = { storeId, ...emptyQuotes() };
      groups.set(storeId, row);
    }
    if (r.what === "quotes") {
      row.requested = n(r.a);
      row.answered = n(r.b);
      row.open = n(r.c);
    } else if (r.what === "bought") {
      row.bought = n(r.a);
    } else {
      row.purchases = n(r.a);
      row.amount = n(r.b);
    }
  }
  const rows = [...groups.values()].sort((a, b) => a.storeId.localeCompare(b.storeId));
  const total = emptyQuotes();
  for (const r of rows) sumInto<keyof typeof total>(total, r);
  return { rows, total };
}

/** The showroom section: each of its parts from its own loader. */
export async function loadShowroom(db: Database, input: DashboardInput): Promise<Showroom> {
  const appointments = await loadAppointments(db, input);
  const visits = await loadVisitFollowUps(db, input);
  const samples = await loadSamples(db, input);
  const quotes = await loadQuotes(db, input);
  return { appointments, visits, samples, quotes };
}
