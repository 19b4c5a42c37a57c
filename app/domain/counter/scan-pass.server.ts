import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The counter's proof that the member's card was scanned (ADR 052): the lookup that resolved a card token signs
 * the member, the store, the clerk and the time; the member page and the purchase form carry it (`?scan=`, a hidden
 * field). With it, points are spent without the member's code; without it (a phone or member number typed), the
 * member confirms with a code. A clerk cannot make one (the server's secret), nor use one for another member, store
 * or clerk; it lasts the visit (30 minutes). Pure: no database, so a card-scanned spend costs no round trip.
 */
export const SCAN_PASS_MINUTES = 30;

export type ScanSubject = { memberId: string; storeId: string; userId: string };

function mac(secret: string, subject: ScanSubject, issued: number): string {
  return createHmac("sha256", secret)
    .update(`counter-scan\u0000${subject.memberId}\u0000${subject.storeId}\u0000${subject.userId}\u0000${issued}`)
    .digest("base64url");
}

export function signScanPass(secret: string, subject: ScanSubject, now: Date): string {
  const issued = Math.floor(now.getTime() / 1000);
  return `${issued}.${mac(secret, subject, issued)}`;
}

/** True when `pass` was signed for this member, store and clerk within the last 30 minutes (and not later than now). */
export function verifyScanPass(secret: string, pass: unknown, subject: ScanSubject, now: Date): boolean {
  if (typeof pass !== "string") return false;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(pass);
  if (!match) return false;
  const issued = Number(match[1]);
  const age = now.getTime() / 1000 - issued;
  if (age < -60 || age > SCAN_PASS_MINUTES * 60) return false;
  const expected = Buffer.from(mac(secret, subject, issued));
  const given = Buffer.from(match[2] ?? "");
  return expected.length === given.length && timingSafeEqual(expected, given);
}
