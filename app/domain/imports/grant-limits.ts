/** The bulk grant's limits and its points as people type them (client-safe: the grant pages' forms use them). */

export const MAX_GRANT_POINTS = 100_000;
export const MAX_GRANT_REASON = 200;
export const GRANT_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** Points of a grant row: a whole number 1 … 100,000 (full-width digits and thousands separators accepted). */
export function parseGrantPoints(raw: string): number | null {
  const text = raw.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)).replace(/[，,\s]/g, "");
  if (!/^\d{1,7}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= MAX_GRANT_POINTS ? n : null;
}
