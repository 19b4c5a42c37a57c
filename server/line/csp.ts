import type { LineConfig } from "@platform/config";

/**
 * The LINE origins the page may talk to when a real channel is configured: the login form's
 * redirect goes to the access host (CSP form-action covers redirects), and the LIFF SDK calls the
 * API host and LIFF's own hosts (the home-screen shortcut asks liff-shortcut.line.me, ADR 035). The
 * local provider is on our own origin and needs nothing.
 */
export function lineCspOrigins(line: LineConfig): string[] {
  if (line.mode !== "channel") return [];
  const origins = new Set([new URL(line.authorizeUrl).origin, new URL(line.apiBaseUrl).origin]);
  if (line.liffId) {
    origins.add("https://liff.line.me");
    origins.add("https://liffsdk.line-scdn.net");
    origins.add("https://liff-shortcut.line.me");
  }
  return [...origins];
}
