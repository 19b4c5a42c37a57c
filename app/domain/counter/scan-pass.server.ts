import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The counter's proof that the member's card was scanned (ADR 052): the lookup that resolved a card token signs
 * the member, the store, the clerk and the time; the member page and the purchase form carry it (`?scan=`, a hidden
 * field). With it, points are spent without the member's code; without it (a phone or member number typed), the
 * member confirms with a code; the walk-in sample loan (ADR 051) is offered only with it. A clerk cannot make one (the server's secret), nor use one for another member, store
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

export type ScanPassCheck = "ok" | "missing" | "expired" | "forged";

/**
 * Whether `pass` is this clerk's scan of this member at this store within the last 30 minutes: `missing` (none:
 * a typed phone or number), `expired` (scan again), `forged` (not ours, or another member's, store's or clerk's —
 * a refused security event where it is used).
 */
export function checkScanPass(secret: string, pass: unknown, subject: ScanSubject, now: Date): ScanPassCheck {
  if (pass === null || pass === undefined || pass === "") return "missing";
  if (typeof pass !== "string") return "forged";
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(pass);
  if (!match) return "forged";
  const issued = Number(match[1]);
  const expected = Buffer.from(mac(secret, subject, issued));
  const given = Buffer.from(match[2] ?? "");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "forged";
  const age = now.getTime() / 1000 - issued;
  return age < -60 || age > SCAN_PASS_MINUTES * 60 ? "expired" : "ok";
}

/** True when `pass` was signed for this member, store and clerk within the last 30 minutes (and not later than now). */
export function verifyScanPass(secret: string, pass: unknown, subject: ScanSubject, now: Date): boolean {
  return checkScanPass(secret, pass, subject, now) === "ok";
}

export { withScan } from "./scan-link";
