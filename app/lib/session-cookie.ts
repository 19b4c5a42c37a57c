/**
 * The member session cookie, as better-auth names it (plain, or `__Secure-` prefixed over HTTPS).
 * Its mere presence makes a page private (server/http-cache.ts) and switches the home page's call to
 * action to the member center; whether the session is valid is the accounts module's business.
 */
export const SESSION_COOKIE_NAMES = ["better-auth.session_token", "__Secure-better-auth.session_token"] as const;

export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader
    .split(";")
    .map((part) => part.split("=")[0]?.trim())
    .some((name) => (SESSION_COOKIE_NAMES as readonly (string | undefined)[]).includes(name));
}
