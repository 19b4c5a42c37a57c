/** `href` carrying a counter scan pass (`scan=`, after what its query has; ADR 052); unchanged without one. Client-safe. */
export function withScan(href: string, pass: string | null | undefined): string {
  if (!pass) return href;
  return `${href}${href.includes("?") ? "&" : "?"}scan=${encodeURIComponent(pass)}`;
}
