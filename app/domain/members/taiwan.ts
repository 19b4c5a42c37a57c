/** Taiwan-specific input rules (PRODUCT.md §8), shared by the browser and the server. */

/**
 * Normalises a Taiwan mobile number to E.164 (+8869XXXXXXXX). Accepts 0912-345-678, 0912 345 678,
 * +886912345678, +886 912 345 678 and 886912345678. Returns null for anything else (landlines,
 * foreign numbers, wrong length).
 */
export function normalizeTaiwanMobile(input: string): string | null {
  const compact = input.replace(/[\s\-().]/g, "");
  let national: string | null = null;
  if (/^09\d{8}$/.test(compact)) national = compact.slice(1);
  else if (/^\+8869\d{8}$/.test(compact)) national = compact.slice(4);
  else if (/^8869\d{8}$/.test(compact)) national = compact.slice(3);
  else if (/^\+88609\d{8}$/.test(compact)) national = compact.slice(5);
  return national ? `+886${national}` : null;
}

/** +886912345678 → 0912-345-678, the way people in Taiwan write it. */
export function formatTaiwanMobile(e164: string): string {
  const m = /^\+886(9\d{2})(\d{3})(\d{3})$/.exec(e164);
  return m ? `0${m[1]}-${m[2]}-${m[3]}` : e164;
}

/** 0912-345-678 → 0912-***-678, for messages shown to someone who may not own the number. */
export function maskTaiwanMobile(e164: string): string {
  const m = /^\+886(9\d{2})(\d{3})(\d{3})$/.exec(e164);
  return m ? `0${m[1]}-***-${m[3]}` : e164;
}

const TAX_ID_WEIGHTS = [1, 2, 1, 2, 1, 2, 4, 1];

/**
 * 統一編號 checksum (rule in force since 2023-04-01): multiply by 1,2,1,2,1,2,4,1, add the digits of
 * each product; valid if the sum is divisible by 5, or — when the 7th digit is 7 — if sum + 1 is.
 */
export function isValidTaxIdNumber(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const product = Number(value[i]) * (TAX_ID_WEIGHTS[i] as number);
    sum += Math.floor(product / 10) + (product % 10);
  }
  if (sum % 5 === 0) return true;
  return value[6] === "7" && (sum + 1) % 5 === 0;
}

/** E-invoice mobile barcode carrier: a slash and 7 characters of 0-9 A-Z . + - */
export function isValidEinvoiceCarrier(value: string): boolean {
  return /^\/[0-9A-Z.+-]{7}$/.test(value);
}
