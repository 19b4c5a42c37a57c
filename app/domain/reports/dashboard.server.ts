import { type Database, rowsOf } from "@platform/db/client";
import { type LocalizedText, reward, store } from "@platform/db/schema";
import { inArray, type SQL, sql } from "drizzle-orm";
import { currentRules } from "~/domain/loyalty/rules.server";
import { addIsoDays, liabilityNtd, monthOf, monthsBetween, redemptionRate, type scopeFor } from "./filters";
import { loadShowroom, type Showroom } from "./showroom.server";

/**
 * The console dashboard's figures (ADR 025). Every query reads the summary tables (platform/db/schema/reports.ts),
 * never the ledger: their size grows with days × stores, not with members or entries. The 展示廳 section is the
 * exception: live indexed queries over appointments and the purchases after them (showroom.server.ts, ADR 048).
 */

export type DashboardScope = NonNullable<ReturnType<typeof scopeFor>>;

export type DayRow = {
  day: string;
  purchases: number;
  netSales: number;
  signupsPhone: number;
  signupsLine: number;
  issued: number;
  /** Points spent on rewards (never net of cancellations: those are `cancelled`, so never below zero). */
  redeemed: number;
  /** Points returned by coupon cancellations (their coupon may have been redeemed before the range). */
  cancelled: number;
  expired: number;
};
export type MonthPoints = {
  month: string;
  issued: number;
  redeemed: number;
  cancelled: number;
  expired: number;
  reversed: number;
  adjustedOut: number;
};
export type StoreRow = {
  storeId: string;
  name: LocalizedText | null;
  purchases: number;
  sales: number;
  refunds: number;
  netSales: number;
};
export type TierRow = { tier: string; members: number; points: number };
export type TierMove = { from: string; to: string; moves: number };
export type RewardRow = {
  rewardId: string;
  name: string;
  issued: number;
  used: number;
  cancelled: number;
  /** Referral coupons taken back by a refund (ADR 053), on the day they were revoked: apart, as cancelled ones are. */
  revoked: number;
  points: number;
};
export type CohortRow = { signupMonth: string; size: number; active: (number | null)[] };
export type ExpiryRow = { month: string; points: number; ntd: number };

export type Dashboard = {
  from: string;
  to: string;
  today: string;
  /** Programme-wide panels (sign-ups, liability, tiers, expiry) are shown only for the whole programme. */
  programme: boolean;
  totals: {
    purchases: number;
    netSales: number;
    signups: number;
    signupsPhone: number;
    signupsLine: number;
    issued: number;
    redeemed: number;
    cancelled: number;
    expired: number;
    redemptionRate: number | null;
    active30: number;
    active90: number;
  };
  days: DayRow[];
  months: MonthPoints[];
  stores: StoreRow[];
  liability: {
    points: number;
    ntd: number;
    pointValueCents: number;
    expiring: ExpiryRow[];
    expiringPoints: number;
    expiringNtd: number;
  } | null;
  tiers: TierRow[] | null;
  tierMoves: TierMove[] | null;
  rewards: RewardRow[];
  cohorts: { months: string[]; rows: CohortRow[] };
  /** 展示廳: appointments and what followed them (live queries, ADR 048). */
  showroom: Showroom;
};

const n = (v: unknown) => Number(v ?? 0);

