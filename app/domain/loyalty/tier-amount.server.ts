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
