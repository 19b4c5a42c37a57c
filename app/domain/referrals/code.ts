/**
 * A referral code as people type or scan it (issue 38, ADR 053): 10 characters of 23456789ABCDEFGHJKMNPQRSTUVWXYZ
 * (the database's member_referral_code()); spaces, dashes and lower case are forgiven. Null for anything else, so
 * a NUL byte, a path or a long string never reaches a query.
 */
export const REFERRAL_CODE = /^[2-9A-HJKMNP-Z]{10}$/;

export function normaliseReferralCode(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length > 40) return null;
  const code = raw.replace(/[\s-]/g, "").toUpperCase();
  return REFERRAL_CODE.test(code) ? code : null;
}

/** The link a member shares: `/join/<code>` on the site's origin. */
export function referralPath(code: string): string {
  return `/join/${code}`;
}

/** The cookie carrying a referral code through sign-up (phone, e-mail and LINE flows all end at create-member-info). */
export const REFERRAL_COOKIE = "han_ref";
/** The cookie marking the codes whose owners opened their invite page in this browser (self-referral by device). */
export const OWN_CODES_COOKIE = "han_ref_own";
