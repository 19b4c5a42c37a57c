import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

type HeaderOptions = {
  isProduction: boolean;
  isViteDev: boolean;
  /** LINE's hosts when a real channel is configured: the login form redirects there, LIFF calls them. */
  lineOrigins?: string[];
};

/** Content-Security-Policy with a per-request nonce; scripts may load further scripts only through 'strict-dynamic'. */
export function contentSecurityPolicy(
  nonce: string,
  { isProduction, isViteDev, lineOrigins = [] }: HeaderOptions,
): string {
  const line = lineOrigins.map((o) => ` ${o}`).join("");
  const directives = [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    // Radix and sonner set inline styles; scripts stay locked down.
    "style-src 'self' 'unsafe-inline'",
    // Uploaded images are served by this app (/media, ADR 028); blob: is the uploader's local preview.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${line}${isViteDev ? " ws: wss:" : ""}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    `form-action 'self'${line}`,
    "object-src 'none'",
    "manifest-src 'self'",
    "worker-src 'self' blob:",
  ];
  if (isProduction) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/**
 * The CSP of the POS API's answers (JSON, and the reference page's self-contained HTML with its inline style): no
 * scripts, no loads, no framing. A nonce would serve nothing there, so none is made per request (ADR 060).
 */
export const API_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The hardening headers every answer carries besides its CSP. */
function fixedHeaders(isProduction: boolean): [string, string][] {
  const headers: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Permissions-Policy", "camera=(self), geolocation=(self), microphone=(), payment=()"],
  ];
  if (isProduction) headers.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
  return headers;
}

/**
 * The headers of an answer under `apiPrefix` (the POS API, ADR 060): the same hardening headers as a page, with
 * API_CONTENT_SECURITY_POLICY, all built once; no nonce in res.locals (nothing there renders a script).
 */
export function apiSecurityHeaders(options: Pick<HeaderOptions, "isProduction">) {
  const headers: [string, string][] = [
    ["Content-Security-Policy", API_CONTENT_SECURITY_POLICY],
    ...fixedHeaders(options.isProduction),
  ];
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

export function securityHeaders(options: HeaderOptions) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = createNonce();
    res.locals.nonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce, options));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(self), geolocation=(self), microphone=(), payment=()");
    if (options.isProduction) {
      res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
    next();
  };
}

const UNSUBSCRIBE_PATH = /^\/unsubscribe\/[A-Za-z0-9._-]{1,200}$/;

/**
 * Cross-site request forgery guard for every state-changing request: a browser always sends
 * Origin on POST/PUT/PATCH/DELETE, and it must be our own. Server-to-server clients (the POS)
 * send no Origin and authenticate with API keys instead.
 */
export function originCheck(publicBaseUrl: string) {
  const publicOrigin = new URL(publicBaseUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    // RFC 8058's one-click unsubscribe is POSTed by mail providers, from their own origin: the signed token
    // in the address is its only credential, and all it can do is stop marketing (ADR 034).
    if (UNSUBSCRIBE_PATH.test(req.path)) {
      // React Router refuses an action whose Origin is not the host's: the provider's origin is dropped here.
      delete req.headers.origin;
      return next();
    }
    const origin = req.get("origin");
    const fetchSite = req.get("sec-fetch-site");
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    const badOrigin = origin !== undefined && origin !== publicOrigin && origin !== ownOrigin;
    if (badOrigin || fetchSite === "cross-site") {
      res.status(403).json({ error: { code: "forbidden_origin", message: "Cross-site request refused" } });
      return;
    }
    next();
  };
}