export function storeCondition(scope: DashboardScope, column = sql`store_id`): SQL {
  if (scope.kind === "all") return sql`true`;
  if (scope.storeIds.length === 0) return sql`false`;
  return sql`${column} in (${sql.join(
    scope.storeIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/** Stores that exist (an admin's store filter must name one). */
export async function storeExists(db: Database, storeId: string): Promise<boolean> {
  const found = await db
    .select({ id: store.id })
    .from(store)
    .where(inArray(store.id, [storeId]));
  return found.length > 0;
}

export type DashboardInput = { from: string; to: string; today: string; scope: DashboardScope; now: Date };

type DaySums = {
  purchases: number;
  netSales: number;
  phone: number;
  line: number;
  issued: number;
  redeemed: number;
  cancelled: number;
  expired: number;
};

/** Panel "days": the daily series (sales, sign-ups, points), the monthly points and the range's sums. */
export async function loadDays(
  db: Database,
  input: DashboardInput,
): Promise<{ days: DayRow[]; months: MonthPoints[]; sum: DaySums }> {
  const { from, to, scope } = input;
  const dayRows = await rows<Record<string, unknown>>(
    db,
    sql`select day::text as day, sum(purchases)::float8 as purchases, sum(sales - refunds)::float8 as net_sales,
          sum(signups_phone)::float8 as signups_phone, sum(signups_line)::float8 as signups_line,
          sum(points_earned + points_bonus + points_adjusted_in)::float8 as issued,
          sum(points_redeemed)::float8 as redeemed, sum(points_returned)::float8 as cancelled,
          sum(points_expired)::float8 as expired, sum(points_reversed)::float8 as reversed,
          sum(points_adjusted_out)::float8 as adjusted_out
        from report_day_store where day between ${from}::date and ${to}::date and ${storeCondition(scope)}
        group by day order by day`,
  );
  const days: DayRow[] = dayRows.map((r) => ({
    day: String(r.day),
    purchases: n(r.purchases),
    netSales: n(r.net_sales),
    signupsPhone: n(r.signups_phone),
    signupsLine: n(r.signups_line),
    issued: n(r.issued),
    redeemed: n(r.redeemed),
    cancelled: n(r.cancelled),
    expired: n(r.expired),
  }));

  const monthMap = new Map<string, MonthPoints>();
  for (const month of monthsBetween(from, to))
    monthMap.set(month, { month, issued: 0, redeemed: 0, cancelled: 0, expired: 0, reversed: 0, adjustedOut: 0 });
  const sum: DaySums = {
    purchases: 0,
    netSales: 0,
    phone: 0,
    line: 0,
    issued: 0,
    redeemed: 0,
    cancelled: 0,
    expired: 0,
  };
  for (const r of dayRows) {
    const m = monthMap.get(monthOf(String(r.day)));
    if (m) {
      m.issued += n(r.issued);
      m.redeemed += n(r.redeemed);
      m.cancelled += n(r.cancelled);
      m.expired += n(r.expired);
      m.reversed += n(r.reversed);
      m.adjustedOut += n(r.adjusted_out);
    }
    sum.purchases += n(r.purchases);
    sum.netSales += n(r.net_sales);
    sum.phone += n(r.signups_phone);
    sum.line += n(r.signups_line);
    sum.issued += n(r.issued);
    sum.redeemed += n(r.redeemed);
    sum.cancelled += n(r.cancelled);
    sum.expired += n(r.expired);
  }
  return { days, months: [...monthMap.values()], sum };
}

/** Panel "stores": purchases, sales and refunds per store in the range, best net sales first. */
export async function loadStores(db: Database, input: DashboardInput): Promise<StoreRow[]> {
  const { from, to, scope } = input;
  const storeRows = await rows<Record<string, unknown>>(
    db,
    sql`select s.store_id, sum(s.purchases)::float8 as purchases, sum(s.sales)::float8 as sales,
          sum(s.refunds)::float8 as refunds
        from report_day_store s
        where s.day between ${from}::date and ${to}::date and s.store_id <> '' and ${storeCondition(scope, sql`s.store_id`)}
        group by s.store_id having sum(s.purchases) > 0 or sum(s.refunds) > 0`,
  );
  const names = new Map(
    (storeRows.length
      ? await db
          .select({ id: store.id, name: store.name })
          .from(store)
          .where(
            inArray(
              store.id,
              storeRows.map((r) => String(r.store_id)),
            ),
          )
      : []
    ).map((s) => [s.id, s.name]),
  );
  return storeRows
    .map((r) => ({
      storeId: String(r.store_id),
      name: names.get(String(r.store_id)) ?? null,
      purchases: n(r.purchases),
      sales: n(r.sales),
      refunds: n(r.refunds),
      netSales: n(r.sales) - n(r.refunds),
    }))
    .sort((a, b) => b.netSales - a.netSales || a.storeId.localeCompare(b.storeId));
}

/** Panel "active": members with a purchase (at the stores in scope) in the last 30 and 90 Taipei days. */
export async function loadActive(db: Database, input: DashboardInput): Promise<{ active30: number; active90: number }> {
  const { today, scope } = input;
  const a30 = addIsoDays(today, -29);
  const a90 = addIsoDays(today, -89);
  // All stores: the '*' rows, one per member (no distinct needed). Several stores: a member may have a row at each.
  const [active] = await rows<Record<string, unknown>>(
    db,
    scope.kind === "all"
      ? sql`select count(*) filter (where last_day >= ${a30}::date)::float8 as a30, count(*)::float8 as a90
              from report_member_store where store_id = '*' and last_day >= ${a90}::date`
      : sql`select count(distinct member_id) filter (where last_day >= ${a30}::date)::float8 as a30,
                   count(distinct member_id)::float8 as a90
              from report_member_store where ${storeCondition(scope)} and last_day >= ${a90}::date`,
  );
  return { active30: n(active?.a30), active90: n(active?.a90) };
}

/** Panel "liability" (programme-wide): members and outstanding points per tier, their NT$ value, what expires soon. */
export async function loadLiability(
  db: Database,
  input: DashboardInput,
): Promise<{ liability: NonNullable<Dashboard["liability"]>; tiers: TierRow[] }> {
  const rules = await currentRules(db, input.now);
  const tierRows = await rows<Record<string, unknown>>(
    db,
    sql`select tier, sum(members)::float8 as members, sum(points)::float8 as points from report_account group by tier`,
  );
  const tiers = ["basic", "silver", "gold"].map((tier) => {
    const r = tierRows.find((x) => x.tier === tier);
    return { tier, members: n(r?.members), points: n(r?.points) };
  });
  const outstanding = tiers.reduce((a, t) => a + t.points, 0);
  const expiryRows = await rows<Record<string, unknown>>(
    db,
    sql`select to_char(date_trunc('month', day), 'YYYY-MM-DD') as month, sum(points)::float8 as points
          from report_lot_expiry
         where day >= ${input.today}::date and day < (${input.today}::date + interval '3 months')::date
         group by 1 order by 1`,
  );
  const expiring = expiryRows.map((r) => ({
    month: String(r.month),
    points: n(r.points),
    ntd: liabilityNtd(n(r.points), rules.pointValueCents),
  }));
  const expiringPoints = expiring.reduce((a, e) => a + e.points, 0);
  return {
    tiers,
    liability: {
      points: outstanding,
      ntd: liabilityNtd(outstanding, rules.pointValueCents),
      pointValueCents: rules.pointValueCents,
      expiring,
      expiringPoints,
      expiringNtd: liabilityNtd(expiringPoints, rules.pointValueCents),
    },
  };
}

/** Panel "tier movements" (programme-wide): tier changes in the range, from → to. */
export async function loadTierMoves(db: Database, input: DashboardInput): Promise<TierMove[]> {
  const moveRows = await rows<Record<string, unknown>>(
    db,
    sql`select from_tier, to_tier, sum(moves)::float8 as moves from report_tier_move
         where day between ${input.from}::date and ${input.to}::date group by 1, 2 order by 3 desc, 1, 2`,
  );
  return moveRows.map((r) => ({ from: String(r.from_tier), to: String(r.to_tier), moves: n(r.moves) }));
}

/** Panel "rewards": the ten rewards most issued in the range (at the stores in scope). */
export async function loadRewards(db: Database, input: DashboardInput): Promise<RewardRow[]> {
  const rewardRows = await rows<Record<string, unknown>>(
    db,
    sql`select reward_id::text as reward_id, sum(issued)::float8 as issued, sum(used)::float8 as used,
               sum(cancelled)::float8 as cancelled, sum(revoked)::float8 as revoked, sum(points)::float8 as points
          from report_reward_day
         where day between ${input.from}::date and ${input.to}::date and ${storeCondition(input.scope)}
         group by reward_id order by sum(issued) desc, sum(used) desc, reward_id limit 10`,
  );
  const rewardNames = new Map(
    (rewardRows.length
      ? await db
          .select({ id: reward.id, name: reward.name })
          .from(reward)
          .where(
            inArray(
              reward.id,
              rewardRows.map((r) => String(r.reward_id)),
            ),
          )
      : []
    ).map((r) => [r.id, r.name]),
  );
  return rewardRows.map((r) => ({
    rewardId: String(r.reward_id),
    name: rewardNames.get(String(r.reward_id)) ?? "—",
    issued: n(r.issued),
    used: n(r.used),
    cancelled: n(r.cancelled),
    revoked: n(r.revoked),
    points: n(r.points),
  }));
}

/** Every panel of the dashboard for the range and scope; programme-wide panels only for the whole programme. */
export async function loadDashboard(db: Database, input: DashboardInput): Promise<Dashboard> {
  const { from, to, today, scope } = input;
  const programme = scope.kind === "all";
  const { days, months, sum } = await loadDays(db, input);
  const stores = await loadStores(db, input);
  const active = await loadActive(db, input);
  const programmeWide = programme ? await loadLiability(db, input) : null;
  const tierMoves = programme ? await loadTierMoves(db, input) : null;
  const rewards = await loadRewards(db, input);
  const cohorts = await loadCohorts(db, input);
  const showroom = await loadShowroom(db, input);

  return {
    from,
    to,
    today,
    programme,
    totals: {
      purchases: sum.purchases,
      netSales: sum.netSales,
      signups: sum.phone + sum.line,
      signupsPhone: sum.phone,
      signupsLine: sum.line,
      issued: sum.issued,
      redeemed: sum.redeemed,
      cancelled: sum.cancelled,
      expired: sum.expired,
      redemptionRate: redemptionRate(sum.issued, sum.redeemed),
      ...active,
    },
    days,
    months,
    stores,
    liability: programmeWide?.liability ?? null,
    tiers: programmeWide?.tiers ?? null,
    tierMoves,
    rewards,
    cohorts,
    showroom,
  };
}

/**
 * Panel "cohorts": monthly cohort retention: for each sign-up month in the range, how many of its members bought (at the stores in
 * scope) in that month and each later month up to the end of the range. Cohort sizes are programme-wide sign-ups.
 */
export async function loadCohorts(
  db: Database,
  input: DashboardInput,
): Promise<{ months: string[]; rows: CohortRow[] }> {
  const { from, to, scope } = input;
  const months = monthsBetween(from, to);
  const first = months[0] ?? monthOf(from);
  const last = months[months.length - 1] ?? monthOf(to);
  const sizes = await rows<Record<string, unknown>>(
    db,
    sql`select to_char(date_trunc('month', day), 'YYYY-MM-DD') as month,
               sum(signups_phone + signups_line)::float8 as members
          from report_day_store
         where day >= ${first}::date and day < (${last}::date + interval '1 month')::date and store_id = ''
         group by 1`,
  );
  const counts =
    scope.kind === "all" || scope.storeIds.length === 1
      ? await rows<Record<string, unknown>>(
          db,
          sql`select signup_month::text as signup_month, month::text as month, sum(members)::float8 as members
                from report_cohort
               where store_id = ${scope.kind === "all" ? "*" : (scope.storeIds[0] as string)}
                 and signup_month between ${first}::date and ${last}::date and month <= ${last}::date
               group by 1, 2`,
        )
      : await rows<Record<string, unknown>>(
          db,
          sql`select signup_month::text as signup_month, month::text as month,
                     count(distinct member_id)::float8 as members
                from report_member_month
               where ${storeCondition(scope)} and month between ${first}::date and ${last}::date
                 and signup_month between ${first}::date and ${last}::date
               group by signup_month, month`, // dates, not their text: a smaller sort that stays in memory
        );
  const sizeOf = new Map(sizes.map((r) => [String(r.month), n(r.members)]));
  const countOf = new Map(counts.map((r) => [`${r.signup_month}|${r.month}`, n(r.members)]));
  return {
    months,
    rows: months.map((signupMonth, i) => ({
      signupMonth,
      size: sizeOf.get(signupMonth) ?? 0,
      // active[k]: members of the cohort with a purchase k months after signing up (null past the range's end).
      active: months.map((_, k) => {
        const month = months[i + k];
        return month === undefined ? null : (countOf.get(`${signupMonth}|${month}`) ?? 0);
      }),
    })),
  };
}
