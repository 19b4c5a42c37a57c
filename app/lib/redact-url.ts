/**
 * URLs as the logs keep them: path segments that are secrets are replaced by `[redacted]`. Today that
 * is the staff invitation token (`/admin/invitation/:token`, ADR 020): whoever reads the logs must not
 * be able to accept an invitation. Literal and percent-encoded paths (a `redirectTo=` parameter) alike;
 * React Router's `.data` suffix is kept, so the log still tells a navigation from a page load.
 */
const SECRET_SEGMENTS = [/(\/|%2F)(admin\1invitation\1)[^/?#&%]+?(\.data)?(?=$|[/?#&%])/gi];

export function redactUrl(url: string): string {
  return SECRET_SEGMENTS.reduce((text, pattern) => text.replace(pattern, "$1$2[redacted]$3"), url);
}
