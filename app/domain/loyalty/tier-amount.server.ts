import { type Database, rowsOf } from "@platform/db/client";
import { purchase } from "@platform/db/schema";
import { type Slots, textStatement } from "@platform/db/statement";
import { type SQL, sql } from "drizzle-orm";

/**
 * What one purchase counts toward the tier (PRODUCT.md §12, ADR 052): only the part paid in money, and a refund
 * takes back its share of it — (net − value of the points spent) × (net − refunded) / net, rounded down (whole
 * NT$, so a full refund counts nothing and no refund counts exactly the money paid). The ONE expression: the
 * booking's 12-month spend, the member center, the nightly tier evaluation and the rules preview all use it.
 *
 * `alias`: the purchase table's alias in the statement (default: the table's own name).
 */
export function tierAmountSql(alias = `"purchase"`): SQL {
  const c = (column: string) => sql.raw(`${alias}."${column}"`);
  return sql`((${c("net_amount")} - ${c("points_spent_value")})::bigint * (${c("net_amount")} - ${c("refunded_amount")}) / ${c("net_amount")})`;
}

/** The sum of tierAmountSql over the rows of a statement (0 without any). */
export function tierSpendSql(alias?: string): SQL<string> {
  return sql<string>`coalesce(sum(${tierAmountSql(alias)}), 0)`;
}

/**
 * tierAmountSql of one purchase in JavaScript, for the booking's own purchase before its row exists (ADR 039,
 * "Later (2026-12-07, the answer)"): the same integer arithmetic (bigint, division rounding toward zero, every
 * factor ≥ 0). `tier-amount.integration.test.ts` holds it against the SQL expression.
 */
export function tierAmountOf(p: { netAmount: number; pointsSpentValue: number; refundedAmount: number }): number {
  return Number(
    (BigInt(p.netAmount - p.pointsSpentValue) * BigInt(p.netAmount - p.refundedAmount)) / BigInt(p.netAmount),
  );
}

/**
 * The member's spend toward the tier since `from` (tierSpendSql), one statement started at this call (the booking
 * sends it behind the account's lock, `lockAccountThen`; written as text, as the purchase path's others). No upper
 * bound: behind the lock every purchase of the member that committed before this one is counted, also one whose
 * booking's clock was a few milliseconds ahead of this one's (two instances; until 2026-12-07 the read stopped at the
 * booking's own `now` and left such a purchase out of the tier). A purchase is never in the future of the instance
 * that booked it (checkPurchaseInput), so nothing later than "now" exists to be counted.
 */
export function tierSpendSince(tx: Database, memberId: string, from: Date): Promise<number> {
  return TIER_SPEND_SINCE(tx, { memberId, from: from.toISOString() }).then((result) =>
    Number(rowsOf<{ spend: string | number }>(result)[0]?.spend ?? 0),
  );
}

/** tierSpendSince's statement, built once (ADR 060, "Later (2026-12-07, the builders)"). */
const TIER_SPEND_SINCE = textStatement(
  (p: Slots<"memberId" | "from">) =>
    sql`select ${tierSpendSql("p")} as spend from ${purchase} p
        where p.member_id = ${p.memberId}::uuid and p.purchased_at >= ${p.from}::timestamptz`,
);
