/** Trade accounts' rules that pages may import too (no database; ADR 057): the field limits and the masks. */

export const COMPANY_MAX = 100;
export const REASON_MAX = 500;

/** A client's name as a trade member sees it: the first character only (as the invite page shows friends). */
export function maskClientName(name: string): string {
  return `${[...name][0] ?? ""}＊＊`;
}

/** A client's amount as a trade member sees it: the thousands, the rest hidden ("12,xxx"; under 1,000 "< 1,000"). */
export function maskClientAmount(amount: number): string {
  if (amount < 1000) return "< 1,000";
  return `${Math.floor(amount / 1000).toLocaleString("en-US")},xxx`;
}
