import { type Database, rowsOf } from "@platform/db/client";
import { store } from "@platform/db/schema";
import { sql } from "drizzle-orm";
import type { StaffActor } from "~/domain/staff/actor";
import { hasPermission } from "~/domain/staff/permissions";
import { fromTaipeiWallClock, parseIsoDate } from "~/lib/time";
import { addIsoDays } from "./filters";

/**
 * Sales and new members per clerk and store, and a consultant's members (issue 36 item 3, ADR 042). The range is
 * Taipei calendar days, both included: from 00:00 Taipei of `from` to 00:00 Taipei of the day after `to`
 * (exclusive), the dashboard's rule (ADR 025).
 */

export type ClerkSalesRow = {
  staffUserId: string;
  displayName: string;
  storeId: string;
  /** Purchases booked with this clerk at this store in the range. */
  purchases: number;
  /** NT$ of those purchases, less what was refunded of them. */
  amount: number;
  /** Points they earned, less what their refunds reversed. */
  points: number;
  /**
   * Members who signed up in the range and whose first purchase, booked in the range, this clerk booked at this
   * store: the members the clerk brought in (sign-up itself happens on the member's phone and names no clerk).
   */
  newMembers: number;
};

export type ConsultantMember = {
  memberId: string;
  memberNumber: string;
  nameZh: string;
  /**
   * The member's last visit: the latest purchase or coupon used at a counter or till (any store), or null for a
   * member who has done neither.
   */
  lastVisitAt: Date | null;
};

/** [start, end) of a Taipei day range (YYYY-MM-DD, both included). */
export function taipeiRange(from: string, to: string): { start: Date; end: Date } {
  const day = (iso: string) => {
    const date = parseIsoDate(iso, 2000);
    if (!date) throw new Error(`not a day: ${iso}`);
    return fromTaipeiWallClock(date);
  };
  return { start: day(from), end: day(addIsoDays(to, 1)) };
}

/** The stores whose clerks' figures the actor sees: every store for an admin, else their own. */
export async function clerkReportStores(db: Database, actor: StaffActor): Promise<string[]> {
  if (!hasPermission(actor, "reports.clerks")) return [];
  if (actor.role === "admin") return (await db.select({ id: store.id }).from(store)).map((s) => s.id).sort();
  return actor.storeIds.filter((storeId) => hasPermission(actor, "reports.clerks", { storeId })).sort();
}

/**
 * Sales and new members per clerk and store for the stores given (the caller's scope, clerkReportStores), in the
 * Taipei range. Only purchases with a clerk count (a till that sent no staff code has none). One statement, each
 * part on purchase_clerk_sales_idx (store, purchased_at where a clerk is set).
 */
export async function clerkSales(
  db: Database,
  storeIds: readonly string[],
  range: { from: string; to: string },
): Promise<ClerkSalesRow[]> {
  if (storeIds.length === 0) return [];
  const { start, end } = taipeiRange(range.from, range.to);
  const stores = sql`array[${sql.join(
    storeIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  const rows = rowsOf<{
    staff_user_id: string;
    display_name: string | null;
    store_id: string;
    purchases: number;
    amount: string;
    points: string;
    new_members: number;
  }>(
    await db.execute(sql`
      with sales as (
        select p.id, p.member_id, p.staff_user_id, p.store_id, p.purchased_at,
               p.net_amount - p.refunded_amount as amount, p.points_earned - p.points_reversed as points
        from purchase p
        where p.staff_user_id is not null and p.store_id = any(${stores})
          and p.purchased_at >= ${start.toISOString()}::timestamptz and p.purchased_at < ${end.toISOString()}::timestamptz
      )
      select s.staff_user_id, a.display_name, s.store_id, count(*)::int as purchases,
             sum(s.amount)::text as amount, sum(s.points)::text as points,
             (count(*) filter (where m.created_at >= ${start.toISOString()}::timestamptz
                and m.created_at < ${end.toISOString()}::timestamptz
                and not exists (select 1 from purchase q where q.member_id = s.member_id
                  and (q.purchased_at, q.id) < (s.purchased_at, s.id))))::int as new_members
      from sales s
      join member m on m.id = s.member_id
      left join staff_account a on a.user_id = s.staff_user_id
      group by s.staff_user_id, a.display_name, s.store_id
      order by s.store_id, sum(s.amount) desc, s.staff_user_id`),
  );
  return rows.map((r) => ({
    staffUserId: r.staff_user_id,
    displayName: r.display_name ?? r.staff_user_id,
    storeId: r.store_id,
    purchases: Number(r.purchases),
    amount: Number(r.amount),
    points: Number(r.points),
    newMembers: Number(r.new_members),
  }));
}

/** Whose consultant lists the actor may read: their own always; a manager their stores' staff; an admin anyone's. */
export function mayReadConsultantList(
  actor: StaffActor,
  consultant: { userId: string; storeIds: readonly string[] },
): boolean {
  if (consultant.userId === actor.userId) return hasPermission(actor, "member.consultant");
  if (!hasPermission(actor, "reports.view")) return false;
  if (actor.role === "admin") return true;
  return consultant.storeIds.some((storeId) => hasPermission(actor, "reports.view", { storeId }));
}

/** The most a consultant's list shows (newest visits first). */
export const CONSULTANT_LIST_LIMIT = 500;

/**
 * A consultant's members with their last visit (the latest purchase or coupon used, at any store), the most
 * recent first and those who never came last; on member_consultant_idx (and, per member, the account row and
 * coupon_member_idx). The caller checks mayReadConsultantList first.
 */
export async function consultantMembers(db: Database, consultantUserId: string): Promise<ConsultantMember[]> {
  const rows = rowsOf<{ id: string; member_number: string; name_zh: string; last_purchase_at: string | Date | null }>(
    await db.execute(sql`
      select m.id, m.member_number, m.name_zh, v.last_visit_at as last_purchase_at
      from member m left join loyalty_account a on a.member_id = m.id
      cross join lateral (select greatest(a.last_purchase_at,
        (select max(c.used_at) from coupon c where c.member_id = m.id and c.used_at is not null)) as last_visit_at) v
      where m.consultant_user_id = ${consultantUserId} and m.deleted_at is null
      order by v.last_visit_at desc nulls last, m.created_at desc
      limit ${CONSULTANT_LIST_LIMIT}`),
  );
  return rows.map((r) => ({
    memberId: r.id,
    memberNumber: r.member_number,
    nameZh: r.name_zh,
    lastVisitAt: r.last_purchase_at === null ? null : new Date(r.last_purchase_at),
  }));
}
